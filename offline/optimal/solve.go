package optimal

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"sync"
	"time"

	"github.com/go-air/gini"
	"github.com/go-air/gini/inter"
	"github.com/go-air/gini/z"
	"github.com/wormlab/wormlab/lower"
	"github.com/wormlab/wormlab/model"
	"github.com/wormlab/wormlab/verify"
)

// Options configure Solve. The zero value solves the wormhole model with every
// structural aid on.
type Options struct {
	// Model is model.Wormhole (the default when empty) or model.Bufferless.
	Model string
	// Upper is an optional legal schedule of the instance (in the bufferless model it
	// must never wait); the search starts below the better of it and Greedy.
	Upper *model.Schedule
	// Progress, when set, is called before each solver call, about once a second
	// while the solver runs, and whenever the best schedule or the lower bound
	// improves (Horizon 0: the greedy schedule, the bounds, the schedule
	// searches, the neighbourhood search, a solver call's answer).
	Progress func(Progress)
	// The structural aids, on by default; each can be switched off to measure it.
	// NoSymmetry keeps the order of identical messages (same path and length) free;
	// NoClique skips the aligned-clique lower bound (clique.go); NoCards leaves out
	// the cardinality constraints on aligned cliques (card.go).
	NoSymmetry, NoClique, NoCards bool
	// NoCP skips the schedule search (cp.go) that runs before the SAT search.
	NoCP bool
	// NoBusy leaves out the busy-slot clauses at the lower bound (busy.go).
	NoBusy bool
	// NoEdgeSet skips the edge-set bound (edgeset.go).
	NoEdgeSet bool
	// NoStage skips the bufferless stage of a wormhole solve (stage.go).
	NoStage bool
	// NoLNS skips the large-neighbourhood search (lns.go) of a bufferless
	// solve (and so of a wormhole solve's bufferless stage); NoCP skips it
	// too (the schedule search is its repair).
	NoLNS bool
	// Workers >= 2 runs the probe at the lower bound and the descending search at
	// once, on two solvers (the portfolio of run; twice the formula's memory, as
	// always). 0 or 1 runs them in turns, one at a time (interleave): each
	// solver's search is deterministic, and where a turn ends is measured in
	// propagations, looked at every few milliseconds.
	Workers int
	// greedy, when set, is Greedy's schedule of the instance (bufferless), computed
	// already by the wormhole solve that runs this one as its bufferless stage.
	greedy *model.Schedule
	// floor, when positive, is a proven lower bound of the bufferless model (the
	// wormhole bound, for the bufferless stage), named floorSource.
	floor       int
	floorSource string
	// blFailed, when positive, is a horizon at which the bufferless schedule
	// search with the first budget is known to fail: the bufferless stage ran
	// that very search (deterministic: the same instance, horizon, budget and
	// seed). blLower is the stage's proven bufferless lower bound: below it no
	// bufferless schedule exists. The wormhole solve skips both searches.
	blFailed, blLower int
	// Left, when set, returns the time left before the caller stops the solve
	// by other means than a deadline of ctx (wormlab solve --cpu-limit: CPU
	// time). Like a deadline, it decides the bufferless stage's share
	// (stage.go).
	Left func() time.Duration
	// MaxMemory is the memory budget of the formula in bytes (0: DefaultMaxMemory).
	// When the formula for the first horizon would exceed it (size.go), Solve skips
	// the SAT search, saying why in Stats.Skipped, raises the lower bound by the
	// bounds of package lower that fit the budget (withoutFormula) and returns the
	// best schedule found without a formula.
	MaxMemory int64
}

// Progress reports the state of a search.
type Progress struct {
	Horizon      int // the horizon being tried
	Lower, Upper int // best proven lower bound, best makespan found
	// Vars and Clauses are the size of the formula the call at Horizon
	// runs on (the descent's own once it encodes its formula again), or
	// with Horizon 0 of the descent's formula (0 before the first).
	Vars      int
	Clauses   int
	Conflicts int64 // conflicts so far, as of the last finished solver call
	Elapsed   time.Duration
	// LNS is set while the large-neighbourhood search (lns.go) runs before
	// the formula is built; it reports once as it starts.
	LNS bool
}

// Stats describes a search.
type Stats struct {
	Vars, Clauses, Orders, Fixed, Cards int   // of the formula built
	Horizon                             int   // the horizon the formula was built for (0: none)
	Calls, Sat, Unsat                   int   // solver calls and their answers
	Conflicts                           int64 // gini's conflict count over all calls
	// Reencoded counts the descent's formulas encoded after the first, each
	// at its step's horizon (descentStep).
	Reencoded int
	// The schedule search (cp.go) before the SAT search: its calls (one per
	// horizon), search nodes, failures and time.
	CPCalls          int
	CPNodes, CPFails int64
	CPElapsed        time.Duration
	// LowerDetail says how the edge-set bound, or a bound of package lower
	// (withoutFormula), was proven (empty for other sources).
	LowerDetail string
	// LowerSource names the best lower bound: a model.Bound name (of package
	// model, or of package lower where the formula was skipped), "aligned-clique",
	// "edge-set" (edgeset.go), "unsat" (a horizon proven infeasible by a solver
	// call), or "encoding" (the formula for horizon upper - 1 holds the empty
	// clause, found while encoding, with no solver call).
	LowerSource string
	// UpperSource names where the best schedule came from, when the SAT
	// search did not improve it: "greedy", "given" (Options.Upper),
	// "bufferless" (the bufferless stage of a wormhole solve), "cp" (the
	// schedule searches) or "lns" (the large-neighbourhood search, lns.go).
	UpperSource string
	// LNSMoves and LNSImproved count the large-neighbourhood search's moves
	// and the moves that answered.
	LNSMoves, LNSImproved int
	// Stage is the bufferless stage of a wormhole solve (stage.go); Answered names
	// the stage that settled the result: "bufferless" when its schedule met the
	// wormhole lower bound, "wormhole" when the wormhole search ran after it, ""
	// when no stage ran (bufferless solves, Options.NoStage, or bounds that met
	// before it).
	Stage    StageStats
	Answered string
	// Skipped is empty, or says why the SAT search did not run (the formula's
	// estimated size over Options.MaxMemory); the bounds of package lower then
	// ran instead (withoutFormula).
	Skipped string
	Elapsed time.Duration
}

// Result is what Solve found.
type Result struct {
	// Schedule is the best schedule found, with LowerBound and Optimal set and the
	// solver's statistics in the extra field "solver".
	Schedule *model.Schedule
	// Lower is the best proven lower bound on the makespan in the model.
	Lower int
	// Optimal is true when Schedule.Makespan == Lower: either the formula one step
	// shorter was proven unsatisfiable or the makespan meets a proven lower bound.
	Optimal bool
	Stats   Stats
	// cpFailed is the horizon at which the bufferless schedule search with the
	// first budget failed (0: it did not run, or it was cancelled or succeeded).
	cpFailed int
}

// Solve finds a schedule of least makespan for in, in the model of opt, with a proof
// of optimality when it finishes. The search:
//
//  1. lower bound: the largest of model.Instance.LowerBounds and the aligned-clique
//     bound; upper bound: the better of Greedy and opt.Upper; then, when they
//     differ, the edge-set bound (edgeset.go) and the schedule searches (cp.go,
//     cpwormhole.go), which may close the gap with no formula at all;
//  2. one formula for horizon H = upper - 1 (Encode with the structural aids), loaded
//     into gini once; every shorter horizon T is imposed by assumptions or units on
//     the existing "t <= v" variables, so nothing is rebuilt;
//  3. try T = lower first (satisfiable means optimal at once); then T = best - 1
//     downwards, each satisfying assignment decoded and verified, until a horizon is
//     proven unsatisfiable.
//
// When ctx is cancelled Solve returns the best schedule and lower bound so far with
// Optimal false and no error; it notices within about 50 ms while the solver runs
// and between loading batches of clauses. Errors are bad input (wrapping
// *verify.Error for a given upper bound that is illegal), an instance too large for
// the greedy colorer's 32-bit steps (offline), or internal errors.
func Solve(ctx context.Context, in *model.Instance, opt Options) (*Result, error) {
	start := time.Now()
	if opt.Model == "" {
		opt.Model = model.Wormhole
	}
	if opt.Model != model.Wormhole && opt.Model != model.Bufferless {
		return nil, fmt.Errorf("optimal: model %q is neither %q nor %q", opt.Model, model.Wormhole, model.Bufferless)
	}
	if err := in.Validate(); err != nil {
		return nil, err
	}
	res := &Result{}
	st := &res.Stats
	lb := in.LowerBound()
	res.Lower, st.LowerSource = lb.Value, lb.Name
	// clique raises the lower bound by the aligned-clique bound. The bufferless
	// stage of a wormhole solve starts from the wormhole bound (a wormhole bound
	// holds for bufferless schedules, which are wormhole schedules) and computes
	// its own clique bound only when the schedule search does not meet that
	// bound: on issue 16's 5x5 meshes the clique bound is over half of the
	// solve, and computing it twice made the wormhole solve 1.5 times slower.
	clique := func() {
		if !opt.NoClique {
			if cb := cliqueBoundWithin(ctx, in, opt.Model); cb.value > res.Lower {
				res.Lower, st.LowerSource = cb.value, "aligned-clique"
			}
		}
	}
	if opt.floor > res.Lower {
		res.Lower, st.LowerSource = opt.floor, opt.floorSource
	}
	if opt.floor == 0 {
		clique()
	}
	best, g, err := upper(ctx, in, opt)
	if err != nil {
		return nil, err
	}
	st.UpperSource = "greedy"
	if opt.Upper != nil && best.Makespan == opt.Upper.Makespan {
		st.UpperSource = "given"
	}
	s := &search{ctx: ctx, in: in, opt: opt, res: res, best: best, start: start}
	s.progress()
	if opt.Model == model.Wormhole && !opt.NoStage && best.Makespan > res.Lower && ctx.Err() == nil {
		br, err := bufferlessStage(ctx, in, opt, res.Lower, st.LowerSource, g)
		if err != nil {
			return nil, err
		}
		bs := br.Schedule
		st.Stage = StageStats{Ran: true, Makespan: bs.Makespan, Lower: br.Lower, Optimal: br.Optimal,
			Source: br.Stats.LowerSource, Upper: br.Stats.UpperSource, Elapsed: br.Stats.Elapsed}
		if bs.Makespan < best.Makespan {
			if best, err = asWormhole(in, bs); err != nil {
				return nil, fmt.Errorf("optimal: internal error: bufferless stage: %w", err)
			}
			st.UpperSource = "bufferless"
		}
		opt.blFailed, opt.blLower = br.cpFailed, br.Lower
		st.Answered = "wormhole"
		if best.Makespan <= res.Lower {
			st.Answered = "bufferless"
		}
		s.opt, s.best = opt, best
		s.progress()
	}
	// The edge-set bound, when the best schedule is above the lower bound: an
	// exhaustive search over the tight edges (about a millisecond where no edge is
	// tight, 13-33 ms on issue 16's frontier tree), stopped after edgeSetNodes
	// nodes. With one worker it first gets edgeSetFirst nodes only, and the
	// interleaved search runs it again with the whole budget before its probes
	// (s.edgeSetDue): the search that needs more is the one that delays the first
	// schedule most (2.5 s of CPU on issue 27's 6x6 mesh, seed 1, before
	// tightGroups; the first pass decides it now).
	first := int64(edgeSetNodes)
	if opt.Workers < 2 {
		first = edgeSetFirst
	}
	if err = s.edgeSet(first); err != nil {
		return nil, err
	}
	s.edgeSetDue = first < edgeSetNodes
	err = s.schedules(false)
	if err == nil && opt.floor > 0 && s.best.Makespan > res.Lower {
		clique()
	}
	if err == nil && s.boundDue != nil && s.best.Makespan == res.Lower+1 {
		// the only better schedule meets the bound: the rest of the
		// search at the bound goes first, as before (boundRest), and the
		// neighbourhood search looks for it after
		err = s.boundRest()
	}
	if err == nil {
		err = s.lnsFirst()
	}
	if err == nil {
		err = s.boundRest()
	}
	if err == nil {
		err = s.run()
	}
	if err == nil && s.edgeSetDue {
		// the SAT search did not reach its probes (a formula too large, or
		// an answer first)
		s.edgeSetDue = false
		err = s.edgeSet(edgeSetNodes)
	}
	st.Elapsed = time.Since(start)
	if err != nil {
		return nil, err
	}
	if res.Lower > s.best.Makespan {
		return nil, fmt.Errorf("optimal: internal error: lower bound %d (%s) above the makespan %d of a verified schedule", res.Lower, st.LowerSource, s.best.Makespan)
	}
	res.Optimal = s.best.Makespan == res.Lower
	if res.Optimal {
		res.Lower = s.best.Makespan
	}
	res.Schedule = s.best
	res.Schedule.SetBound(res.Lower, res.Optimal)
	extra := map[string]any{
		"name": "gini", "encoding": EncodingVersion, "horizon": st.Horizon,
		"vars": st.Vars, "clauses": st.Clauses, "orders": st.Orders,
		"calls": st.Calls, "sat": st.Sat, "unsat": st.Unsat, "conflicts": st.Conflicts,
		"lower_source": st.LowerSource, "upper_source": st.UpperSource,
	}
	if st.Skipped != "" {
		extra["skipped"] = st.Skipped
	}
	if st.LowerDetail != "" {
		extra["lower_detail"] = st.LowerDetail
	}
	if st.CPCalls > 0 {
		extra["cp"] = map[string]any{"calls": st.CPCalls, "nodes": st.CPNodes, "fails": st.CPFails}
	}
	if st.Reencoded > 0 {
		extra["reencoded"] = st.Reencoded
	}
	if st.LNSMoves > 0 {
		extra["lns"] = map[string]any{"moves": st.LNSMoves, "improved": st.LNSImproved}
	}
	if st.Stage.Ran {
		extra["answered"] = st.Answered
		extra["bufferless"] = map[string]any{"makespan": st.Stage.Makespan, "lower_bound": st.Stage.Lower,
			"optimal": st.Stage.Optimal, "lower_source": st.Stage.Source, "upper_source": st.Stage.Upper}
	}
	res.Schedule.SetExtra("solver", extra)
	return res, nil
}

// upper returns the better of Greedy and opt.Upper, as a schedule of opt.Model,
// and Greedy's (bufferless) schedule.
func upper(ctx context.Context, in *model.Instance, opt Options) (*model.Schedule, *model.Schedule, error) {
	g := opt.greedy
	if g == nil {
		var err error
		if g, err = greedy(ctx, in); err != nil {
			return nil, nil, err
		}
	}
	cross := make([][]int, len(in.Messages))
	for i, t := range g.Messages {
		cross[i] = t.Cross
	}
	best := model.NewSchedule(in, opt.Model, cross)
	// Solve may return this schedule as it is (when it meets the lower bound, or
	// when the search is cancelled before a better one), so it is verified too
	// (once: the bufferless stage gets it verified).
	if opt.greedy == nil {
		if err := verify.Schedule(in, best); err != nil {
			return nil, nil, fmt.Errorf("optimal: internal error: greedy schedule: %w", err)
		}
	}
	if u := opt.Upper; u != nil {
		if err := verify.Schedule(in, u); err != nil {
			return nil, nil, fmt.Errorf("optimal: upper bound schedule: %w", err)
		}
		idx := in.Index()
		cross := make([][]int, len(in.Messages))
		for _, t := range u.Messages {
			cross[idx[t.ID]] = append([]int(nil), t.Cross...)
		}
		if opt.Model == model.Bufferless {
			for i, c := range cross {
				for k := 1; k < len(c); k++ {
					if c[k] != c[k-1]+1 {
						return nil, nil, fmt.Errorf("optimal: upper bound schedule: message %q waits, so it is no bufferless schedule", in.Messages[i].ID)
					}
				}
			}
		}
		if s := model.NewSchedule(in, opt.Model, cross); s.Makespan < best.Makespan {
			best = s
		}
	}
	return best, g, nil
}

// The failure budgets of the schedule searches: at the lower bound (where a
// schedule proves optimality at once), then at each horizon below the best
// makespan. On the instances of issue 16 a bufferless search that succeeds needs
// at most a few thousand failures, 20,000 cost 0.1-0.4 s; the wormhole search
// costs about five times more per failure and runs with a quarter of the budget.
// edgeSetNodes is the number of search nodes the edge-set bound may take over
// all its horizons: a count, not a time, so that the bound Solve proves is the
// same on a loaded machine (about 270,000 nodes a second of CPU on the 6x6 mesh
// of issue 27, whose bufferless bound 78 needs 779,435 nodes; when it runs out the
// bound keeps the horizons refuted so far).
const edgeSetNodes = 1 << 20

const (
	cpFirstFails = 20000
	cpStepFails  = 5000
	// cpMaxVars: above this many search variables the searches are skipped (each
	// search node scans the variables once).
	cpMaxVars = 20000
	// cpBytesPerPair is the memory charged per pair of messages sharing an edge.
	cpBytesPerPair = 256
)

// cpStoreBytes is the memory charged for one schedule-search store
// (newCPSearch, newCPWSearch, and the neighbourhood search's, built by
// newCPSearch): cpBytesPerPair for each pair of messages sharing an edge.
func cpStoreBytes(in *model.Instance) float64 {
	pairs := 0.0
	for _, us := range in.Users() {
		c := float64(len(us))
		pairs += c * (c - 1) / 2
	}
	return pairs * cpBytesPerPair
}

// cpStores is how many schedule-search stores can be alive at once where the
// searches run in modelName: two in the wormhole model (schedules builds the
// bufferless store and the wormhole one together); one in the bufferless
// model, where the neighbourhood search, which adds a second, runs only where
// two fit (lnsOn): its store is built while the search at the bound it
// stopped is kept for boundRest (lnsFirst), and is alive while withoutFormula's
// schedules builds another.
func cpStores(modelName string) int {
	if modelName == model.Wormhole {
		return 2
	}
	return 1
}

// cpFits reports whether stores schedule-search stores fit the memory budget
// and the searches fit cpMaxVars.
func cpFits(in *model.Instance, modelName string, budget int64, stores int) bool {
	if budget <= 0 {
		budget = DefaultMaxMemory
	}
	vars := len(in.Messages)
	if modelName == model.Wormhole {
		vars = 0
		for i := range in.Messages {
			vars += len(in.Messages[i].Path)
		}
	}
	return vars <= cpMaxVars && float64(stores)*cpStoreBytes(in) <= float64(budget)
}

// edgeSetFirst is the edge-set bound's node budget before the SAT search when
// the search runs the bound again later (s.edgeSetDue): a tenth of a second of
// CPU, more than issue 16's trees need (26,568 nodes at most).
const edgeSetFirst = 1 << 16

// edgeSet raises the lower bound by the edge-set bound searched with at most
// nodes nodes (edgeset.go), when the best schedule is above it.
func (s *search) edgeSet(nodes int64) error {
	if s.opt.NoEdgeSet || s.best.Makespan <= s.res.Lower || s.ctx.Err() != nil {
		return nil
	}
	v, detail, err := subBoundNodes(s.ctx, s.in, s.opt.Model, s.res.Lower, nodes)
	if err != nil {
		return err
	}
	if v > s.res.Lower {
		st := &s.res.Stats
		s.mu.Lock()
		s.res.Lower, st.LowerSource, st.LowerDetail = v, "edge-set", detail
		s.mu.Unlock()
		s.progress()
	}
	return nil
}

// schedules runs the schedule searches (cp.go for bufferless schedules, which
// are also wormhole schedules, then cpwormhole.go in the wormhole model): first
// at the lower bound, then, if that fails, from the best makespan downwards until
// a horizon fails; with boundOnly, at the lower bound only. Where the
// large-neighbourhood search runs (and not boundOnly), the search at the bound
// stops after cpBoundSlice failures, the steps go on, and boundRest runs the
// rest of it (s.boundDue). Every schedule it keeps has passed verify.Schedule.
func (s *search) schedules(boundOnly bool) error {
	if s.opt.NoCP || s.best.Makespan <= s.res.Lower || s.ctx.Err() != nil || !cpFits(s.in, s.opt.Model, s.opt.MaxMemory, cpStores(s.opt.Model)) {
		return nil
	}
	st := &s.res.Stats
	bl := newCPSearch(s.in, !s.opt.NoSymmetry)
	var wh *cpwSearch
	if s.opt.Model == model.Wormhole {
		wh = newCPWSearch(s.in, !s.opt.NoSymmetry)
	}
	record := func(cs cpStats) {
		st.CPCalls++
		s.recordCP(cs)
	}
	// find returns the crossing times of a schedule of makespan <= T, or nil.
	find := func(T int, budget int64) [][]int {
		var starts []int
		if T >= s.opt.blLower && (T != s.opt.blFailed || budget != cpFirstFails) {
			r := newCPRestarts(T, budget, 1)
			until := budget
			if budget == cpFirstFails && !boundOnly && s.lnsOn() {
				until = cpBoundSlice // the rest after lnsFirst (boundRest)
			}
			var cs cpStats
			starts, cs = bl.resume(s.ctx, r, until)
			record(cs)
			if !r.ended {
				s.boundDue = &cpDue{c: bl, r: r}
				return nil
			}
			if starts == nil && budget == cpFirstFails && s.ctx.Err() == nil {
				s.res.cpFailed = T
			}
		}
		if starts != nil {
			return bufferlessCross(s.in, starts)
		}
		if wh == nil || s.ctx.Err() != nil {
			return nil
		}
		cross, cs := wh.solve(s.ctx, T, budget/4, 1)
		record(cs)
		return cross
	}
	T, budget := s.res.Lower, int64(cpFirstFails)
	for T < s.best.Makespan && s.ctx.Err() == nil {
		cross := find(T, budget)
		if cross == nil {
			if T > s.res.Lower || boundOnly {
				return nil
			}
			T, budget = s.best.Makespan-1, cpStepFails
			if T <= s.res.Lower {
				return nil
			}
			continue
		}
		sch := model.NewSchedule(s.in, s.opt.Model, cross)
		if err := verify.Schedule(s.in, sch); err != nil {
			return fmt.Errorf("optimal: internal error: schedule search: %w", err)
		}
		if sch.Makespan > T {
			return fmt.Errorf("optimal: internal error: schedule search: makespan %d above horizon %d", sch.Makespan, T)
		}
		if sch.Makespan < s.best.Makespan {
			s.best = sch
			st.UpperSource = "cp"
			s.progress()
		}
		if T == s.res.Lower {
			return nil
		}
		T = sch.Makespan - 1
		if T <= s.res.Lower {
			return nil // the lower bound itself was tried first
		}
	}
	return nil
}

// recordCP adds a schedule search's statistics to the solve's.
func (s *search) recordCP(cs cpStats) {
	st := &s.res.Stats
	st.CPNodes += cs.Nodes
	st.CPFails += cs.Fails
	st.CPElapsed += cs.Elapsed
}

// bufferlessCross is the crossing times of the bufferless schedule with the
// given starts (t_1 of each worm).
func bufferlessCross(in *model.Instance, starts []int) [][]int {
	cross := make([][]int, len(starts))
	for i, v := range starts {
		cross[i] = make([]int, len(in.Messages[i].Path))
		for k := range cross[i] {
			cross[i][k] = v + k
		}
	}
	return cross
}

// cpBoundSlice is how many failures the schedule search at the lower bound
// gets, in bufferless solves with the large-neighbourhood search, before the
// steps below the best makespan and that search's first moves (lnsFirst);
// boundRest gives it the rest of its cpFirstFails after them. Issue 27's
// anytime comparison (docs/solver.md): on its 10x10 mesh of seed 3 the
// search at the bound, which fails there, took most of the CPU before the
// neighbourhood search's first moves, which find in milliseconds what
// cadical's first call finds. 2,000 failures end the 13th restart; issue
// 16's table and frontier tree answer within 1,632.
const cpBoundSlice = 2000

// cpDue is a schedule search c stopped between two restarts (cpRestarts),
// to go on later.
type cpDue struct {
	c *cpSearch
	r *cpRestarts
}

// boundRest runs the rest of the schedule search at the lower bound that
// schedules stopped after cpBoundSlice failures (s.boundDue), when the best
// schedule is still above that bound: the same search, so the same answer,
// as one call with cpFirstFails (cpRestarts's lemma). A schedule it finds
// meets the bound: it is optimal.
func (s *search) boundRest() error {
	b := s.boundDue
	s.boundDue = nil
	if b == nil || s.settled() || s.ctx.Err() != nil || s.res.Lower != b.r.T {
		return nil
	}
	starts, cs := b.c.resume(s.ctx, b.r, b.r.maxFails)
	s.recordCP(cs)
	if starts == nil {
		if s.ctx.Err() == nil {
			s.res.cpFailed = b.r.T
		}
		return nil
	}
	sch := model.NewSchedule(s.in, s.opt.Model, bufferlessCross(s.in, starts))
	if err := verify.Schedule(s.in, sch); err != nil {
		return fmt.Errorf("optimal: internal error: schedule search: %w", err)
	}
	if sch.Makespan > b.r.T {
		return fmt.Errorf("optimal: internal error: schedule search: makespan %d above horizon %d", sch.Makespan, b.r.T)
	}
	if sch.Makespan < s.best.Makespan {
		s.mu.Lock()
		s.best = sch
		s.res.Stats.UpperSource = "cp"
		s.mu.Unlock()
		s.progress()
	}
	return nil
}

// search is one run of the optimisation loop.
type search struct {
	ctx   context.Context
	in    *model.Instance
	opt   Options
	res   *Result
	best  *model.Schedule
	start time.Time
	f     *Formula
	g     *gini.Gini
	// df is the descent's formula, on s.g: s.f until a step goes
	// reencodeSteps below its horizon (descentStep).
	df *Formula
	// edgeSetDue says the edge-set bound ran with edgeSetFirst nodes only: the
	// interleaved search runs it with edgeSetNodes before its probes (boundLater).
	edgeSetDue bool
	// lns is the large-neighbourhood search (lns.go), once it has run;
	// lnsFirstOn is set while it runs before the formula (lnsFirst).
	lns        *lnsSearch
	lnsFirstOn bool
	// lnsFrom is the best makespan when lnsFirst started (0: it did not run).
	lnsFrom int
	// boundDue is the schedule search at the lower bound, stopped after
	// cpBoundSlice failures, that boundRest goes on with.
	boundDue *cpDue
	// satFirst is the descent's first answer where lnsFirst ran, and hinted
	// says a probe has been hinted (hintProbe).
	satFirst *model.Schedule
	hinted   bool
	// mu guards best, res and the statistics while the portfolio runs two
	// solvers (Options.Workers).
	mu sync.Mutex
}

func (s *search) run() error {
	st := &s.res.Stats
	if s.best.Makespan <= s.res.Lower {
		return nil
	}
	if s.ctx.Err() != nil {
		return nil
	}
	// The formula's horizon is one below the makespan before the
	// large-neighbourhood search (lnsFirst): the horizon and the probes
	// are those of a solve without it, which its schedule only helps.
	H := s.best.Makespan - 1
	if s.lnsFrom > 0 {
		H = s.lnsFrom - 1
	}
	f, err := encode(s.in, s.opt.Model, H, encodeOptions{symmetry: !s.opt.NoSymmetry, cards: !s.opt.NoCards,
		busy: !s.opt.NoBusy, busyAt: s.res.Lower, budget: s.opt.MaxMemory, ctx: s.ctx})
	if errors.Is(err, errEncodeCancelled) {
		return nil
	}
	var se *SizeError
	if errors.As(err, &se) {
		st.Skipped = se.Error()
		return s.withoutFormula()
	}
	if err != nil {
		return err
	}
	s.f, s.df = f, f
	st.Vars, st.Clauses, st.Orders, st.Fixed, st.Cards, st.Horizon = f.Vars, len(f.Clauses), f.Orders, f.Fixed, f.Cards, f.Horizon
	if f.empty {
		s.res.Lower = H + 1 // horizon H holds the empty clause
		s.res.Stats.LowerSource = "encoding"
		return nil
	}
	if s.g = s.load(f); s.g == nil {
		return nil
	}
	// The probe is the lower bound (on many instances it is the optimum). It
	// runs on a second solver loaded with the same formula, with the horizon as
	// assumptions: gini v1.0.4 can return a model that violates a clause when Solve
	// is called again after an answer "unsatisfiable under assumptions", so that
	// solver is dropped after its one call. It is built fresh, not with g.Copy():
	// gini v1.0.4's Copy leaves the decision heuristic's decay settings at zero, so
	// variable activity stops guiding decisions in the copy (TestCopyLosesDecay;
	// 4x4 mesh, 241 worms, L = 8, bufferless: the probe took 39 s on a copy and
	// 0.5 s on a fresh solver). The descent, T = best - 1, runs on the main
	// solver with the horizon as unit clauses (no later call goes higher), so every
	// learnt clause is kept until it encodes the formula again (descentStep); each
	// satisfiable answer usually improves the makespan by more than one step. The two take turns (interleave); until issue 27 the
	// probe ran to its end first, and on issue 27's 10x10 mesh of seed 3 it did
	// not end in 20 s of CPU while the best schedule stayed at 107 (the descent
	// alone reaches 93 in 5 s). (Bisection was tried: it spends the time limit on
	// hard probes below the optimum and ends with worse schedules.)
	if s.res.Lower < f.Horizon && s.opt.Workers >= 2 {
		return s.portfolio()
	}
	return s.interleave()
}

// withoutFormula raises the lower bound, when the formula does not fit the
// memory budget, by the bounds of package lower that fit it (lower.BoundsWithin:
// the aligned-conflict bounds, the edge-sequence bound and the disjunctive
// search, each capped in search nodes, the last at lower.MaxDisjunctions), then
// runs the schedule searches at the new bound. With a formula they would add
// little (the SAT search proves more), so they run only here: on three worms of
// 10^6 flits on a line of three nodes the disjunctive bound proves the optimum
// 2000001 in milliseconds, where the formula needs 4.8 GB. The bufferless stage
// leaves them to the wormhole solve that runs it (the bounds are the same).
func (s *search) withoutFormula() error {
	if s.opt.floor > 0 || s.settled() {
		return nil
	}
	r := lower.BoundsWithin(s.ctx, s.in, lower.Limits{Budget: lower.DefaultBudget, MaxMemory: s.opt.MaxMemory, NoModel: true})
	b := r.Best
	if b.Value <= s.res.Lower {
		return nil
	}
	if b.Value > s.best.Makespan {
		return fmt.Errorf("optimal: internal error: %s bound %d above the makespan %d of a verified schedule", b.Name, b.Value, s.best.Makespan)
	}
	st := &s.res.Stats
	s.mu.Lock()
	s.res.Lower, st.LowerSource, st.LowerDetail = b.Value, b.Name, b.Detail
	s.mu.Unlock()
	s.progress()
	return s.schedules(true)
}

// turnProps is the share of each solver in the interleaved search: the probe
// at the lower bound and the descent take turns of this many propagations
// (about half a second of CPU on issue 27's 10x10 meshes; a conflict there
// costs 0.1 ms in one solver and 2 ms in the other, a propagation about the
// same in both).
const turnProps = 2_000_000

// firstProps caps the descent's head start (interleave): five turns.
const firstProps = 5 * turnProps

// laneWeight is the share of each lane of the interleaved search: the
// unhinted probe, the hinted probe (hintProbe) and the descent, as 2 : 1 :
// 2; lnsWeight is the share where the large-neighbourhood search (lns.go) is
// the fourth lane: it takes half of the descent's, whose job of improving
// the schedule it shares, and the probes, which prove, keep theirs (2 : 1 :
// 1 : 1). In a run of six instances of issue 27's family, 2 : 1 : 2 : 1 made
// four of the five proofs by the probes 10-30 % slower in CPU time.
var (
	laneWeight = [4]int64{2, 1, 2, 0}
	lnsWeight  = [4]int64{2, 1, 1, 1}
)

// lnsScans is how many pair rules of the large-neighbourhood search count for
// one propagation, so that its turns and the SAT solvers' are measured alike:
// about the CPU time of one gini propagation over that of one rule (on issue
// 27's 10x10 mesh of seed 3, about 35 million rules and 4 million
// propagations a second of CPU).
const lnsScans = 9

// lnsIdleMax caps the cost of the large-neighbourhood search's idle turns
// (interleave): a lane that no longer improves the best schedule gets 1/16
// of its share.
const lnsIdleMax = 5

// lnsHeadTurn is the large-neighbourhood search's longest turn in the
// descent's head start (interleave), in propagations: half a turn, so that
// where it finds nothing the probes start little later (its first idle turn
// ends its turns until they start). On issue 27's 6x6 mesh of seed 1 its
// moves after the formula found 82 and 81 within 0.17 s of CPU, less than
// half a turn (one run, session 9); a quarter of a turn found 82 only.
const lnsHeadTurn = turnProps / 2

// lnsMinTurn is the large-neighbourhood search's shortest turn in the
// interleaved search, in propagations (a few milliseconds of CPU).
const lnsMinTurn = 1 << 14

// interleave runs two probes at the lower bound and the descent from the best
// schedule in turns of turnProps propagations, shared as laneWeight says, on
// three solvers, the probes first: one search, one core, and none waits for another to end. The
// probes ask the same question from different starts: one with gini's own
// initial phases, one with the best schedule's (hintProbe); either settles
// the optimum when the bound is met, and a probe refuted raises the lower
// bound by one, ends both, and the next two start on solvers loaded afresh
// (see run). The descent improves the best schedule step by step and settles
// it with an unsatisfiable horizon; once the best makespan is one above the
// probes' horizon, the descent has nothing else to try and the probes run
// alone. Each solver's search is the same however the turns fall (a paused
// call goes on where it was); only which answers first can depend on where
// gini pauses.
func (s *search) interleave() error {
	var probes []*call // at one horizon: unhinted, then hinted (hintProbe)
	var step *call
	defer func() {
		for _, p := range probes {
			s.abandon(p)
		}
		s.abandon(step)
	}()
	newProbes := func() bool {
		s.mu.Lock()
		L, B := s.res.Lower, s.best.Makespan
		s.mu.Unlock()
		if L >= B-1 && s.lnsFrom == 0 {
			return true // the descent's next step is the probe
		}
		for _, hinted := range []bool{false, true} {
			g := s.load(s.f)
			if g == nil {
				return false
			}
			if hinted {
				s.hintProbe(g)
			}
			probes = append(probes, &call{g: g, f: s.f, T: L})
		}
		return true
	}
	// The descent goes first, without the probes, until its first answer (or
	// firstProps propagations): its first step below the schedule search's
	// makespan is the improvement cadical's first call competes with (issue
	// 27's anytime comparison, docs/solver.md). The neighbourhood search, in
	// bufferless solves, takes turns with it from the start while its turns
	// improve the best schedule (one idle turn ends them until the probes
	// start): on issue 27's 6x6 mesh of seed 1 its first moves after the
	// formula find the schedules below the formula's that the descent's
	// first step does not (docs/solver.md). Then the edge-set bound's
	// remaining budget (boundLater) and the probes, which start from nothing
	// and catch up to their share: the head start is lent, not given, so the
	// probes have had the same propagations as before at any point after
	// they caught up.
	probesDue := true
	// used counts the propagations each lane (probes[0], probes[1], the
	// descent, the neighbourhood search) has had, and the next turn goes to
	// the lane furthest below its share (laneWeight): a turn ends a little
	// after its budget, by more on a loaded machine, so counting what each
	// turn really took keeps the shares.
	var used [4]int64
	lns := s.lnsOn()
	laneWeight := laneWeight
	if lns {
		laneWeight = lnsWeight
	}
	answered := false // the descent has had an answer
	level := func() {
		// new probes start level with the descent's share so far
		for x := range probes {
			used[x] = used[2] * laneWeight[x] / laneWeight[2]
		}
	}
	idle := 0 // the large-neighbourhood search's turns in a row with no improvement
	for !s.settled() {
		if probesDue && (answered || used[2] >= firstProps) {
			probesDue = false
			if err := s.boundLater(); err != nil || s.settled() {
				return err
			}
			if !newProbes() {
				return nil
			}
		}
		// last: the descent's next step would be the probes' horizon, so the
		// probes, with their work so far, run alone, in turns.
		last := false
		if len(probes) > 0 {
			s.mu.Lock()
			last = probes[0].T >= s.best.Makespan-1
			s.mu.Unlock()
		}
		lane := nextLane(used, laneWeight, len(probes), last, lns, probesDue && idle > 0)
		if lane == 3 {
			// a turn of at most turnProps (lnsHeadTurn in the descent's
			// head start), and no more than the lane is behind its share
			// (a small solve's other lanes use little)
			due := int64(0)
			for x := range 3 {
				due = max(due, used[x]*laneWeight[3]/laneWeight[x])
			}
			turn := int64(turnProps)
			if probesDue {
				turn = lnsHeadTurn
			}
			n, improved, err := s.lnsTurn(min(turn, max(due-used[3], lnsMinTurn)) * lnsScans)
			if err != nil || s.ctx.Err() != nil {
				return err
			}
			if n == 0 {
				lns = false // nothing left for it to do
				continue
			}
			// a turn that did not improve the best schedule costs the lane
			// twice as much as the one before it, up to lnsIdleMax times
			// its work: a stalled search gives its share back to the probes
			if improved {
				idle = 0
			} else {
				idle = min(idle+1, lnsIdleMax)
			}
			used[3] += n / lnsScans << idle
			continue
		}
		if lane < 2 {
			p := probes[lane]
			before := propagations(p.g)
			r, done := s.resume(s.ctx, p, turnProps)
			used[lane] += propagations(p.g) - before
			if !done {
				continue
			}
			if _, err := s.finish(p, r); err != nil || r == 0 {
				return err
			}
			// Both probes ask the same question: one answer settles both.
			for y, q := range probes {
				if y != lane {
					s.abandon(q)
				}
			}
			probes = nil
			if r == 1 || s.settled() {
				return nil
			}
			if !newProbes() {
				return nil
			}
			level()
			continue
		}
		// The descent's turn: steps T = best - 1 with the horizon as units.
		budget := int64(turnProps)
		if len(probes) == 0 && !probesDue && !lns {
			budget = 0
		}
		for turn := int64(0); budget == 0 || turn < budget; {
			if step == nil {
				if step = s.descentStep(s.ctx); step == nil {
					return nil // cancelled while encoding
				}
				// a formula encoded again is charged to the lane
				turn += step.cost
				used[2] += step.cost
				if budget > 0 && turn >= budget {
					break
				}
			}
			rem := int64(0) // no limit: the probe is done
			if budget > 0 {
				rem = budget - turn
			}
			before := propagations(step.g)
			r, done := s.resume(s.ctx, step, rem)
			turn += propagations(step.g) - before
			used[2] += propagations(step.g) - before
			if !done {
				break
			}
			c := step
			step = nil
			answered = true
			if _, err := s.finish(c, r); err != nil || r != 1 {
				return err // unsatisfiable: the best schedule is optimal; 0: cancelled
			}
			if s.settled() {
				return nil
			}
		}
	}
	return nil
}

// nextLane is the interleaved search's next lane (interleave): of the lanes
// that may run, the first probes lanes (the probes there are), the descent
// unless last (the probes run alone), and the neighbourhood search when on
// (lns) and not waiting for the probes (lnsWaits: an idle turn in the
// descent's head start), the one furthest below its share w, as used
// counts; the first of equals. With no probes last is false, so the descent
// can always run: some lane is chosen.
func nextLane(used, w [4]int64, probes int, last, lns, lnsWaits bool) int {
	lane := -1
	for x := range 4 {
		if x < 2 && x >= probes || x == 2 && last || x == 3 && (!lns || lnsWaits) {
			continue
		}
		if lane < 0 || used[x]*w[lane] < used[lane]*w[x] {
			lane = x
		}
	}
	return lane
}

// boundLater runs the edge-set bound with its whole budget where the search
// before the formula ran it with edgeSetFirst nodes only (s.edgeSetDue), and,
// when it raises the lower bound, the schedule search at the new bound, as
// Solve does after the bound.
func (s *search) boundLater() error {
	if !s.edgeSetDue {
		return nil
	}
	s.edgeSetDue = false
	L := s.res.Lower
	if err := s.edgeSet(edgeSetNodes); err != nil || s.res.Lower == L {
		return err
	}
	return s.schedules(true)
}

// settled reports whether the best schedule meets the lower bound (it is
// optimal).
func (s *search) settled() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.res.Lower >= s.best.Makespan
}

// descend runs the descending search on s.g, T = best - 1 with the horizon as
// unit clauses, until a horizon is proven unsatisfiable or the best makespan meets
// the lower bound (found = true), or ctx is cancelled (found = false).
func (s *search) descend(ctx context.Context) (bool, error) {
	for {
		if s.settled() {
			return true, nil
		}
		c := s.descentStep(ctx)
		if c == nil {
			return false, nil // cancelled while encoding
		}
		r, _ := s.resume(ctx, c, 0)
		if r, err := s.finish(c, r); err != nil || r == 0 {
			return false, err
		}
	}
}

// reencodeSteps is how far below its formula's horizon the descent's next
// step must be for the descent to encode the formula again at the step's own
// horizon, on a fresh solver (descentStep).
const reencodeSteps = 8

// reencodeCost is what encoding and loading a formula again costs the
// descent's lane in the interleaved search, in propagations per clause:
// BenchmarkReencodeCost measures encoding and loading against a gini call's
// propagations on the formula it built, on issue 27's 10x10 mesh of seed 1
// at 90 and 8x8 mesh of 256 messages, seed 1, at 64 (bufferless): 1.05 and
// 1.46 propagations a clause (session 9, two rounds each at load 20-24; a
// scratch test of session 8 had 1.7 to 2.6 at horizons 86-100). Charged,
// the re-encoding takes its CPU from the descent's share, not from the
// probes'; 2 errs on the probes' side.
const reencodeCost = 2

// descentStep is the descent's next call on s.g, T = best - 1, with the horizon
// added as unit clauses (no later call of the descent goes higher, so every
// learnt clause is kept). When T is reencodeSteps or more below the horizon
// of the descent's formula s.df, the formula is encoded again at T and loaded
// on a fresh solver whose phases are the best schedule's (hint), the phases
// the old solver kept from its last answer: gini was slower on the first
// formula with T as units than on the formula of horizon T (docs/solver.md);
// the call's cost charges the encoding to the descent's lane (reencodeCost).
// It returns nil when ctx, the descent's (portfolio stops it apart from
// s.ctx), is cancelled while it encodes.
func (s *search) descentStep(ctx context.Context) *call {
	s.mu.Lock()
	T, L := s.best.Makespan-1, s.res.Lower
	s.mu.Unlock()
	if s.lnsFrom > 0 && s.satFirst == nil {
		// the first step where the neighbourhood search ran: the one a
		// solve without it makes (lnsFirst)
		T = s.f.Horizon
	}
	var cost int64
	if T <= s.df.Horizon-reencodeSteps {
		f, err := encode(s.in, s.opt.Model, T, encodeOptions{symmetry: !s.opt.NoSymmetry, cards: !s.opt.NoCards,
			busy: !s.opt.NoBusy, busyAt: L, budget: s.opt.MaxMemory, ctx: ctx})
		if errors.Is(err, errEncodeCancelled) || ctx.Err() != nil {
			return nil
		}
		// a formula too large, or empty (no schedule of makespan T: the
		// old formula's call refutes T as well), stays with the old one
		if err == nil && !f.empty {
			// the old solver goes before the new one loads: the memory
			// guard counts three solvers and two formulas (size.go)
			s.mu.Lock()
			s.g = nil
			s.mu.Unlock()
			g := load(f, ctx)
			if g == nil || ctx.Err() != nil {
				return nil
			}
			s.mu.Lock()
			hint(g, f, s.best)
			s.res.Stats.Reencoded++
			// under the lock: finish compares a solver with s.g on the probe's
			// goroutine in the portfolio
			s.df, s.g = f, g
			s.mu.Unlock()
			cost = reencodeCost * int64(len(f.Clauses))
		}
	}
	lits, _ := s.df.horizonLits(T)
	for _, l := range lits {
		s.g.Add(z.Dimacs2Lit(l))
		s.g.Add(0)
	}
	return &call{g: s.g, f: s.df, T: T, cost: cost}
}

// portfolio runs the probe at the lower bound and the descending search at once,
// on two solvers in two goroutines (Options.Workers >= 2). Whichever settles the
// optimum first stops the other: a schedule at the lower bound, or an
// unsatisfiable horizon one below the best makespan. A probe refuted moves the
// lower bound up by one, and the descent goes on.
func (s *search) portfolio() error {
	c := s.load(s.f)
	if c == nil {
		return nil
	}
	s.hintProbe(c)
	probe, stopProbe := context.WithCancel(s.ctx)
	desc, stopDesc := context.WithCancel(s.ctx)
	defer stopProbe()
	defer stopDesc()
	L0 := s.res.Lower
	var perr error
	done := make(chan struct{})
	go func() {
		defer close(done)
		r, err := s.try(probe, c, L0)
		if err != nil || r == 1 {
			perr = err
			stopDesc() // an error, or a schedule at the lower bound: optimal
			return
		}
		if r == -1 && s.settled() {
			stopDesc() // the refuted probe proved the best schedule optimal
		}
	}()
	_, err := s.descend(desc)
	stopProbe()
	<-done
	if err != nil {
		return err
	}
	return perr
}

// hintProbe sets the saved phases of g, a probe's fresh solver, to the best
// schedule so far (hint.go), so that the probe searches first near it. On
// issue 27's meshes (one run each, bufferless, 20 s of CPU) the hinted probe
// alone found the 8x8 mesh of 256 messages' optimum 60 at 5.74 s where the
// unhinted one needed 33.71 s, but left the 10x10 mesh of seed 1 at 87 (the
// unhinted probe proves 80 in 13.6 s): a satisfiable CDCL call is
// heavy-tailed, so the hinted probe runs beside the unhinted one, not
// instead of it. The descent is not hinted: its solver keeps the phases of
// its last answer (gini saves them), and hinting its first call with the
// schedule search's schedule made it slower on the 8x8 mesh of 768 messages,
// seed 2 (84 at 20 s, twice, against 81 without).
func (s *search) hintProbe(g *gini.Gini) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.satFirst != nil && !s.hinted {
		hint(g, s.f, s.satFirst) // the probe a solve without lnsFirst makes
	} else {
		hint(g, s.f, s.best)
	}
	s.hinted = true
}

// load returns a new gini solver holding the clauses of f, or nil when s.ctx is
// cancelled while it loads.
func (s *search) load(f *Formula) *gini.Gini {
	g := load(f, s.ctx)
	if g == nil || s.ctx.Err() != nil {
		return nil
	}
	return g
}

// load returns a new gini solver holding the clauses of f; nil when ctx (if not
// nil) is cancelled first. It looks at ctx every 2^16 clauses.
func load(f *Formula, ctx context.Context) *gini.Gini {
	g := gini.NewVc(f.Vars, len(f.Clauses))
	for g.MaxVar() < z.Var(f.Vars) {
		g.Lit()
	}
	for x, c := range f.Clauses {
		if ctx != nil && x&(1<<16-1) == 0 && ctx.Err() != nil {
			return nil
		}
		for _, l := range c {
			g.Add(z.Dimacs2Lit(l))
		}
		g.Add(0)
	}
	return g
}

// call is one solver call, "is there a schedule of makespan at most T?", with
// the horizon as assumptions on g. It can run in turns (resume with a budget
// of propagations): between slices its gini.GoSolve is paused, not stopped, so the
// search goes on where it was and its trajectory does not depend on the slices.
type call struct {
	g *gini.Gini
	f *Formula // the formula loaded on g
	// cost is what loading f cost, in propagations, when the descent
	// encoded it again for this call (reencodeCost); else 0.
	cost   int64
	T      int
	sv     inter.Solve // the running call, paused between slices; nil when not started or ended
	paused bool
	before int64 // the solver's conflicts when the call started
}

// try asks g whether a schedule of makespan at most T exists, with the horizon as
// assumptions. It returns 1 (and records the schedule), -1, or 0 when cancelled.
func (s *search) try(ctx context.Context, g *gini.Gini, T int) (int, error) {
	c := &call{g: g, f: s.f, T: T}
	r, _ := s.resume(ctx, c, 0)
	return s.finish(c, r)
}

// resume runs c (starting it if need be) until it answers (done, r = 1 or -1),
// ctx is cancelled (done, r = 0 unless the answer came first), or, when budget >
// 0, it has made budget propagations in this turn (not done: c is left paused).
func (s *search) resume(ctx context.Context, c *call, budget int64) (r int, done bool) {
	var from int64 // the propagations when this turn started
	if c.sv == nil {
		lits, ok := c.f.horizonLits(c.T)
		if !ok {
			return -1, true
		}
		zl := make([]z.Lit, len(lits))
		for x, l := range lits {
			zl[x] = z.Dimacs2Lit(l)
		}
		c.g.Assume(zl...)
		s.report(c.T, c.f)
		if ctx.Err() != nil {
			return 0, true
		}
		c.before = conflicts(c.g)
		from = propagations(c.g) // before the start: read before GoSolve
		c.sv = c.g.GoSolve()
	} else {
		from = propagations(c.g) // paused: no solve runs
	}
	if c.paused {
		c.sv.Unpause()
		c.paused = false
	}
	wait := time.Millisecond
	last := time.Now()
	for {
		time.Sleep(wait)
		wait = min(2*wait, 50*time.Millisecond)
		if budget > 0 {
			// gini pauses at its next check (every 20,000 propagations); a
			// paused solver's counters can be read.
			res, ok := c.sv.Pause()
			if !ok {
				c.sv = nil
				return res, true
			}
			if propagations(c.g)-from >= budget {
				c.paused = true
				return 0, false
			}
			c.sv.Unpause()
		} else if res, ended := c.sv.Test(); ended {
			c.sv = nil
			return res, true
		}
		if ctx.Err() != nil {
			r = c.sv.Stop()
			c.sv = nil
			return r, true
		}
		if time.Since(last) >= time.Second {
			last = time.Now()
			s.report(c.T, c.f)
		}
	}
}

// abandon stops c if it is running or paused; its answer, if one came, is
// dropped.
func (s *search) abandon(c *call) {
	if c == nil || c.sv == nil {
		return
	}
	if c.paused {
		c.sv.Unpause()
		c.paused = false
	}
	c.sv.Stop()
	c.sv = nil
}

// finish records the answer r of the ended call c: a schedule (decoded and
// verified) when r = 1, the lower bound T + 1 when r = -1.
func (s *search) finish(c *call, r int) (int, error) {
	st := &s.res.Stats
	g, T := c.g, c.T
	var sch *model.Schedule
	if r == 1 {
		var err error
		sch, err = c.f.Decode(func(v int) bool { return g.Value(z.Dimacs2Lit(v)) })
		if err != nil {
			return 0, fmt.Errorf("optimal: internal error: %v", err)
		}
		if err := verify.Schedule(s.in, sch); err != nil {
			return 0, fmt.Errorf("optimal: internal error: decoded schedule: %w", err)
		}
		if sch.Makespan > T {
			return 0, fmt.Errorf("optimal: internal error: decoded makespan %d above horizon %d", sch.Makespan, T)
		}
	}
	n := conflicts(g) - c.before
	s.mu.Lock()
	st.Calls++
	st.Conflicts += n
	better := false
	switch r {
	case 1:
		if s.lnsFrom > 0 && s.satFirst == nil && g == s.g {
			s.satFirst = sch
		}
		st.Sat++
		if better = sch.Makespan < s.best.Makespan; better {
			s.best = sch
		}
	case -1:
		st.Unsat++
		if better = T+1 > s.res.Lower; better {
			s.res.Lower, st.LowerSource = T+1, "unsat"
		}
	}
	s.mu.Unlock()
	if better {
		// now, not at the next call's start: the descent's next step may
		// first encode its formula again (`solve --trace` stamps each
		// improvement with the CPU time of this report)
		s.progress()
	}
	return r, nil
}

// progress calls Options.Progress with no horizon (Horizon 0); it takes s.mu.
// It reports the best schedule and lower bound (at the start, as the
// neighbourhood search starts, and when they improve: the bounds, the greedy
// schedule, the schedule and neighbourhood searches, a solver call's answer),
// with the size of the descent's formula once there is one.
func (s *search) progress() { s.report(0, nil) }

// report is progress for a call at horizon T on the formula f (nil: the
// descent's formula, s.df), whose size it reports.
func (s *search) report(T int, f *Formula) {
	if s.opt.Progress == nil {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	p := Progress{Horizon: T, Lower: s.res.Lower, Upper: s.best.Makespan, Conflicts: s.res.Stats.Conflicts, Elapsed: time.Since(s.start), LNS: s.lnsFirstOn}
	if f == nil {
		f = s.df
	}
	if f != nil {
		p.Vars, p.Clauses = f.Vars, len(f.Clauses)
	}
	s.opt.Progress(p)
}

// propagations reads gini's running count of propagated literals (internal/xo:
// S.Trail.Props). Like conflicts it is read only when no solve runs (or while
// one is paused).
func propagations(g *gini.Gini) int64 { return giniCount(g, "Trail", "Props") }

// conflicts reads gini's running conflict count (internal/xo: S.Driver.Conflicts);
// it is only called when no solve runs.
func conflicts(g *gini.Gini) int64 { return giniCount(g, "Driver", "Conflicts") }

// giniCount reads the int64 field of the pointer field part of gini's solver.
// gini v1.0.4 exports no statistics, so they are read by reflection; -1 if the
// layout differs.
func giniCount(g *gini.Gini, part, field string) (n int64) {
	defer func() {
		if recover() != nil {
			n = -1
		}
	}()
	v := reflect.ValueOf(g).Elem().FieldByName("xo")
	if !v.IsValid() || v.IsNil() {
		return -1
	}
	d := v.Elem().FieldByName(part)
	if !d.IsValid() || d.IsNil() {
		return -1
	}
	c := d.Elem().FieldByName(field)
	if !c.IsValid() || c.Kind() != reflect.Int64 {
		return -1
	}
	return c.Int()
}
