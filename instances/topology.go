package instances

import (
	"fmt"
	"math/rand/v2"

	"github.com/wormlab/wormlab/model"
)

// Topology is a generated network together with what the path-set generators need:
// its terminals and a router that knows the network's structure.
type Topology struct {
	Net *model.Network
	// Params is written as the instance's top-level "topology" object: "kind" and
	// the parameters that rebuild the network.
	Params map[string]any
	// Sources and Dests are the terminal nodes (node indices) messages start at and
	// go to, in terminal order: traffic patterns map source terminal i to a
	// destination terminal. They are the same list except for the butterfly (inputs
	// at level 0, outputs at level log N) and the levelled network.
	Sources, Dests []int
	// Routings lists the routing names Path accepts, the default first (the names of
	// the Routing values the topology offers).
	Routings []string

	routes []Routing
	// coords of each node when the network has coordinates (meshes, tori, lines).
	coords [][]int
	// sides and wrap describe a mesh or torus (wrap[i]: dimension i has wrap links).
	sides []int
	wrap  []bool
}

// Routing chooses the path of one message on the topology that made it. Each
// topology offers its routings as values (Topology.Routing looks one up by name,
// the command line's registry), one implementation per file: routing_*.go.
type Routing interface {
	// Name is the routing's name (the constants below).
	Name() string
	// Path returns a path (edge indices) from node src to node dst != src, drawing
	// from r where the routing is random.
	Path(src, dst int, r *rand.Rand) ([]int, error)
}

// setRoutes records the topology's routings, the default first.
func (t *Topology) setRoutes(rs ...Routing) {
	t.routes = rs
	t.Routings = make([]string, len(rs))
	for i, x := range rs {
		t.Routings[i] = x.Name()
	}
}

// Routing returns the routing of the topology with the given name ("" is the
// default), or a *SpecError naming the routings that apply.
func (t *Topology) Routing(name string) (Routing, error) {
	if name == "" {
		return t.routes[0], nil
	}
	if canon, ok := routingAliases[name]; ok {
		name = canon
	}
	for _, x := range t.routes {
		if x.Name() == name {
			return x, nil
		}
	}
	return nil, specErr("routing", "%q does not apply to %s (want one of %v)", name, t.Kind(), t.Routings)
}

// routingAliases are other spellings of routing names, the router-level commands'
// (docs/cli.md: xy and dor are dimension order everywhere).
var routingAliases = map[string]string{"dor": DimensionOrder, "xy": DimensionOrder}

// Routing names accepted by Topology.Path.
const (
	// DimensionOrder corrects the coordinates of a mesh or torus in dimension order
	// 0, 1, ..., k-1 (e-cube routing), the shorter way round on a torus.
	DimensionOrder = "dimension-order"
	// OneBend takes, on a two-dimensional mesh or torus, the row-first or the
	// column-first path with probability 1/2 each (the one-bend paths of seed 002,
	// section 2.4).
	OneBend = "one-bend"
	// RandomShortest takes a shortest path uniformly at random among the monotone
	// ones of a mesh or torus; on a fat-tree it picks each up-link at random (the
	// fixed-path selection FP of seed 000, section B.2); on a levelled network, where
	// all paths between two nodes have the same length, it draws one uniformly.
	RandomShortest = "random-shortest"
	// Deterministic picks each fat-tree up-link by a digit of the destination's
	// address, so that equal destinations share up-links.
	Deterministic = "deterministic"
	// Unique is the only routing of networks with unique paths (trees, butterflies).
	Unique = "unique"
)

// Path returns a path (edge indices) from node src to node dst under the named
// routing ("" is the topology's default), using r for random choices. It fails when
// src == dst (a path must be non-empty, MODEL.md), when the routing does not apply
// to the topology, or when dst cannot be reached.
func (t *Topology) Path(src, dst int, routing string, r *rand.Rand) ([]int, error) {
	rt, err := t.Routing(routing)
	if err != nil {
		return nil, err
	}
	if src == dst {
		return nil, fmt.Errorf("path from %s to itself: a path must be non-empty", t.Net.Nodes[src])
	}
	return rt.Path(src, dst, r)
}

// Kind returns the topology's kind ("mesh", "butterfly", ...).
func (t *Topology) Kind() string { k, _ := t.Params["kind"].(string); return k }

// Pair is a message to route: from source node Src to destination node Dst.
type Pair struct{ Src, Dst int }

// Instance routes the pairs under the routing and returns them as an instance of
// messages "m0", "m1", ... of length flits, with the topology's parameters as the
// top-level "topology" field. Pairs with Src == Dst are skipped (a path must be
// non-empty); skipped reports how many.
func (t *Topology) Instance(name string, pairs []Pair, routing string, flits int, r *rand.Rand) (in *model.Instance, skipped int, err error) {
	if flits < 1 {
		return nil, 0, specErr("flits", "%d is below 1", flits)
	}
	in = &model.Instance{Name: name, Net: t.Net, Flits: flits}
	in.SetExtra("topology", t.Params)
	in.Messages = make([]model.Message, 0, len(pairs))
	for _, p := range pairs {
		if p.Src == p.Dst {
			skipped++
			continue
		}
		path, err := t.Path(p.Src, p.Dst, routing, r)
		if err != nil {
			return nil, 0, err
		}
		in.Messages = append(in.Messages, model.Message{ID: fmt.Sprintf("m%d", len(in.Messages)), Path: path, L: flits})
	}
	return in, skipped, nil
}

// SpecError is a bad generator parameter; Field names it as the command's flag does
// ("sides", "traffic", ...).
type SpecError struct {
	Field, Msg string
}

func (e *SpecError) Error() string {
	if e.Field == "kind" { // the positional KIND of `wormlab gen`, not a flag
		return e.Msg
	}
	return "--" + e.Field + ": " + e.Msg
}

func specErr(field, format string, a ...any) error {
	return &SpecError{field, fmt.Sprintf(format, a...)}
}
