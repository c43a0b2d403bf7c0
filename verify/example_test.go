package verify_test

import (
	"fmt"
	"strings"

	"github.com/wormlab/wormlab/model"
	"github.com/wormlab/wormlab/verify"
)

// The instance and schedule of MODEL.md are legal; letting m1 enter edge b->c while
// m0's tail still holds it is not.
func ExampleSchedule() {
	in, _ := model.ReadInstance(strings.NewReader(`{
	  "network": {"edges": [["a", "b"], ["b", "c"]]},
	  "flits": 2,
	  "messages": [
	    {"id": "m0", "path": ["a", "b", "c"]},
	    {"id": "m1", "path": ["b", "c"], "flits": 3},
	    {"id": "m2", "edges": [0, 1]}]}`))
	s, _ := model.ReadSchedule(strings.NewReader(`{
	  "model": "wormhole", "makespan": 8,
	  "messages": [
	    {"id": "m0", "cross": [1, 2]},
	    {"id": "m1", "cross": [4]},
	    {"id": "m2", "start": 5, "cross": [6, 7]}]}`))
	fmt.Println(verify.Schedule(in, s))

	s.Messages[1].Cross = []int{3}
	fmt.Println(verify.Schedule(in, s))
	// Output:
	// <nil>
	// illegal schedule: edge 1 (b->c) held by "m0" and "m1" at time 3
}

// All lists every violation: here the two worms collide on both edges, and the
// claimed makespan is wrong.
func ExampleAll() {
	net := &model.Network{}
	a, b, c := net.AddNode("a"), net.AddNode("b"), net.AddNode("c")
	ab, bc := net.AddEdge(a, b), net.AddEdge(b, c)
	in := &model.Instance{Net: net, Flits: 1, Messages: []model.Message{
		{ID: "x", Path: []int{ab, bc}, L: 1},
		{ID: "y", Path: []int{ab, bc}, L: 1},
	}}
	s := &model.Schedule{Model: model.Wormhole, Makespan: 3, Messages: []model.Times{
		{ID: "x", Cross: []int{1, 2}},
		{ID: "y", Cross: []int{1, 2}},
	}}
	for _, v := range verify.All(in, s) {
		fmt.Printf("%s: %v\n", v.Rule, v)
	}
	// Output:
	// edge-conflict: edge 0 (a->b) held by "x" and "y" at time 1
	// edge-conflict: edge 1 (b->c) held by "x" and "y" at time 2
	// wrong-makespan: claimed makespan 3, but the last delivery (message "x") is at time 2
}
