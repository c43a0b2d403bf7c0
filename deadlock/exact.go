package deadlock

// The exact decision: is there a deadlock configuration (config.go) of a routing
// on a network with V VCs, under a VC reallocation rule? Each step is exact:
//
//  1. the fixpoint (fixpoint.go), linear: an empty U* proves the routing
//     deadlock-free (the order of the VCs' deaths is the certificate);
//  2. the girth of the request graph (minimal.go): every configuration has at least
//     that many worms, and a configuration along a shortest cycle, when its chains
//     are disjoint and (atomic) cover every request, has exactly that many: the
//     fewest, proved;
//  3. non-atomic reallocation with U* not empty: a cycle of one-VC worms, each
//     granted the next one's VC, always exists (commitCycle): a deadlock;
//  4. atomic reallocation: the closure of the shortest cycle by more worms, or
//     one-VC worms filling every VC they block (singleFill), else the formula of
//     encode.go over the live nodes: a model is a configuration, unsatisfiability
//     a proof of freedom (a DRAT proof when a certificate is asked for: package
//     certify).
//
// The decision problem is co-NP-complete for wormhole networks (Verbeek and
// Schmaltz, IEEE TPDS 22(12), 2011), so step 4 may take exponential time (DCI2,
// IEEE TPDS 25(8), 2014, proves a 13x13 torus routing free in seconds and needs 9
// hours for a minimal deadlock on a 12x12 one). The fewest worms above the girth are searched by the same formula with
// a sequential counter on the VCs that hold a head, downwards from the best found,
// within Options.MinimalTime; the unsatisfiable bound below the result is the
// proof.

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/go-air/gini"
	"github.com/go-air/gini/z"
)

// Options tune Decide.
type Options struct {
	// Atomic is the VC reallocation rule: a VC is given to a new packet only once
	// its buffer is empty.
	Atomic bool
	// Minimal asks for a configuration with the fewest worms, proved by the
	// unsatisfiable formula of one worm fewer.
	Minimal bool
	// Budget, when positive, bounds the formula's estimated memory in bytes.
	Budget int64
	// MinimalTime, when positive, bounds the time spent proving the fewest worms
	// by the formula (the girth needs none); past it the configuration found is
	// reported with the lower bound, not proved the fewest.
	MinimalTime time.Duration
	// Progress, when set, is told what the decision is doing.
	Progress func(string)
}

// Verdict is what Decide found.
type Verdict struct {
	// Free: no deadlock configuration exists.
	Free bool
	// Method: "fixpoint" (U* empty, free), "girth" (a configuration along a
	// shortest cycle of the request graph), "cycle" (non-atomic: one-VC worms
	// committed round a cycle), "fill" (atomic: one-VC worms filling every VC
	// they block), "sat" (the formula decided).
	Method string
	Fix    *Fixpoint
	// Config is a deadlock configuration when one exists; with Options.Minimal,
	// one with the fewest worms.
	Config *Config
	// LowerBound: every configuration has at least this many worms (the girth of
	// the request graph, minimal.go).
	LowerBound int
	// MinimalProved: no configuration has fewer worms than Config: it meets the
	// lower bound, or the formula of one worm fewer is unsatisfiable.
	MinimalProved bool
	// Formula is the last formula solved (nil when none was needed); Refuted is
	// its bound when it was unsatisfiable (0: no bound).
	Formula *Formula
	Refuted int
	// Solves counts SAT calls, SolveTime their total.
	Solves    int
	SolveTime time.Duration
}

// ErrInterrupted is returned (wrapped) when ctx ends before the decision does.
var ErrInterrupted = errors.New("interrupted")

// Decide decides g under opt.
func Decide(ctx context.Context, g *Graph, opt Options) (*Verdict, error) {
	say := func(format string, a ...any) {
		if opt.Progress != nil {
			opt.Progress(fmt.Sprintf(format, a...))
		}
	}
	v := &Verdict{Fix: fixpoint(g, opt.Atomic)}
	fp := v.Fix
	say("fixpoint: %d VCs and %d of %d states may take part in a deadlock", fp.AliveVCs, fp.LiveNodes, g.Nodes())
	if fp.AliveVCs == 0 {
		v.Free, v.Method = true, "fixpoint"
		return v, nil
	}
	// the girth of the request graph: a lower bound, often met
	// the request graph's per-node bitsets, a block of VCs at a time: at most
	// 256 MB (or a quarter of the budget) per pass
	mem := int64(256 << 20)
	if opt.Budget > 0 {
		mem = min(mem, opt.Budget/4)
	}
	block := int(max(64, mem*8/int64(max(g.Nodes(), 1))))
	lb, cfg, err := lowerBound(ctx, g, fp, opt.Atomic, block)
	if err != nil {
		return v, wrapCtx(ctx, err)
	}
	v.LowerBound = lb
	say("every configuration has at least %d worms (the girth of the request graph)", lb)
	if cfg != nil && len(cfg.Worms) == lb {
		v.Config, v.Method, v.MinimalProved = cfg, "girth", true
		return v, nil
	}
	if cfg != nil {
		// a cycle closed by more worms: a configuration above the bound
		v.Config, v.Method = cfg, "closure"
	}
	switch {
	case v.Config != nil:
	case !opt.Atomic:
		v.Method = "cycle"
		v.Config = commitCycle(g, fp)
		if err := v.Config.Validate(); err != nil {
			return nil, fmt.Errorf("deadlock: internal error: the commit cycle: %v", err)
		}
	default:
		if c := singleFill(g, fp); c != nil {
			v.Method, v.Config = "fill", c
			if err := v.Config.Validate(); err != nil {
				return nil, fmt.Errorf("deadlock: internal error: the single-VC fill: %v", err)
			}
		}
	}
	if v.Config != nil && !opt.Minimal {
		return v, nil
	}
	// the formula: existence, then the fewest worms from the lower bound up
	maxK := 0
	if opt.Minimal {
		maxK = 64
		if v.Config != nil {
			maxK = len(v.Config.Worms) - 1
		}
	}
	if opt.Budget > 0 {
		if need := estimate(g, fp, opt.Atomic, maxK); need > opt.Budget {
			return v, &MemoryError{Need: need, Budget: opt.Budget, What: "the SAT formula"}
		}
	}
	f := encode(g, fp, opt.Atomic, maxK)
	v.Formula = f
	say("formula: %d variables, %d clauses", f.Vars, f.Clauses)
	s := load(f)
	if v.Config == nil {
		v.Method = "sat"
		r, err := v.solve(ctx, s, nil)
		if err != nil {
			return v, err
		}
		if r < 0 {
			v.Free = true
			return v, nil
		}
		if v.Config, err = v.decode(f, s); err != nil {
			return nil, err
		}
		if !opt.Minimal {
			return v, nil
		}
	}
	// fewer worms than the best so far, until the formula of one fewer is refuted,
	// the lower bound is met, or the time for it is spent
	var deadline time.Time
	if opt.MinimalTime > 0 {
		deadline = time.Now().Add(opt.MinimalTime)
	}
	for n := len(v.Config.Worms); n > max(lb, 1) && n-1 <= maxK; n = len(v.Config.Worms) {
		say("is there a configuration of at most %d worms?", n-1)
		r, err := v.solveUntil(ctx, s, f.Bound(n-1), deadline)
		if err != nil {
			return v, err
		}
		if r == 0 {
			say("no answer within the time for minimality: between %d and %d worms", lb, n)
			break
		}
		if r < 0 {
			v.Refuted = n - 1
			break
		}
		c, err := v.decode(f, s)
		if err != nil {
			return nil, err
		}
		v.Config = c
	}
	n := len(v.Config.Worms)
	v.MinimalProved = n == lb || v.Refuted == n-1
	return v, nil
}

func (v *Verdict) decode(f *Formula, s *gini.Gini) (*Config, error) {
	c, err := f.decode(func(x int32) bool { return s.Value(z.Dimacs2Lit(int(x))) })
	if err != nil {
		return nil, err
	}
	if err := c.Validate(); err != nil {
		return nil, fmt.Errorf("deadlock: internal error: decoded configuration: %v", err)
	}
	return c, nil
}

func wrapCtx(ctx context.Context, err error) error {
	if ctx.Err() != nil {
		return fmt.Errorf("deadlock: %w", ErrInterrupted)
	}
	return err
}

// singleFill is the greatest set S of VCs of U* each held by a live node all of
// whose requests lie in S (atomic reallocation): filled with one-VC worms, one such
// node per VC, it is a configuration. nil when S is empty.
func singleFill(g *Graph, fp *Fixpoint) *Config {
	in := slices.Clone(fp.Alive)
	for changed := true; changed; {
		changed = false
		for c := range g.Channels {
			if in[c] && pickFill(g, fp, int32(c), in) < 0 {
				in[c] = false
				changed = true
			}
		}
	}
	cfg := &Config{g: g, Atomic: true}
	for c := range g.Channels {
		if in[c] {
			cfg.Worms = append(cfg.Worms, Worm{Nodes: []int32{pickFill(g, fp, int32(c), in)}, Commit: -1})
		}
	}
	if len(cfg.Worms) == 0 {
		return nil
	}
	return cfg
}

func pickFill(g *Graph, fp *Fixpoint, c int32, in []bool) int32 {
	for _, m := range g.Holders(c) {
		if !fp.Live[m] {
			continue
		}
		ok := true
		for _, r := range g.Choices(m) {
			ok = ok && in[r]
		}
		if ok {
			return m
		}
	}
	return -1
}

// solve runs s under the assumptions, stopping when ctx ends.
func (v *Verdict) solve(ctx context.Context, s *gini.Gini, assume []int32) (int, error) {
	return v.solveUntil(ctx, s, assume, time.Time{})
}

// solveUntil is solve that also gives up (0) at deadline (when not zero).
func (v *Verdict) solveUntil(ctx context.Context, s *gini.Gini, assume []int32, deadline time.Time) (int, error) {
	start := time.Now()
	defer func() { v.Solves++; v.SolveTime += time.Since(start) }()
	for _, a := range assume {
		s.Assume(z.Dimacs2Lit(int(a)))
	}
	sv := s.GoSolve()
	wait := time.Millisecond
	for {
		if r, done := sv.Test(); done {
			return r, nil
		}
		if ctx.Err() != nil {
			sv.Stop()
			return 0, fmt.Errorf("deadlock: %w", ErrInterrupted)
		}
		if !deadline.IsZero() && time.Now().After(deadline) {
			sv.Stop()
			return 0, nil
		}
		time.Sleep(wait)
		wait = min(2*wait, 50*time.Millisecond)
	}
}

func load(f *Formula) *gini.Gini {
	s := gini.NewVc(f.Vars, f.Clauses)
	for s.MaxVar() < z.Var(f.Vars) {
		s.Lit()
	}
	for _, l := range f.lits {
		s.Add(z.Dimacs2Lit(int(l)))
	}
	return s
}

// estimate bounds the bytes of the formula and its solver: about 40 bytes a
// literal in gini and our copy, literals about 3 per clause and 2 clauses per
// variable.
func estimate(g *Graph, fp *Fixpoint, atomic bool, maxHeads int) int64 {
	var nodes, edges, reqs int64
	for m := range g.Nodes() {
		if !fp.Live[m] {
			continue
		}
		nodes++
		edges += int64(len(g.Succ(int32(m))))
		reqs += int64(len(g.Choices(int32(m))))
	}
	vars := 3*nodes + edges + int64(fp.AliveVCs)*int64(maxHeads+2)
	if !atomic {
		vars += 4*nodes + reqs
	}
	return vars * 2 * 3 * 40
}

// commitCycle finds a cycle of VCs in U* under non-atomic reallocation: every VC
// of U* is held by a live node that may request a VC of U* (the node is blocked by
// U*, or continues into it), so following such requests from any VC of U* repeats a
// VC. Each VC of the cycle holds a one-VC worm committed to the next VC. The
// shortest cycle through the first repeated VC is taken (breadth-first search).
func commitCycle(g *Graph, fp *Fixpoint) *Config {
	// out[c]: (a node holding c, a VC it may request); par[x]: (the node, the VC
	// it holds) by which the search reached x
	type arc struct{ node, vc int32 }
	out := make([][]arc, g.Channels)
	start := int32(-1)
	for c := range g.Channels {
		if !fp.Alive[c] {
			continue
		}
		for _, m := range g.Holders(int32(c)) {
			if !fp.Live[m] {
				continue
			}
			for _, r := range g.Choices(m) {
				if fp.Alive[r] {
					out[c] = append(out[c], arc{m, r})
				}
			}
		}
		if start < 0 {
			start = int32(c)
		}
	}
	seen := make([]bool, g.Channels)
	c := start
	for !seen[c] {
		seen[c] = true
		c = out[c][0].vc
	}
	par := make([]arc, g.Channels)
	reached := make([]bool, g.Channels)
	reached[c] = true
	q := []int32{c}
	var last arc // the arc closing the cycle: node holding u requests c
	u := int32(-1)
	for len(q) > 0 && u < 0 {
		x := q[0]
		q = q[1:]
		for _, a := range out[x] {
			if a.vc == c {
				last, u = arc{a.node, x}, x
				break
			}
			if !reached[a.vc] {
				reached[a.vc] = true
				par[a.vc] = arc{a.node, x}
				q = append(q, a.vc)
			}
		}
	}
	var cyc []int32 // u back to c
	for x := u; ; x = par[x].vc {
		cyc = append(cyc, x)
		if x == c {
			break
		}
	}
	for i, j := 0, len(cyc)-1; i < j; i, j = i+1, j-1 {
		cyc[i], cyc[j] = cyc[j], cyc[i]
	}
	cfg := &Config{g: g}
	for i := range cyc {
		node := last.node
		if i+1 < len(cyc) {
			node = par[cyc[i+1]].node
		}
		cfg.Worms = append(cfg.Worms, Worm{Nodes: []int32{node}, Commit: cyc[(i+1)%len(cyc)]})
	}
	return cfg
}
