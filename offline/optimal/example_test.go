package optimal_test

import (
	"context"
	"fmt"
	"os"

	"github.com/wormlab/wormlab/model"
	"github.com/wormlab/wormlab/offline/optimal"
)

// The instance of MODEL.md: three worms on a path a -> b -> c. The optimum meets
// the flit congestion of edge b->c (2 + 3 + 2 = 7), so no proof is needed beyond
// the lower bound. The schedule search finds it: m0 starts at step 3 and never
// waits.
func ExampleSolve() {
	in, _ := model.ParseInstance([]byte(`{
  "network": {"edges": [["a", "b"], ["b", "c"]]},
  "flits": 2,
  "messages": [
    {"id": "m0", "path": ["a", "b", "c"]},
    {"id": "m1", "path": ["b", "c"], "flits": 3},
    {"id": "m2", "edges": [0, 1]}
  ]
}`))
	res, err := optimal.Solve(context.Background(), in, optimal.Options{Model: model.Wormhole})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("makespan", res.Schedule.Makespan, "lower", res.Lower, "optimal", res.Optimal)
	for _, t := range res.Schedule.Messages {
		fmt.Println(t.ID, t.Cross)
	}
	// Output:
	// makespan 7 lower 7 optimal true
	// m0 [3 4]
	// m1 [1]
	// m2 [5 6]
}

// Encode gives the CNF for one horizon, for any SAT solver; Decode reads a model
// back. At horizon 3 = d + L - 1 of m0 it must start at once, and m1 then has to
// cross b->c before m0's head gets there: the windows fix the order, and one
// variable (m1's t_1 <= 1) remains, forced by a unit clause. Edge b->c carries 3
// flits and must be busy at steps 1, 2 and 3 (busy.go): at step 1 only m1 can hold
// it (variable 3, which implies t_1 <= 1).
func ExampleEncode() {
	in, _ := model.ParseInstance([]byte(`{
  "network": {"edges": [["a", "b"], ["b", "c"]]},
  "messages": [
    {"id": "m0", "path": ["a", "b", "c"], "flits": 2},
    {"id": "m1", "path": ["b", "c"]}
  ]
}`))
	f, err := optimal.Encode(in, model.Bufferless, 3)
	if err != nil {
		fmt.Println(err)
		return
	}
	f.WriteDIMACS(os.Stdout)
	// Output:
	// c wormlab optimal encoding wormlab-order-5
	// c instance "" model bufferless horizon 3 messages 2
	// c time -: message "m0" hop 1: t_1 = 1 fixed
	// c time 1..2: message "m1" hop 1 (edge b->c): variable 1+(v-1) means t_1 = start + 1 <= v for v = 1..2
	// c order -: start("m1") - start("m0") <= 0: fixed by the windows
	// c busy: edge b->c: the 2 messages from hop 1 with 0 hops left hold every step 1..3 at horizon 3
	// p cnf 3 4
	// -1 2 0
	// 1 0
	// -3 1 0
	// 3 0
}
