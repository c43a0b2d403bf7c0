package measure_test

import (
	"fmt"
	"os"

	"github.com/wormlab/wormlab/instances"
	"github.com/wormlab/wormlab/measure"
)

func ExampleStats() {
	tp, _ := instances.Torus(4)
	// Four 2-flit worms, each two hops round a ring of 4: the textbook deadlock.
	pairs := []instances.Pair{{Src: 0, Dst: 2}, {Src: 1, Dst: 3}, {Src: 2, Dst: 0}, {Src: 3, Dst: 1}}
	in, _, _ := tp.Instance("ring", pairs, instances.DimensionOrder, 2, nil)
	r := measure.Stats(in)
	r.WriteText(os.Stdout)
	fmt.Println("acyclic:", r.Deps.Acyclic, "best:", r.Best.Value)
	// Output:
	// instance ring: 4 messages, 4 nodes, 8 edges
	// congestion c = 2 at edge 0 (0->1)
	// flit congestion c_L = 4 at edge 0 (0->1)
	// dilation d = 2, message "m0"
	// lengths L = 2 .. 2, 8 flits, 8 hops in all
	// path graph: Delta = 2, message "m0", 1 component, largest 4
	// channel dependency graph: a cycle of 4 edges: 0->1 => 1->2 => 2->3 => 3->0
	// network: not levelled
	// lower bounds on the makespan:
	//   dilation                  3  message "m0": d + L - 1 = 2 + 2 - 1
	//   flit-congestion           4  edge 0 (0->1) carries 4 flits of 2 messages
	//   edge                      4  edge 0 (0->1): 2 messages queue on it (earliest arrivals, lengths and remaining hops)
	// best lower bound: 4 (flit-congestion)
	// acyclic: false best: 4
}
