package deadlock

import (
	"context"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/wormlab/wormlab/routing"
	"github.com/wormlab/wormlab/topology"
)

// docs/deadlock.md, what is not replayed, "more other requests than routers to
// send helpers from": hx-dal on hyperx:3x3,k=2 with 3 VCs under non-atomic
// reallocation deadlocks with two worms, each head granted the other's tail VC
// and requesting five more VCs on the two parallel links out of its router;
// the routers that start no worm and end a packet with one of those VCs off
// the chains (a helper's path, Config.helper) are four for each head (0,1,
// 0,2, 2,0 and 2,2 for the head at 0,0), one helper each, fewer than the five
// requests. The statement is the configuration's, not the replay's: it holds
// whatever the buffers.
func TestMoreRequestsThanFreeRouters(t *testing.T) {
	net, err := topology.Parse("hyperx:3x3,k=2,t=1")
	require.NoError(t, err)
	alg, err := routing.Lookup("hx-dal")
	require.NoError(t, err)
	r, err := alg.New(net, 3)
	require.NoError(t, err)
	ctx := context.Background()
	res, err := Exact(ctx, net, r.(Function), 3, "hx-dal", ExactOptions{Buf: 8, NoReplay: true})
	require.NoError(t, err)
	require.Equal(t, "deadlock", res.Verdict)
	c := res.Decision().Config
	g := c.g
	require.Len(t, c.Worms, 2)
	onChain := map[int32]bool{}
	for i := range c.Worms {
		for _, v := range c.VCs(i) {
			onChain[v] = true
		}
	}
	busy := map[int]bool{}
	for _, w := range c.Worms {
		src, _, _, err := g.Path(ctx, w.Nodes[0])
		require.NoError(t, err)
		busy[src] = true
	}
	heads := map[string]bool{}
	for i, w := range c.Worms {
		require.GreaterOrEqual(t, w.Commit, int32(0), "worm %d is granted a VC", i+1)
		require.True(t, onChain[w.Commit], "worm %d is granted a chain's VC", i+1)
		at, _ := g.Rep(w.head())
		head := topology.NodeName(net, at)
		heads[head] = true
		var others []int32
		links := map[int]bool{}
		for _, v := range g.Choices(w.head()) {
			if !onChain[v] {
				others = append(others, v)
				ch := g.Channel(v)
				require.Equal(t, at, ch.Router, "worm %d: %s leaves the head's router", i+1, g.ChannelName(v))
				links[ch.Port] = true
			}
		}
		require.Len(t, others, 5, "worm %d (head at %s): requests besides the chains'", i+1, head)
		require.Len(t, links, 2, "worm %d: the links of those requests", i+1)
		to := map[int]bool{}
		for p := range links {
			n, _ := g.Net.Link(at, p)
			to[n] = true
		}
		require.Len(t, to, 1, "worm %d: the two links are parallel (one neighbour)", i+1)
		var free []string
		for _, s := range topology.Sources(net) {
			if busy[s] {
				continue
			}
			for _, v := range others {
				ch := g.Channel(v)
				next, _ := g.Net.Link(ch.Router, ch.Port)
				_, _, _, err := g.pathWhere(ctx, next, func(st *state) bool { return st.held == v && int(st.at) == next },
					func(x int) bool { return x == s }, func(x int32) bool { return x != v && onChain[x] })
				if err == nil {
					free = append(free, topology.NodeName(net, s))
					break
				}
			}
		}
		require.Len(t, free, 4, "worm %d (head at %s): free routers reaching its other requests: %v", i+1, head, free)
		if head == "0,0" {
			slices.Sort(free)
			require.Equal(t, []string{"0,1", "0,2", "2,0", "2,2"}, free)
		}
	}
	require.True(t, heads["0,0"], "a head at 0,0: %v", heads)
}
