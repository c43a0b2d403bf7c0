package sim_test

import (
	"context"
	"fmt"

	"github.com/wormlab/wormlab/routing"
	"github.com/wormlab/wormlab/sim"
	"github.com/wormlab/wormlab/topology"
)

// A closed batch on a 4x4 torus with dimension-order routing: two packets that
// share no channel arrive after exactly the zero-load latency, and a third that
// follows the first waits for it.
func ExampleRunBatch() {
	net, _ := topology.Parse("torus:4x4")
	dor, _ := routing.NewDOR(net, 2)
	cfg := sim.Config{Net: net, Routing: dor, VCs: 2, Buf: 4, Pipeline: sim.Ideal(), Seed: 1}
	res, err := sim.RunBatch(context.Background(), cfg, []sim.Packet{
		{Src: 0, Dst: 2, Flits: 4},  // two links in x
		{Src: 5, Dst: 13, Flits: 4}, // two links in y
		{Src: 0, Dst: 2, Flits: 4},  // behind the first at the source
	}, sim.BatchOptions{})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("zero-load:", sim.Ideal().ZeroLoad(2, 4))
	fmt.Println("latencies:", res.Latency)
	fmt.Println("makespan:", res.Makespan)
	// Output:
	// zero-load: 5
	// latencies: [5 5 9]
	// makespan: 9
}
