package drat_test

import (
	"context"
	"fmt"
	"strings"

	"github.com/wormlab/wormlab/drat"
)

// Two worms that must both cross one edge in the only step of a horizon of 1: the
// formula "worm a crosses at step 1", "worm b crosses at step 1", "not both" is
// unsatisfiable, and the one-line proof (the empty clause) checks by unit
// propagation; a proof of an unrelated unit lemma does not.
func ExampleCheck() {
	f, _ := drat.ReadCNF(strings.NewReader("p cnf 2 3\n1 0\n2 0\n-1 -2 0\n"))
	p, _ := drat.ReadProof(strings.NewReader("0\n"))
	r, _ := drat.Check(context.Background(), f, p)
	fmt.Println(r.Verified)

	g, _ := drat.ReadCNF(strings.NewReader("p cnf 3 2\n1 2 0\n-1 2 0\n"))
	q, _ := drat.ReadProof(strings.NewReader("3 0\n-3 0\n0\n"))
	r, _ = drat.Check(context.Background(), g, q)
	fmt.Println(r.Verified, r.Failure)
	// Output:
	// true
	// false lemma 2 (step 2, line 2) is not implied by unit propagation, nor RAT on -3: -3 0
}
