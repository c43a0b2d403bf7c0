package offline_test

import (
	"fmt"

	"github.com/wormlab/wormlab/instances"
	"github.com/wormlab/wormlab/offline"
	"github.com/wormlab/wormlab/verify"
)

// Colour random traffic on a 4x4 mesh routed in dimension order, then improve the
// schedule; the proven bound of section 4 still holds for the improved schedule.
func ExampleColor() {
	in, err := instances.Generate(instances.Spec{Kind: "mesh", Sides: []int{4, 4}, Messages: 24, Flits: 2, Seed: 1})
	if err != nil {
		panic(err)
	}
	res, err := offline.Color(in, offline.Options{Order: offline.OrderAuto, Improve: true})
	if err != nil {
		panic(err)
	}
	fmt.Println("order:", res.Order, "k:", res.K, "classes:", len(res.Plan.Parts))
	fmt.Println("legal:", verify.Schedule(in, res.Schedule) == nil)
	fmt.Println("constructed:", res.Constructed, "improved:", res.Schedule.Makespan, "bound:", res.Bound, "lower bound:", in.LowerBound().Value)
	// Output:
	// order: mesh k: 2 classes: 4
	// legal: true
	// constructed: 31 improved: 8 bound: 60 lower bound: 7
}

// The greedy colorer of section 4.2 over a chosen order, and the entrance sets of
// that order (Definition 3): on a tree the order of section 4.3 is 2-entrant.
func ExampleMinEntrances() {
	in, err := instances.Generate(instances.Spec{Kind: "tree", Size: 30, Messages: 60, Seed: 4})
	if err != nil {
		panic(err)
	}
	plan, err := offline.TreePlan(in, "")
	if err != nil {
		panic(err)
	}
	min, err := offline.MinEntrances(in, plan.Parts)
	if err != nil {
		panic(err)
	}
	k, err := offline.CheckEntrances(in, plan.Parts, plan.Entrances())
	fmt.Println("construction:", k, err, "smallest:", min.K, "exact:", min.Exact)
	starts, err := offline.Greedy(in, plan.Parts[0])
	if err != nil {
		panic(err)
	}
	c := in.Measure().C
	late := 0
	for _, s := range starts {
		late = max(late, s)
	}
	fmt.Println("latest start within 2(c-1):", late <= 2*(c-1))
	// Output:
	// construction: 2 <nil> smallest: 2 exact: true
	// latest start within 2(c-1): true
}
