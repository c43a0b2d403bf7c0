package lower_test

import (
	"fmt"
	"os"

	"github.com/wormlab/wormlab/lower"
	"github.com/wormlab/wormlab/model"
)

// The construction of seed 002, section 5, as stated (p = 3) and repaired: the
// claims that fail on the paper's instance hold on the repaired one.
func ExamplePrimeClaims() {
	for _, repaired := range []bool{false, true} {
		in, err := lower.Prime(3, 7, repaired)
		if err != nil {
			panic(err)
		}
		fmt.Println(in.Name)
		for _, c := range lower.PrimeClaims(in, 3, 7) {
			if !c.Holds || c.Claim == "makespan >= p^2 L" {
				fmt.Printf("  %-36s holds=%v value=%v\n", c.Claim, c.Holds, c.Value)
			}
		}
	}
	// Output:
	// prime-p3-L7
	//   every pair of paths shares an edge   holds=false value=9
	//   makespan >= p^2 L                    holds=false value=26
	//   Omega(cd): bound >= c_L d / 3        holds=false value=0.2063
	// prime-p3-L7-repaired
	//   makespan >= p^2 L                    holds=true value=69
}

// Bounds beyond c + d on the repaired construction: nine pairwise conflicting worms
// of 7 flits on paths of 7 hops need 9 * 7 + 7 - 1 steps.
func ExampleBounds() {
	in, _ := lower.Prime(3, 7, true)
	for _, b := range in.LowerBounds() {
		fmt.Println(b.Name, b.Value)
	}
	for _, b := range lower.Bounds(in) {
		fmt.Println(b.Name, b.Value)
	}
	fmt.Println("best:", lower.Best(in).Name)
	// Output:
	// dilation 13
	// flit-congestion 21
	// edge 27
	// aligned-clique 69
	// aligned-colouring 69
	// aligned-independence 69
	// edge-sequence 27
	// disjunctive 69
	// best: aligned-clique
}

// The phase bound of seed 002, section 3, on the heavily loaded 8-input butterfly.
func ExampleButterfly() {
	in, err := lower.ButterflyProblem(8, "heavy", 3, 1)
	if err != nil {
		panic(err)
	}
	row, err := lower.Butterfly(in, lower.DefaultBudget)
	if err != nil {
		panic(err)
	}
	fmt.Printf("M=%d alpha=%d chi>=%d phase bound=%d c_L+d=%d theorem=%.2f\n",
		row.M, row.Alpha, row.ChiLower, row.BoundChi, row.CPlusD, row.Theorem)
	// Output:
	// M=24 alpha=11 chi>=3 phase bound=11 c_L+d=12 theorem=1.34
}

// The disjunctive program on an instance found by the adversary: the model's bounds
// and the clique arguments give 5, the complete search proves the optimum 7.
func ExampleDisjunctive() {
	f, err := os.Open("testdata/adversary-tree-job-shop.json")
	if err != nil {
		panic(err)
	}
	defer f.Close()
	in, err := model.ReadInstance(f)
	if err != nil {
		panic(err)
	}
	v, exact := lower.Disjunctive(in, 0, 0)
	fmt.Println(in.LowerBound().Value, v, exact)
	// Output:
	// 5 7 true
}
