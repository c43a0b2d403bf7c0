package instances

import "testing"

// benchSpecs are 10^5-message mesh instances: many messages per node on a small
// mesh (high congestion), or one per node on a large one (long paths).
var benchSpecs = map[string]Spec{
	"mesh100x100-random-1e5": {Kind: "mesh", Sides: []int{100, 100}, Messages: 100000, Seed: 1},
	"mesh317x317-random-1e5": {Kind: "mesh", Sides: []int{317, 317}, Messages: 100000, Seed: 1},
}

// BenchmarkGenerate measures Generate on 10^5-message meshes: O(nodes + edges +
// sum of d_i).
func BenchmarkGenerate(b *testing.B) {
	for name, s := range benchSpecs {
		b.Run(name, func(b *testing.B) {
			for b.Loop() {
				if _, err := Generate(s); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
