package online_test

import (
	"context"
	"fmt"

	"github.com/wormlab/wormlab/model"
	"github.com/wormlab/wormlab/online"
	"github.com/wormlab/wormlab/verify"
)

// Greedy routing of MODEL.md's example: m1 drains from b->c first, m0 follows it,
// m2 follows m0's tail with no gap.
func ExampleRun() {
	in, err := model.ParseInstance([]byte(`{
	  "network": {"nodes": ["a", "b", "c"], "edges": [["a", "b"], ["b", "c"]]},
	  "flits": 2,
	  "messages": [
	    {"id": "m0", "path": ["a", "b", "c"]},
	    {"id": "m1", "path": ["b", "c"], "flits": 3},
	    {"id": "m2", "edges": [0, 1]}
	  ]}`))
	if err != nil {
		panic(err)
	}
	r, err := online.Run(context.Background(), in, online.Greedy{}, online.Options{Arb: "message"})
	if err != nil {
		panic(err)
	}
	for _, m := range r.Schedule.Messages {
		fmt.Println(m.ID, m.Cross)
	}
	fmt.Println("makespan", r.Makespan, "lower bound", r.LowerBound, "legal", verify.Schedule(in, r.Schedule) == nil)
	// Output:
	// m0 [1 4]
	// m1 [1]
	// m2 [5 6]
	// makespan 7 lower bound 7 legal true
}

// The phased algorithm reports its phase structure: colours, sub-phase length and
// the worms left for phase two. Here Delta = 1 gives one colour (alpha = 1/2): p and
// q share b->c, so one of them needs d + 2L - 1 = 5 steps, more than the sub-phase
// of L + d = 4: it is removed and delivered in phase two.
func ExampleRun_phased() {
	in, err := model.ParseInstance([]byte(`{
	  "network": {"edges": [["a", "b"], ["b", "c"], ["x", "b"]]},
	  "flits": 2,
	  "messages": [
	    {"id": "p", "path": ["a", "b", "c"]},
	    {"id": "q", "path": ["x", "b", "c"]}
	  ]}`))
	if err != nil {
		panic(err)
	}
	r, err := online.Run(context.Background(), in, online.Phased{}, online.Options{Seed: 1})
	if err != nil {
		panic(err)
	}
	p := r.Phased
	fmt.Println("Delta", p.Delta, "colours", p.Colours, "sub-phase", p.SubPhase, "phase one ends at", p.PhaseOneEnd)
	fmt.Println("undelivered after phase one:", p.Undelivered, "legal:", verify.Schedule(in, r.Schedule) == nil)
	// Output:
	// Delta 1 colours 1 sub-phase 4 phase one ends at 4
	// undelivered after phase one: 1 legal: true
}
