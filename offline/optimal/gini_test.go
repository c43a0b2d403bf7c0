package optimal

import (
	"io"

	"github.com/go-air/gini"
	"github.com/go-air/gini/z"
)

// giniSolver wraps a gini solver read from DIMACS for the tests.
type giniSolver struct{ g *gini.Gini }

func newSolverFromDIMACS(r io.Reader) (*giniSolver, error) {
	g, err := gini.NewDimacs(r)
	if err != nil {
		return nil, err
	}
	return &giniSolver{g}, nil
}

func (s *giniSolver) Solve() int { return s.g.Solve() }

func (s *giniSolver) value(v int) bool {
	if z.Var(v) > s.g.MaxVar() {
		return false
	}
	return s.g.Value(z.Dimacs2Lit(v))
}
