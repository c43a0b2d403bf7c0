package objective

import (
	"context"
	"fmt"

	"github.com/wormlab/wormlab/lower/adversary"
)

// ClosedForm is a denominator computed from the instance's measures: Name says
// what (it is the Value's How), F computes it from c_L, d = max d_i and
// max_i (d_i + L_i - 1).
type ClosedForm struct {
	Name string
	F    func(cl, d, dl int) int
}

var _ Measure = ClosedForm{}

// Measure computes the form; it is exact.
func (f ClosedForm) Measure(_ context.Context, m *Memo, _ bool) (Side, error) {
	ms := m.Measures()
	dl := 0
	for i := range m.In.Messages {
		dl = max(dl, len(m.In.Messages[i].Path)+m.In.Messages[i].L-1)
	}
	return Side{Value: adversary.Value{V: f.F(ms.CL, ms.D, dl), How: f.Name, Exact: true}}, nil
}

// The closed forms of the objectives.
var (
	// CD is max(c_L, max_i (d_i + L_i - 1)), the classical lower bound: opt/cd.
	CD = ClosedForm{"max(c_L, d + L - 1)", func(cl, _, dl int) int { return max(cl, dl) }}
	// CPlusD is c_L + d - 1, the O(c + d) the offline colourings of seed 002,
	// section 4 attain on trees and meshes: opt/cl+d-1.
	CPlusD = ClosedForm{"c_L + d - 1", func(cl, d, _ int) int { return cl + d - 1 }}
	// CTimesD is c_L d, the O(cd) any instance can be scheduled in offline (seed
	// 002, section 5, with c the flit congestion as the paper counts it): opt/cl.d.
	CTimesD = ClosedForm{"c_L d", func(cl, d, _ int) int { return cl * d }}
)

func (f ClosedForm) String() string { return fmt.Sprintf("closed form %s", f.Name) }
