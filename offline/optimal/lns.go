package optimal

// A large-neighbourhood search over bufferless start times (issue 27: "a
// large-neighbourhood search that re-solves a window of the schedule"). From
// the best bufferless schedule, of makespan M, one move picks a worm that
// finishes at M, frees it and worms near it (those crossing one edge of its
// path about when it does, and, breadth first, worms sharing an edge with a
// free worm and starting close to it), fixes every other worm's start, and
// asks the schedule search (cp.go) for starts of the free worms that finish
// by M - 1, within a small budget of failures. Lemma (a move's answer): each
// answer is a legal bufferless schedule and leaves one worm
// fewer finishing at M (the fixed worms keep their finish, the free ones end
// by M - 1); when none is left the makespan is M - 1. Fixing all but a few
// dozen worms makes each question small, where the whole problem (hundreds of
// worms) runs out of the schedule search's budget. A move that fails makes
// the next neighbourhood one worm larger, up to lnsMax, then it starts again
// from lnsMin. This is the relax-and-reoptimise scheme of Shaw ("Using
// constraint programming and local search methods to solve vehicle routing
// problems", CP 1998), with the schedule search as the repair.
//
// Soundness: a move's answer is a leaf of the schedule search, so a legal
// bufferless schedule (the lemma, checked by lns_test.go's
// TestLNSMovesKeepSchedules); every schedule the search keeps is verified
// (verify.Schedule) before it is kept. The search only finds schedules: it
// proves nothing.

import (
	"context"
	"fmt"
	"math/rand/v2"

	"github.com/wormlab/wormlab/model"
	"github.com/wormlab/wormlab/verify"
)

// lnsSearch is the large-neighbourhood search of one instance; its moves are
// deterministic (a seeded source).
type lnsSearch struct {
	in     *model.Instance
	c      *cpSearch // no symmetry rule: the fixed starts need not follow it
	rng    *rand.Rand
	adj    [][]int32 // the worms sharing an edge with each worm
	users  [][]model.Use
	lo, hi []int32
	free   []bool
	list   []int32 // the free worms
	size   int     // the next neighbourhood's size
	starts []int32 // the incumbent: s_i = t_1 of each worm
	M      int     // its makespan
	// Moves and Improved count the moves and the moves that answered;
	// better and betterMove are c.work() and Moves when the best schedule
	// last improved.
	Moves, Improved, betterMove int
	better                      int64
}

const (
	// lnsFails is the schedule search's failure budget per move.
	lnsFails = 200
	// lnsMin and lnsMax bound the neighbourhood's size, in worms.
	lnsMin, lnsMax = 8, 120
	// lnsFirstTurn, lnsStall and lnsFirstWork: lnsFirst.
	lnsFirstTurn  = 1 << 18
	lnsStall      = 1 << 25
	lnsStallMoves = 100
	lnsFirstWork  = 1 << 28
)

// newLNS returns the search of in (bufferless) from sch, a bufferless schedule
// of in.
func newLNS(in *model.Instance, sch *model.Schedule, seed uint64) *lnsSearch {
	c := newCPSearch(in, false)
	n := c.n
	l := &lnsSearch{in: in, c: c, rng: rand.New(rand.NewPCG(seed, 27)), adj: make([][]int32, n), users: in.Users(),
		lo: make([]int32, n), hi: make([]int32, n), free: make([]bool, n), size: lnsMin, starts: make([]int32, n)}
	for i := range c.pairs {
		for x, p := range c.pairs[i] {
			if x == 0 || c.pairs[i][x-1].j != p.j {
				l.adj[i] = append(l.adj[i], p.j)
			}
		}
	}
	l.from(sch)
	return l
}

// from makes the bufferless schedule sch the incumbent.
func (l *lnsSearch) from(sch *model.Schedule) {
	idx := l.in.Index()
	for _, t := range sch.Messages {
		l.starts[idx[t.ID]] = int32(t.Cross[0])
	}
	l.M = sch.Makespan
}

// finish is worm i's delivery step when it starts at s (bufferless).
func (l *lnsSearch) finish(i int32, s int32) int32 {
	return s + l.c.d[i] + l.c.l[i] - 2
}

// move tries once to make a worm that finishes at the makespan M finish by M
// - 1, no other worm finishing later than before; it reports whether the
// incumbent changed.
func (l *lnsSearch) move(ctx context.Context) bool {
	n := int32(l.c.n)
	M := int32(l.M)
	var late []int32
	for i := range n {
		l.free[i] = false
		if l.finish(i, l.starts[i]) >= M {
			late = append(late, i)
		}
	}
	// the setup scans every worm: counted as work, so that a turn of moves
	// that propagate nothing ends too
	l.c.scans += int64(n)
	if len(late) == 0 {
		return false // not reached: the makespan is some worm's finish
	}
	w := late[l.rng.IntN(len(late))]
	l.free[w] = true
	l.list = append(l.list[:0], w)
	if l.rng.IntN(2) == 0 {
		// the worms crossing one edge of w's path near the time w does
		p := l.in.Messages[w].Path
		k := l.rng.IntN(len(p))
		t := l.starts[w] + int32(k)
		for _, u := range l.users[p[k]] {
			if len(l.list) >= l.size {
				break
			}
			i := int32(u.Msg)
			if !l.free[i] && abs32(l.starts[i]+int32(u.Pos)-t) <= int32(2*l.size) {
				l.free[i] = true
				l.list = append(l.list, i)
			}
		}
	}
	queue := append([]int32(nil), l.list...)
	for len(l.list) < l.size && len(queue) > 0 {
		x := l.rng.IntN(len(queue))
		i := queue[x]
		queue[x] = queue[len(queue)-1]
		queue = queue[:len(queue)-1]
		span := l.c.d[i] + l.c.l[i]
		for _, j := range l.adj[i] {
			if l.free[j] || abs32(l.starts[j]-l.starts[i]) > span {
				continue
			}
			l.free[j] = true
			l.list = append(l.list, j)
			queue = append(queue, j)
		}
	}
	for i := range n {
		l.lo[i], l.hi[i] = l.starts[i], l.starts[i]
		if l.free[i] {
			l.lo[i], l.hi[i] = 1, M-1-l.c.d[i]-l.c.l[i]+2
		}
	}
	l.Moves++
	got, _ := l.c.solveWithin(ctx, l.M, l.lo, l.hi, l.list, lnsFails, l.rng.Uint64())
	if got == nil {
		l.size++
		if l.size > lnsMax {
			l.size = lnsMin
		}
		return false
	}
	l.Improved++
	l.starts = got
	l.M = 0
	for i := range n {
		l.M = max(l.M, int(l.finish(i, got[i])))
	}
	return true
}

// schedule is the incumbent as a bufferless schedule.
func (l *lnsSearch) schedule() *model.Schedule {
	cross := make([][]int, len(l.starts))
	for i, v := range l.starts {
		cross[i] = make([]int, len(l.in.Messages[i].Path))
		for k := range cross[i] {
			cross[i][k] = int(v) + k
		}
	}
	return model.NewSchedule(l.in, model.Bufferless, cross)
}

func abs32(x int32) int32 {
	if x < 0 {
		return -x
	}
	return x
}

// lnsTurn runs moves of the large-neighbourhood search (bufferless solves
// only) until they have done work (cpSearch.work), the best schedule is
// optimal, or s.ctx is cancelled; it returns the work done and whether it
// improved the best schedule.
// It starts from the best schedule when that is better than its own, and
// keeps every schedule it finds that is better than the best, verified.
func (s *search) lnsTurn(work int64) (done int64, improved bool, err error) {
	if !s.lnsOn() {
		return 0, false, nil
	}
	s.mu.Lock()
	best := s.best
	s.mu.Unlock()
	l := s.lns
	if l == nil {
		l = newLNS(s.in, best, 1)
		s.lns = l
	} else if best.Makespan < l.M {
		l.from(best)
	}
	from := l.c.work()
	for l.c.work()-from < work && s.ctx.Err() == nil && !s.settled() {
		M := l.M
		if !l.move(s.ctx) || l.M >= M {
			continue
		}
		sch := l.schedule()
		if err := verify.Schedule(s.in, sch); err != nil {
			return 0, false, fmt.Errorf("optimal: internal error: neighbourhood search: %w", err)
		}
		if sch.Makespan != l.M {
			return 0, false, fmt.Errorf("optimal: internal error: neighbourhood search: makespan %d, expected %d", sch.Makespan, l.M)
		}
		s.mu.Lock()
		better := sch.Makespan < s.best.Makespan
		if better {
			l.better, l.betterMove = l.c.work(), l.Moves
			s.best = sch
			s.res.Stats.UpperSource = "lns"
		}
		s.mu.Unlock()
		if better {
			improved = true
			s.progress()
		}
	}
	st := &s.res.Stats
	st.LNSMoves, st.LNSImproved = l.Moves, l.Improved
	return l.c.work() - from, improved, nil
}

// lnsOn reports whether the large-neighbourhood search runs in this solve:
// bufferless, with the schedule search (its repair; Options.NoCP switches off
// both), where two schedule-search stores fit the memory budget (its own and
// the search at the bound's, or withoutFormula's: cpStores).
func (s *search) lnsOn() bool {
	return s.opt.Model == model.Bufferless && !s.opt.NoLNS && !s.opt.NoCP && cpFits(s.in, model.Bufferless, s.opt.MaxMemory, 2)
}

// lnsFirst runs the large-neighbourhood search before the formula is built,
// while its moves improve the best schedule: it stops after lnsStall pair
// rules and task windows (cpSearch.work) or lnsStallMoves moves without a
// better makespan, or after lnsFirstWork of that work in all.
func (s *search) lnsFirst() error {
	if !s.lnsOn() || s.settled() || s.ctx.Err() != nil {
		return nil
	}
	s.lnsFirstOn, s.lnsFrom = true, s.best.Makespan
	s.progress()
	defer func() { s.lnsFirstOn = false }()
	var work int64
	for work < lnsFirstWork && !s.settled() && s.ctx.Err() == nil {
		n, _, err := s.lnsTurn(lnsFirstTurn)
		if err != nil {
			return err
		}
		work += n
		if s.lns.c.work()-s.lns.better >= lnsStall || s.lns.Moves-s.lns.betterMove >= lnsStallMoves {
			break
		}
	}
	return nil
}
