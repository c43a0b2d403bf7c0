// Package objective holds the ratios wormlab adversary maximises: each objective is
// a numerator and a denominator, lower.Measure values built from the solver
// (offline/optimal), the online greedy, the offline colorer and the lower bounds of
// package lower. Where the solver does not prove an optimum within its time, the
// numerator takes its best schedule (an upper bound) and the denominator its best
// proven lower bound, so that an unfinished solve can only overstate a ratio, and
// the Value's How says so.
//
// Cost: one measure call per side and per instance; the solver's within Timeout.
package objective

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/wormlab/wormlab/lower"
	"github.com/wormlab/wormlab/model"
	"github.com/wormlab/wormlab/offline"
	"github.com/wormlab/wormlab/offline/optimal"
	"github.com/wormlab/wormlab/online"
)

// Ratio is an objective: Num / Den.
type Ratio struct {
	Num, Den lower.Measure
}

// Colorer measures the makespan of the offline colorer (bufferless schedules).
var Colorer = lower.MeasureFunc(func(_ context.Context, in *model.Instance) (lower.Value, error) {
	res, err := offline.Color(in, offline.Options{Order: "auto"})
	if err != nil {
		return lower.Value{}, err
	}
	return lower.Value{V: res.Schedule.Makespan, How: "colorer (" + res.Order + " order)"}, nil
})

// Greedy measures the makespan of online greedy under message-order arbitration.
var Greedy = lower.MeasureFunc(func(ctx context.Context, in *model.Instance) (lower.Value, error) {
	res, err := online.Run(ctx, in, online.Greedy{}, online.Options{})
	if err != nil {
		return lower.Value{}, err
	}
	return lower.Value{V: res.Makespan, How: "greedy"}, nil
})

// Solver is the solver's optimum in model within timeout per instance. When it
// does not prove one it measures its best schedule's makespan (Upper) or its best
// proven lower bound, at least lower.Best (not Upper), and says so.
type Solver struct {
	Model   string
	Timeout time.Duration
	Upper   bool
}

var _ lower.Measure = Solver{}

// Measure runs the solver.
func (s Solver) Measure(ctx context.Context, in *model.Instance) (lower.Value, error) {
	ctx, cancel := context.WithTimeout(ctx, s.Timeout)
	defer cancel()
	res, err := optimal.Solve(ctx, in, optimal.Options{Model: s.Model})
	if err != nil {
		return lower.Value{}, err
	}
	if res.Optimal {
		return lower.Value{V: res.Schedule.Makespan, How: "solver optimum (" + s.Model + ")"}, nil
	}
	if s.Upper {
		return lower.Value{V: res.Schedule.Makespan, How: "solver best schedule, not proven optimal (" + s.Model + ")"}, nil
	}
	b := lower.Best(in)
	return lower.Value{V: max(res.Lower, b.Value), How: "lower bound (solver unfinished; " + s.Model + ")"}, nil
}

// All returns the objectives by name, with the solver in modelName within timeout.
func All(modelName string, timeout time.Duration) map[string]Ratio {
	up := Solver{Model: modelName, Timeout: timeout, Upper: true}
	low := Solver{Model: modelName, Timeout: timeout}
	return map[string]Ratio{
		"opt/lower":     {up, lower.LowerMeasure},
		"opt/cd":        {up, lower.CDMeasure},
		"greedy/opt":    {Greedy, low},
		"greedy/bound":  {Greedy, lower.LowerMeasure},
		"colorer/opt":   {Colorer, low},
		"colorer/bound": {Colorer, lower.LowerMeasure},
	}
}

// Names lists the objective names, sorted.
func Names() []string {
	var names []string
	for n := range All(model.Wormhole, 0) {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// DefaultModel is the solver's model for an objective: bufferless for the colorer
// objectives (the colorer's schedules are bufferless), else wormhole.
func DefaultModel(objective string) string {
	if strings.HasPrefix(objective, "colorer/") {
		return model.Bufferless
	}
	return model.Wormhole
}

// Lookup returns the named objective.
func Lookup(name, modelName string, timeout time.Duration) (Ratio, error) {
	r, ok := All(modelName, timeout)[name]
	if !ok {
		return Ratio{}, fmt.Errorf("unknown objective %q (want one of %s)", name, strings.Join(Names(), ", "))
	}
	return r, nil
}
