package sim

import "math/rand/v2"

// Header is a packet's state as a routing function sees it. The simulator keeps
// Src, Dst, Hops, Port, InPort and VC; Class and Aux belong to the routing, which
// sets them in Start and changes them in Advance (a VC class, a dateline crossed,
// negative hops taken, bonus cards left, a Valiant intermediate node, ...).
type Header struct {
	Src, Dst int32
	// Hops is the number of router-to-router links the head has crossed.
	Hops int32
	// Port is the output port the head left its previous router by, InPort the
	// input port it entered the current router by and VC the virtual channel it
	// holds on that link; all three are -1 while the packet is at its source.
	Port, InPort, VC int32
	// Class and Aux are the routing's own per-packet state.
	Class int32
	Aux   [3]int32
}

// Choice is one output a routing allows: a port and the set of its virtual channels
// the packet may take there (bit v for VC v).
type Choice struct {
	Port int
	VCs  uint64
	// Pri orders choices for selection: among free candidates a selection policy
	// takes one of the lowest Pri (Duato's protocol gives adaptive channels 0 and
	// escape channels 1). Choices of equal Pri are equally preferred.
	Pri int
}

// Routing is a routing function over one topology and VC count (a value built for
// them by its constructor). It is deterministic: all randomness enters through Start.
// Route and Advance may be called at once from several goroutines, for different
// packets (a run on several threads): they must not change the Routing's own state.
type Routing interface {
	// Start sets the routing's state (Class, Aux) of a new packet at its source,
	// using r for the choices an algorithm makes at injection.
	Start(h *Header, r *rand.Rand)
	// Route appends to out the choices of a packet whose head is at router at, which
	// is not its destination, and returns the extended slice. It never returns an
	// empty set for a reachable destination.
	Route(at int, h *Header, out []Choice) []Choice
	// Advance updates Class and Aux as the head takes output port port, virtual
	// channel vc at router at. It is called before the simulator updates Hops, Port,
	// InPort and VC, so h still describes the hop before.
	Advance(at int, h *Header, port, vc int)
}

// Branching is a Routing that may give a head more than one choice: MaxChoices
// is the most Route appends for one head anywhere on the routing's network (for
// a Sensing routing, the unbound one's: every choice a bound one might make). An
// input VC keeps its heads' choices in one array, grown as Route appends and kept
// for the VC's later heads, so EngineBytes counts room for MaxChoices per input
// VC. A Routing that is not Branching gives one choice a head.
type Branching interface {
	MaxChoices() int
}

// MaxChoices is r's MaxChoices: 1 for a routing that is not Branching (or none).
func MaxChoices(r Routing) int {
	if b, ok := r.(Branching); ok {
		return max(1, b.MaxChoices())
	}
	return 1
}

// Congestion is what an adaptive routing may read of the network's state: Queue is
// the number of flits in the buffers behind router's output port port, all VCs
// together, as the router's credits count them (BookSim2's GetUsedCredit).
type Congestion interface {
	Queue(router, port int) int
}

// Sensing is a Routing whose choices depend on the network's state (UGAL's choice
// between a minimal and a non-minimal route). The simulator runs Sense(its state)
// in its place; the Routing itself, unbound, offers every choice the bound one
// might make, which is what the deadlock checker enumerates.
type Sensing interface {
	Routing
	Sense(c Congestion) Routing
}

// Arriver is a Routing under which a packet may pass its destination and go on:
// Arrived reports whether a packet whose head is at its destination router ends
// there. Without it every packet ends at its destination. Valiant's first phase
// goes on to its intermediate node (Valiant and Brebner 1981; BookSim2's
// valiant_torus does the same): a packet that ended wherever its first phase
// crossed its destination would not follow the scheme's path distribution.
type Arriver interface {
	Arrived(h *Header) bool
}

// Arrives reports whether a packet at its destination router ends there under r.
func Arrives(r Routing, h *Header) bool {
	a, ok := r.(Arriver)
	return !ok || a.Arrived(h)
}

// Ejecting is a Routing that names the VCs a packet may take on its destination
// terminal's ejection port (BookSim2's routing functions give one there as at
// every hop: its dragonfly's min_dragonflynew the packet's phase); without it a
// packet may take any.
type Ejecting interface {
	EjectVCs(h *Header) uint64
}
