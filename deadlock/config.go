package deadlock

// Deadlock configurations: what the exact decision finds or proves absent.
//
// A configuration is a set of worms. A worm is a packet with its destination and
// routing state, holding a chain of VCs c_1 .. c_m (tail to head) that it can
// legally hold: its states along the chain follow one another by the routing's
// choices, the first reachable from a source. Its head sits at the front of c_m's
// buffer, not at its destination, and may request the VCs the routing offers in
// its last state. The configuration is dead when no flit can ever move again:
//
//   - atomic reallocation (a VC is given to a new packet only once its buffer is
//     empty): the chains are disjoint and every VC a head may request lies in
//     some chain. Fill each chain with (m-1) B + 1 flits (B in every VC, one in the
//     tail's): no body flit can advance (the next buffer is full), and no head can
//     be granted a VC (each is owned, or holds flits).
//   - non-atomic reallocation (BookSim2's rule, wormlab's default: a VC is free for
//     a new packet once the previous tail has left its router, though its flits
//     may still fill the buffer): a chain's tail VC c_1 is not owned, so a head
//     that may request it is granted it and then waits for its buffer to drain.
//     A head is dead when every VC it may request is owned (an inner VC of some
//     chain, or a tail VC another head has committed to), or when it has committed
//     to one VC it may request that is a chain's tail VC, full (the worm holding it
//     has m B flits); at most one head commits to each tail VC.
//
// Both readings are necessary: a dead state of the simulator, restricted to the
// packets holding VCs, is such a configuration (a packet whose head reached its
// destination drains; a head that can be granted a VC moves; under atomic
// reallocation a queue holds one packet, under non-atomic a head waiting behind
// another packet's tail in one queue is a committed head). And sufficient: a
// configuration, once its flits are in place, never moves (the argument above).
// Whether the simulator can reach it from an empty network is a further question
// (replay.go answers it for the configurations wormlab reports).
//
// With packets of any length the buffer depth B changes nothing above: any chain
// can be filled. It changes how many flits each packet needs, and so which
// configurations packets of a bounded length can form (not decided here).

import (
	"fmt"
	"strings"

	"github.com/wormlab/wormlab/routing"
	"github.com/wormlab/wormlab/topology"
)

func portName(net topology.Network, p int) string { return routing.PortName(net, p) }

// Config is a deadlock configuration over a graph's nodes.
type Config struct {
	g      *Graph
	Atomic bool
	Worms  []Worm
}

// Worm is one packet of a configuration: its states, tail to head (one per VC it
// holds), and under non-atomic reallocation the VC its head has committed to (-1:
// none; then every VC it may request is owned).
type Worm struct {
	Nodes  []int32
	Commit int32
}

func (w *Worm) head() int32 { return w.Nodes[len(w.Nodes)-1] }

// Graph is the graph the configuration is over.
func (c *Config) Graph() *Graph { return c.g }

// VCs lists the VCs worm i holds, tail to head.
func (c *Config) VCs(i int) []int32 {
	out := make([]int32, len(c.Worms[i].Nodes))
	for k, n := range c.Worms[i].Nodes {
		out[k] = c.g.held[n]
	}
	return out
}

// Validate checks that c is a dead configuration of its graph: every worm's states
// follow one another, no VC is held twice, and every head is blocked by the rule of
// c.Atomic. It is the decision's own check of what it decodes.
func (c *Config) Validate() error {
	g := c.g
	if len(c.Worms) == 0 {
		return fmt.Errorf("no worm")
	}
	owner := map[int32]int{} // VC -> worm
	tail := map[int32]bool{}
	owned := map[int32]bool{}
	for i, w := range c.Worms {
		if len(w.Nodes) == 0 {
			return fmt.Errorf("worm %d holds no VC", i+1)
		}
		for k, n := range w.Nodes {
			if n < 0 || int(n) >= g.Nodes() {
				return fmt.Errorf("worm %d: node %d does not exist", i+1, n)
			}
			v := g.held[n]
			if j, dup := owner[v]; dup {
				return fmt.Errorf("worm %d and worm %d both hold %s", j+1, i+1, g.ChannelName(v))
			}
			owner[v] = i
			if k > 0 {
				prev := w.Nodes[k-1]
				ok := false
				for _, s := range g.Succ(prev) {
					ok = ok || s == n
				}
				if !ok {
					return fmt.Errorf("worm %d: %s cannot follow %s", i+1, g.ChannelName(v), g.ChannelName(g.held[prev]))
				}
				owned[v] = true
			}
		}
		tail[g.held[w.Nodes[0]]] = true
	}
	committed := map[int32]int{}
	for i, w := range c.Worms {
		if w.Commit < 0 {
			continue
		}
		if c.Atomic {
			return fmt.Errorf("worm %d commits to a VC under atomic reallocation", i+1)
		}
		if j, dup := committed[w.Commit]; dup {
			return fmt.Errorf("worms %d and %d both commit to %s", j+1, i+1, g.ChannelName(w.Commit))
		}
		committed[w.Commit] = i
		owned[w.Commit] = true
	}
	for i, w := range c.Worms {
		h := w.head()
		req := g.Choices(h)
		if w.Commit >= 0 {
			ok := false
			for _, v := range req {
				ok = ok || v == w.Commit
			}
			if !ok {
				return fmt.Errorf("worm %d commits to %s, which its head may not request", i+1, g.ChannelName(w.Commit))
			}
			if !tail[w.Commit] {
				return fmt.Errorf("worm %d commits to %s, which is no worm's tail VC", i+1, g.ChannelName(w.Commit))
			}
			continue
		}
		for _, v := range req {
			_, held := owner[v]
			if c.Atomic && !held {
				return fmt.Errorf("worm %d's head may request %s, which no worm holds", i+1, g.ChannelName(v))
			}
			if !c.Atomic && !owned[v] {
				return fmt.Errorf("worm %d's head may request %s, which no worm owns", i+1, g.ChannelName(v))
			}
		}
	}
	return nil
}

// ChannelName writes VC c as "0,0 +x vc 0".
func (g *Graph) ChannelName(c int32) string {
	ch := g.Channel(c)
	return fmt.Sprintf("%s %s vc %d", topology.NodeName(g.Net, ch.Router), portName(g.Net, ch.Port), ch.VC)
}

// String writes the configuration worm by worm, channel by channel.
func (c *Config) String() string {
	g := c.g
	var b strings.Builder
	holder := map[int32]int{}
	for i := range c.Worms {
		for _, v := range c.VCs(i) {
			holder[v] = i
		}
	}
	for i, w := range c.Worms {
		at, h := g.Rep(w.head())
		fmt.Fprintf(&b, "worm %d (to %s): holds", i+1, topology.NodeName(g.Net, int(h.Dst)))
		for k, v := range c.VCs(i) {
			if k > 0 {
				b.WriteString(",")
			}
			b.WriteString(" " + g.ChannelName(v))
		}
		fmt.Fprintf(&b, "; head at %s", topology.NodeName(g.Net, at))
		if w.Commit >= 0 {
			fmt.Fprintf(&b, " granted %s (worm %d's tail VC, full)", g.ChannelName(w.Commit), holder[w.Commit]+1)
		} else {
			b.WriteString(" requests")
			for k, v := range g.Choices(w.head()) {
				if k > 0 {
					b.WriteString(",")
				}
				fmt.Fprintf(&b, " %s (worm %d)", g.ChannelName(v), holder[v]+1)
			}
		}
		b.WriteString("\n")
	}
	return b.String()
}
