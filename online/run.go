package online

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/wormlab/wormlab/engine"
	"github.com/wormlab/wormlab/model"
)

// Delay variants of delayed-greedy, as DelayedInfo.Variant reports them.
const (
	DelayPhases = "phases" // Algorithm A of seed 000 (AlgorithmA)
	DelayRandom = "random" // plain random delays of seed 000's simulations (RandomDelay)
)

// Meet reports seed 000's assumption that any two paths meet in at most one
// contiguous run of edges: MaxRuns is the largest number of runs of a pair (0 when
// no two paths meet), A and B the ids of such a pair when it is more than one.
type Meet struct {
	OneRun  bool   `json:"one_run"`
	MaxRuns int    `json:"max_runs"`
	A       string `json:"a,omitempty"`
	B       string `json:"b,omitempty"`
	// Skipped, when not empty, says why the pairs were not examined (the work
	// was above the run's budget, Options.MeetBudget): OneRun and MaxRuns are then
	// unknown and false and 0.
	Skipped string `json:"skipped,omitempty"`
}

// DelayedInfo describes a delayed-greedy run.
type DelayedInfo struct {
	Variant string
	// K, Phases = ceil(K c min(L, d)) (ceil(K c L) with PerL), T (the first
	// round's) for Algorithm A; R and Unit for the random variant.
	K      float64
	PerL   bool
	Phases int
	T      int
	R      int
	Unit   int
	// Delay is each worm's delay in the last round it was released in.
	Delay []int
	// Late counts worms not delivered within their phase (Algorithm A without
	// doubling): delivery > (delta_i + 1) T.
	Late int
	// Rounds is the number of rounds (1 without doubling), FinalT the last round's T,
	// LatePerRound the worms removed at the end of each round's phases.
	Rounds       int
	FinalT       int
	LatePerRound []int
	// PhaseBound is a deterministic bound on the length any phase needs for the
	// drawn delays (see PhaseBound), for the first round.
	PhaseBound int
}

// PhasedInfo describes a phased run.
type PhasedInfo struct {
	Alpha    float64
	Delta    int
	Colours  int
	Lambda   int // max(1, ceil(log2 Delta))
	SubPhase int // S = L lambda + d
	// PhaseOneEnd = Colours * SubPhase: phase two releases its worms at this time.
	PhaseOneEnd int
	Colour      []int
	// PhaseOne[i] says whether worm i was delivered in phase one.
	PhaseOne    []bool
	Undelivered int
}

// Result is one run.
type Result struct {
	Algo, Arb string
	Seed      uint64
	Rotate    bool
	// Schedule is the run's schedule: model.Wormhole, or "store-and-forward" (with
	// hop times as Cross) for store.
	Schedule *model.Schedule
	// Delivered[i] is worm i's delivery time t_d + L - 1.
	Delivered  []int
	Makespan   int
	LowerBound int
	Counters   engine.Counters
	Steps      []engine.StepCount
	Meet       Meet
	Delayed    *DelayedInfo
	Phased     *PhasedInfo
}

// StoreModel is the model name of store-and-forward schedules.
const StoreModel = model.StoreAndForward

// Run routes the instance with algorithm alg under opt. Errors: an invalid instance
// or parameter (the error names it), a deadlock (*engine.Deadlock, possible only
// when the channel dependency graph has a cycle), or the context's error.
func Run(ctx context.Context, in *model.Instance, alg Algorithm, opt Options) (*Result, error) {
	if err := checkRun(in, opt); err != nil {
		return nil, err
	}
	return run(ctx, in, alg, opt, in.LowerBound().Value, meetWithin(in, opt.MeetBudget))
}

// checkRun checks what Run needs before it measures the instance.
func checkRun(in *model.Instance, opt Options) error {
	if err := in.Validate(); err != nil {
		return err
	}
	if opt.Policy != nil {
		return nil
	}
	return engine.CheckPolicy(opt.Arb)
}

// run is Run after checkRun, given the instance's lower bound and MeetRuns, which
// depend on the instance only (Trials computes them once for all its runs).
func run(ctx context.Context, in *model.Instance, alg Algorithm, opt Options, lower int, meet Meet) (*Result, error) {
	if alg == nil {
		return nil, fmt.Errorf("online: no algorithm")
	}
	r := &Result{Algo: alg.Name(), Arb: opt.Arb, Seed: opt.Seed, Rotate: opt.Rotate, LowerBound: lower, Meet: meet}
	if r.Arb == "" {
		r.Arb = engine.ArbMessage
	}
	s := &Setup{Options: opt, Rng: rand.New(rand.NewPCG(opt.Seed, 0x6f6e6c696e65))}
	if err := alg.Route(ctx, in, s, r); err != nil {
		return nil, err
	}
	r.Makespan = r.Schedule.Makespan
	return r, nil
}

// finish fills the result from a finished engine.
func finish(e *engine.Engine, in *model.Instance, r *Result) {
	r.Schedule = e.Schedule()
	r.Delivered = make([]int, len(in.Messages))
	for i := range in.Messages {
		r.Delivered[i] = e.DeliveryTime(i)
	}
	r.Counters = e.Counters()
	r.Steps = e.Steps()
}

// ceilLog2 returns ceil(log2 x) for x >= 1, 0 for x <= 1.
func ceilLog2(x int) int {
	k := 0
	for v := 1; v < x; v *= 2 {
		k++
	}
	return k
}

// satInt converts a non-negative count computed in floating point to an int,
// saturating at math.MaxInt (a plain conversion of a value beyond the range of int
// is implementation-defined and gives math.MinInt on amd64).
func satInt(x float64) int {
	if x >= math.MaxInt {
		return math.MaxInt
	}
	return int(x)
}

// maxRounds bounds the phases (Algorithm A with doubling) or colours (phased) a run
// keeps a list for: O(count) memory.
const maxRounds = 1 << 24

// positive checks an optional parameter: 0 (the default) or a finite positive number.
func positive(name string, v float64) error {
	if v < 0 || math.IsNaN(v) || math.IsInf(v, 0) {
		return fmt.Errorf("online: parameter %s = %v must be positive", name, v)
	}
	return nil
}
