package measure

import (
	"testing"

	"github.com/wormlab/wormlab/instances"
	"github.com/wormlab/wormlab/model"
)

var benchSpecs = map[string]instances.Spec{
	"mesh100x100-random-1e5": {Kind: "mesh", Sides: []int{100, 100}, Messages: 100000, Seed: 1},
	"mesh317x317-random-1e5": {Kind: "mesh", Sides: []int{317, 317}, Messages: 100000, Seed: 1},
}

// BenchmarkStats measures Stats on 10^5-message meshes, and its parts: the loads
// (Measure), Delta (O(sum_e c_e^2)), the components, the dependency cycle search
// and the lower bounds.
func BenchmarkStats(b *testing.B) {
	for name, s := range benchSpecs {
		in, err := instances.Generate(s)
		if err != nil {
			b.Fatal(err)
		}
		users := in.Users()
		parts := map[string]func(){
			"all":        func() { Stats(in) },
			"measure":    func() { in.Measure() },
			"delta":      func() { MaxDegree(in, users) },
			"components": func() { ComponentSizes(in, users) },
			"cycle":      func() { in.Dependencies().Cycle() },
			"bounds":     func() { in.LowerBounds() },
		}
		for part, f := range parts {
			b.Run(name+"/"+part, func(b *testing.B) {
				for b.Loop() {
					f()
				}
			})
		}
	}
}

var _ = model.Wormhole
