package online

// Delayed greedy: seed 000 (Greenberg, Oh, "Universal wormhole routing"), section II,
// Algorithm A, Lemmas 2-3, Theorems 4-5; section B.2 for the random-delay variant.

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"math"

	"github.com/wormlab/wormlab/internal/unionfind"
	"github.com/wormlab/wormlab/model"
)

// DefaultK is Algorithm A's default phase factor, 32e (seed 000, Theorem 5).
const DefaultK = 32 * math.E

// AlgorithmA is seed 000's Algorithm A: each worm draws a phase uniformly from
// [0, P - 1] and is released at the start of its phase; phases last T steps.
// P = ceil(k c min(L, d)) as Theorem 4 prescribes (k c L phases when L <= d, k c d
// when d < L), or ceil(k c L) always with PerL (the algorithm as first stated).
type AlgorithmA struct {
	// K is the phase factor (0: DefaultK); T the phase length (0: 2d + 2 L
	// ceil(log2 n)).
	K float64
	T int
	// Doubling runs Theorem 5's schedule: T doubles from round to round and worms
	// not delivered in their phase are removed and retried in the next round.
	Doubling bool
	// PerL uses ceil(k c L) phases even when d < L.
	PerL bool
}

var _ Algorithm = AlgorithmA{}

func init() {
	Register(&Entry{
		Name:    "delayed-greedy",
		Summary: "Algorithm A: random phases of T steps (seed 000, Theorems 4 and 5)",
		Params:  []string{"k", "T", "doubling", "kcl"},
		Define: func(fs *flag.FlagSet) {
			defineFloat(fs, "k", "delayed-greedy: ceil(k c min(L, d)) phases (0: 32e)")
			defineInt(fs, "T", "delayed-greedy: phase length (0: 2d + 2 L ceil(log2 n))")
			defineBool(fs, "doubling", "delayed-greedy: double T each round, retry late worms (Theorem 5)")
			defineBool(fs, "kcl", "delayed-greedy: ceil(k c L) phases even when d < L (Theorem 4 takes k c d there)")
		},
		New: func(p Params) (Algorithm, error) {
			a := AlgorithmA{K: param[float64](p, "k"), T: param[int](p, "T"), Doubling: param[bool](p, "doubling"), PerL: param[bool](p, "kcl")}
			return a, a.check()
		},
	})
}

func (AlgorithmA) Name() string { return "delayed-greedy" }

func (a AlgorithmA) check() error {
	if err := positive("k", a.K); err != nil {
		return err
	}
	if a.T < 0 {
		return fmt.Errorf("online: parameter T = %d must not be negative", a.T)
	}
	return nil
}

// AlgorithmAParams returns the number of phases P and the default phase length
// T = 2d + 2 L ceil(log2 max(n, 2)) for the instance (c congestion, L the largest
// length, d dilation, n worms), with k = DefaultK when k is 0. P = ceil(k c
// min(L, d)) (Theorem 4), or ceil(k c L) with perL.
func AlgorithmAParams(in *model.Instance, k float64, perL bool) (phases, t int) {
	if k == 0 {
		k = DefaultK
	}
	ms := in.Measure()
	f := ms.LMax
	if !perL {
		f = min(ms.LMax, ms.D)
	}
	phases = max(1, satInt(math.Ceil(k*float64(ms.C)*float64(f))))
	z := ceilLog2(max(len(in.Messages), 2)) * 2
	return phases, 2*ms.D + ms.LMax*z
}

// PhaseBound returns a deterministic bound on the steps the worms of one phase need
// when they are released together into an empty network, maximised over the phases
// of delay (delay[i] < 0: worm i is not in any phase), and the rule that gave it:
//
//   - "lemma1": the network is levelled and every path runs from level 0 to the last
//     level D; by Lemma 1 of seed 002 the worms of each path-graph component C of
//     the phase are delivered within D + sum_{i in C} L_i steps (D + |C| L);
//   - "moves": the channel dependency graph is acyclic, so no stall can happen and
//     some worm moves in every step until all are done: sum_{i in phase} (d_i + L_i);
//   - "none" (bound -1): the dependency graph has a cycle, so a phase may deadlock.
//
// With T >= PhaseBound every worm of Algorithm A is delivered in its phase, and the
// whole run ends by P T.
func PhaseBound(in *model.Instance, delay []int) (bound int, rule string) {
	phases := map[int][]int{}
	for i, x := range delay {
		if x >= 0 {
			phases[x] = append(phases[x], i)
		}
	}
	if D, ok := fullDepth(in); ok {
		for _, ws := range phases {
			for _, comp := range components(in, ws) {
				s := D
				for _, i := range comp {
					s += in.Messages[i].L
				}
				bound = max(bound, s)
			}
		}
		return bound, "lemma1"
	}
	if in.Dependencies().Cycle() != nil {
		return -1, "none"
	}
	for _, ws := range phases {
		s := 0
		for _, i := range ws {
			s += len(in.Messages[i].Path) + in.Messages[i].L
		}
		bound = max(bound, s)
	}
	return bound, "moves"
}

// fullDepth reports whether the network is levelled with every path running from
// level 0 to one common last level D (the setting of seed 002, section 2), and D.
func fullDepth(in *model.Instance) (int, bool) {
	lv, ok := in.Net.Levelling()
	if !ok || len(in.Messages) == 0 {
		return 0, false
	}
	D := -1
	for i := range in.Messages {
		p := in.Messages[i].Path
		a, b := lv[in.Net.Edges[p[0]].From], lv[in.Net.Edges[p[len(p)-1]].To]
		if a != 0 || (D >= 0 && b != D) {
			return 0, false
		}
		D = b
	}
	return D, true
}

// components returns the connected components of the path graph restricted to the
// worms ws.
func components(in *model.Instance, ws []int) [][]int {
	uf := unionfind.New(len(ws)) // over positions in ws
	owner := map[int]int{}
	for k, i := range ws {
		for _, f := range in.Messages[i].Path {
			if j, ok := owner[f]; ok {
				uf.Union(k, j)
			} else {
				owner[f] = k
			}
		}
	}
	find := func(k int) int { return uf.Find(k) }
	groups := map[int][]int{}
	var roots []int
	for k, i := range ws {
		r := find(k)
		if _, ok := groups[r]; !ok {
			roots = append(roots, r)
		}
		groups[r] = append(groups[r], i)
	}
	out := make([][]int, 0, len(roots))
	for _, r := range roots {
		out = append(out, groups[r])
	}
	return out
}

// ErrDeadlock is wrapped by the error of Algorithm A with doubling when worms stay
// undelivered in phases longer than all their moves: the paths deadlock. (The other
// algorithms return the engine's *engine.Deadlock, which names the wait cycle.)
var ErrDeadlock = errors.New("the paths deadlock")

// fitsClock reports an error when 4ab, bounding the span of release times a run
// schedules, could overflow the engine's clock (an int); the run would be
// meaningless anyway.
func fitsClock(what string, a, b int) error {
	if a > 0 && b > 0 && a > math.MaxInt/4/b {
		return fmt.Errorf("online: %s = %d * %d overflows the clock", what, a, b)
	}
	return nil
}

// Route runs Algorithm A, with Theorem 5's doubling when a.Doubling.
func (a AlgorithmA) Route(ctx context.Context, in *model.Instance, s *Setup, r *Result) error {
	if err := a.check(); err != nil {
		return err
	}
	e, err := s.NewEngine(in)
	if err != nil {
		return err
	}
	rng := s.Rng
	n := len(in.Messages)
	info := &DelayedInfo{Delay: make([]int, n), Rounds: 1}
	r.Delayed = info
	ms := in.Measure()
	info.Variant = DelayPhases
	info.K = a.K
	if info.K == 0 {
		info.K = DefaultK
	}
	info.PerL = a.PerL
	info.Phases, info.T = AlgorithmAParams(in, info.K, a.PerL)
	if a.T > 0 {
		info.T = a.T
	}
	moves := ms.Holdings // sum_i (d_i + L_i)
	// Releases reach Phases * T; with doubling, the rounds' Phases * t sum to less
	// than Phases * 2 t_final <= 4 Phases max(T, moves), which fitsClock bounds.
	if err := fitsClock("delayed-greedy: phases * max(T, moves)", info.Phases, max(info.T, moves, 1)); err != nil {
		return err
	}
	if a.Doubling && info.Phases > maxRounds {
		return fmt.Errorf("online: delayed-greedy: %d phases: at most %d with doubling", info.Phases, maxRounds)
	}
	draw := func(ws []int) {
		for _, i := range ws {
			info.Delay[i] = rng.IntN(info.Phases)
		}
	}
	all := make([]int, n)
	for i := range all {
		all[i] = i
	}
	draw(all)
	info.PhaseBound, _ = PhaseBound(in, info.Delay)
	if !a.Doubling {
		for i := range in.Messages {
			if err := e.Release(i, info.Delay[i]*info.T); err != nil {
				return err
			}
		}
		if err := e.Run(ctx, -1); err != nil {
			return err
		}
		for i := range in.Messages {
			if e.DeliveryTime(i) > (info.Delay[i]+1)*info.T {
				info.Late++
			}
		}
		info.FinalT = info.T
		finish(e, in, r)
		return nil
	}
	// Theorem 5: rounds with T doubling; a phase's undelivered worms are removed at
	// its end and retried in the next round. Without a stall every phase ends within
	// sum_i (d_i + L_i) steps (PhaseBound, rule "moves"), so once T exceeds that, a
	// round with late worms means a deadlock.
	todo := all
	start := 0
	t := info.T
	for round := 0; ; round++ {
		if round > 0 {
			draw(todo)
		}
		byPhase := make([][]int, info.Phases)
		for _, i := range todo {
			byPhase[info.Delay[i]] = append(byPhase[info.Delay[i]], i)
		}
		var late []int
		for p, ws := range byPhase {
			if len(ws) == 0 {
				continue
			}
			for _, i := range ws {
				if err := e.Release(i, start+p*t); err != nil {
					return err
				}
			}
			if err := e.Run(ctx, start+(p+1)*t); err != nil {
				return err
			}
			for _, i := range ws {
				if !e.Delivered(i) {
					late = append(late, i)
				}
				e.Remove(i)
			}
		}
		info.LatePerRound = append(info.LatePerRound, len(late))
		info.Rounds, info.FinalT = round+1, t
		if len(late) == 0 {
			break
		}
		if t > moves {
			return fmt.Errorf("online: delayed-greedy: %d worms still undelivered in phases of %d steps, more than all their moves: %w (the channel dependency graph has a cycle)", len(late), t, ErrDeadlock)
		}
		start += info.Phases * t
		t *= 2
		todo = late
	}
	if err := e.Run(ctx, -1); err != nil {
		return err
	}
	finish(e, in, r)
	return nil
}
