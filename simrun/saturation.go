package simrun

import (
	"context"
	"math"
	"slices"

	"github.com/wormlab/wormlab/sim"
)

// Saturation is the saturation throughput of one configuration, found two ways.
//
// Bisection: the offered load (flits/node/cycle) is searched between 0 and Upper
// for where package sim's saturation rule (accepted load behind generated, latency
// growing, no steady state) starts to hold: Lo is the highest load found stable
// and Hi the lowest found saturated, Hi - Lo <= the tolerance; AcceptedLo is the
// accepted load measured at Lo. The search divides the interval in four each
// round (three probes at once), so its probes do not depend on the number of
// workers.
//
// Throughput mode (BookSim2's sim_type = throughput): every source offered Upper
// (1 flit/node/cycle unless the injection process allows less), so that every
// source is backlogged, and the accepted load measured: Throughput.
//
// The two differ: the bisection's Lo is the largest load the network carries
// with a steady latency, the throughput mode's figure what it delivers when
// overloaded, which is higher when latency grows without bound before accepted
// load falls behind (the last stable loads have queues that grow slowly) and lower
// when overload makes the network less fair or less efficient than at its stable
// peak (adaptive routings that congest, tree saturation). docs/simulator.md gives
// measured examples.
type Saturation struct {
	Lo         float64  `json:"lo"`
	Hi         *float64 `json:"hi"` // nil: still stable at Upper
	AcceptedLo float64  `json:"accepted_lo"`
	Tolerance  float64  `json:"tolerance"`
	Probes     int      `json:"probes"`
	Throughput float64  `json:"throughput"`
	Upper      float64  `json:"throughput_offered"`
	// Done is false when the search was interrupted: Lo and Hi bound the
	// saturation load as far as it went.
	Done bool `json:"done"`
}

// SatOptions say how Saturate searches.
type SatOptions struct {
	Tolerance float64 // the interval's largest width (<= 0: 0.01)
	Workers   int
	// MaxMemory is Options.MaxMemory for the probes.
	MaxMemory int64
	// Progress, when set, is called after each probe with the probes done and the
	// total the search will need.
	Progress func(done, total int)
}

// satSearch is one configuration's search state.
type satSearch struct {
	run    Run
	lo, hi float64
	upper  float64
	sat    *Saturation
	done   bool
}

// Upper is the highest load a run's injection process can offer, at most 1
// flit/node/cycle.
func (r *Run) Upper() float64 {
	proc, err := r.process()
	sizes, err2 := sim.ParseSizes(r.Flits)
	if err != nil || err2 != nil {
		return 1
	}
	return math.Min(1, proc.MaxRate()*sizes.Mean())
}

// Saturate finds the saturation throughput of each run (its load is ignored), the
// probes of all runs side by side on opt.Workers goroutines. A probe that fails
// (a deadlock) ends with its error. When ctx ends the searches stop where they
// are (Done false).
func Saturate(ctx context.Context, runs []Run, opt SatOptions) ([]*Saturation, error) {
	tol := opt.Tolerance
	if tol <= 0 {
		tol = 0.01
	}
	ss := make([]*satSearch, len(runs))
	total := 0
	for i, r := range runs {
		u := r.Upper()
		s := &satSearch{run: r, lo: 0, hi: u, upper: u, sat: &Saturation{Tolerance: tol, Upper: u}}
		ss[i] = s
		total += 4 + 3*roundsFor(u/4, tol)
	}
	probesDone := 0
	first := true
	for {
		var pts []Point
		var owner []*satSearch
		for _, s := range ss {
			if s.done {
				continue
			}
			xs := s.probes(first)
			for _, x := range xs {
				r := s.run
				r.MsgRate, r.Rate = 0, x
				pts = append(pts, Point{Index: len(pts), Run: r})
				owner = append(owner, s)
			}
		}
		if len(pts) == 0 {
			return sats(ss), nil
		}
		base := probesDone
		outs := Execute(ctx, pts, Options{Workers: opt.Workers, MaxMemory: opt.MaxMemory, Progress: func(done, _ int) {
			if opt.Progress != nil {
				opt.Progress(base+done, total)
			}
		}})
		probesDone += len(pts)
		for _, o := range outs {
			if o.Err != nil && ctx.Err() == nil {
				return sats(ss), o.Err
			}
		}
		if ctx.Err() != nil {
			return sats(ss), ctx.Err()
		}
		for _, s := range ss {
			if s.done {
				continue
			}
			var mine []Outcome
			for i, o := range outs {
				if owner[i] == s {
					mine = append(mine, o)
				}
			}
			s.update(mine, first, tol)
		}
		first = false
	}
}

// roundsFor is the number of rounds of three probes that bring width w down to
// tol, each dividing it by four.
func roundsFor(w, tol float64) int {
	n := 0
	for w > tol+1e-12 {
		w /= 4
		n++
	}
	return n
}

// probes are the loads of the next round: the quarter points of the interval
// (and its top in the first round, which is also the throughput mode's run).
func (s *satSearch) probes(first bool) []float64 {
	w := s.hi - s.lo
	xs := []float64{s.lo + w/4, s.lo + w/2, s.lo + 3*w/4}
	if first {
		xs = append(xs, s.hi)
	}
	for i := range xs {
		xs[i] = math.Round(xs[i]*1e9) / 1e9
	}
	return xs
}

// update narrows the interval from a round's outcomes (in increasing load): the
// first saturated probe is the new top, the probe below it (or the old bottom)
// the new bottom.
func (s *satSearch) update(outs []Outcome, first bool, tol float64) {
	s.sat.Probes += len(outs)
	if first {
		top := outs[len(outs)-1].Result
		s.sat.Throughput = top.Accepted
		if !top.Saturated {
			// stable even with every source offering the most it can
			s.lo, s.sat.Lo, s.sat.AcceptedLo = s.upper, s.upper, top.Accepted
			s.sat.Hi, s.done, s.sat.Done = nil, true, true
			return
		}
	}
	lo, hi := s.lo, s.hi
	i := slices.IndexFunc(outs, func(o Outcome) bool { return o.Result.Saturated })
	if i < 0 { // (not in the first round: its top probe is saturated)
		lo = outs[len(outs)-1].Point.Run.Rate
		s.sat.AcceptedLo = outs[len(outs)-1].Result.Accepted
	} else {
		hi = outs[i].Point.Run.Rate
		if i > 0 {
			lo = outs[i-1].Point.Run.Rate
			s.sat.AcceptedLo = outs[i-1].Result.Accepted
		}
	}
	s.lo, s.hi = lo, hi
	s.sat.Lo = lo
	h := hi
	s.sat.Hi = &h
	if hi-lo <= tol+1e-12 {
		s.done, s.sat.Done = true, true
	}
}

func sats(ss []*satSearch) []*Saturation {
	out := make([]*Saturation, len(ss))
	for i, s := range ss {
		out[i] = s.sat
	}
	return out
}
