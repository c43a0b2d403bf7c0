package objective

import (
	"context"

	"github.com/wormlab/wormlab/lower/adversary"
	"github.com/wormlab/wormlab/model"
	"github.com/wormlab/wormlab/offline"
)

// Colorer is the makespan of the offline colorer (seed 002, section 4: the tree or
// mesh colouring where it applies, else the generic order), a bufferless schedule.
type Colorer struct{}

var _ Measure = Colorer{}

// Measure runs the colorer; it is exact, and its schedule is kept for verify.
func (Colorer) Measure(_ context.Context, m *Memo, _ bool) (Side, error) {
	res, err := offline.Color(m.In, offline.Options{Order: "auto"})
	if err != nil {
		return Side{}, err
	}
	return Side{Value: adversary.Value{V: res.Schedule.Makespan, How: "colorer (" + res.Order + " order)", Exact: true},
		Schedule: res.Schedule, Model: model.Bufferless}, nil
}
