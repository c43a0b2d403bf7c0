package model_test

import (
	"fmt"
	"strings"

	"github.com/wormlab/wormlab/internal/fixture"
	"github.com/wormlab/wormlab/model"
)

// The instance of MODEL.md: three worms on the line a -> b -> c.
const exampleJSON = fixture.ExampleInstance

func ExampleReadInstance() {
	in, err := model.ReadInstance(strings.NewReader(exampleJSON))
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, m := range in.Messages {
		fmt.Printf("%s: path %v, d = %d, L = %d\n", m.ID, in.Net.NodesOf(m.Path), m.D(), m.L)
	}
	// A hop between nodes with no edge is bad input naming the message and hop.
	_, err = model.ReadInstance(strings.NewReader(`{"network": {"edges": [["a","b"]]},
		"messages": [{"id": "x", "path": ["b", "a"]}]}`))
	fmt.Println(err)
	// Output:
	// m0: path [a b c], d = 2, L = 2
	// m1: path [b c], d = 1, L = 3
	// m2: path [a b c], d = 2, L = 2
	// instance: message "x": hop b->a: no such edge
}

func ExampleInstance_Measure() {
	in, _ := model.ParseInstance([]byte(exampleJSON))
	ms := in.Measure()
	fmt.Println("loads c_e:", ms.Load, "flit loads:", ms.FlitLoad)
	fmt.Printf("c = %d at %s, c_L = %d at %s, d = %d (%s)\n",
		ms.C, in.Net.EdgeName(ms.CEdge), ms.CL, in.Net.EdgeName(ms.CLEdge), ms.D, in.Messages[ms.DMsg].ID)
	delta, who := in.PathGraph().MaxDegree()
	fmt.Printf("path graph: Delta = %d (%s)\n", delta, in.Messages[who].ID)
	// Output:
	// loads c_e: [2 3] flit loads: [4 7]
	// c = 3 at b->c, c_L = 7 at b->c, d = 2 (m0)
	// path graph: Delta = 2 (m0)
}

func ExampleInstance_LowerBounds() {
	in, _ := model.ParseInstance([]byte(exampleJSON))
	// Edge b->c must pass 7 flits and no worm can reach it before step 1, so no
	// schedule ends before step 7. (MODEL.md's example schedule takes 8 steps; 7 is
	// attained: m1 at once, m0 crossing at steps 1 and 4, m2 at steps 5 and 6.)
	for _, b := range in.LowerBounds() {
		fmt.Printf("%-15s %d  %s\n", b.Name, b.Value, b.Detail)
	}
	best := in.LowerBound()
	fmt.Printf("best: %d (%s)\n", best.Value, best.Name)
	// Output:
	// dilation        3  message "m0": d + L - 1 = 2 + 2 - 1
	// flit-congestion 7  edge 1 (b->c) carries 7 flits of 3 messages
	// edge            7  edge 1 (b->c): 3 messages queue on it (earliest arrivals, lengths and remaining hops)
	// best: 7 (flit-congestion)
}
