package optimal

import (
	"os"
	"testing"

	"github.com/go-air/gini"
	"github.com/go-air/gini/z"
)

func TestGiniRepro(t *testing.T) {
	fh, _ := os.Open("/tmp/dbg.cnf")
	g, err := gini.NewDimacs(fh)
	if err != nil {
		t.Fatal(err)
	}
	// lb probe: horizon 4? then units
	g.Assume(z.Dimacs2Lit(1), z.Dimacs2Lit(4), z.Dimacs2Lit(7))
	t.Log(g.Solve())
	for _, l := range []int{2, 5, 8} {
		g.Add(z.Dimacs2Lit(l))
		g.Add(0)
	}
	t.Log(g.Solve())
}
