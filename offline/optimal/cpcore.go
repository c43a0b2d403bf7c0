package optimal

// The engine shared by the schedule searches (cp.go for the bufferless model,
// cpwormhole.go for the wormhole model): integer variables with interval domains
// [lo, hi], a trail to undo bound changes, a propagation queue, and the depth-first
// search with Luby restarts. The rules live in the models (cpRules).

import (
	"context"
	"math/rand/v2"
	"slices"
	"time"
)

// cpRules is a model's propagation, called by the engine.
type cpRules interface {
	// propagate applies the rules to a fixpoint, starting from the variables on
	// the engine's queue (it empties the queue); false is a failure.
	propagate(s *cpStore) bool
	// moved is called whenever variable v's bounds change.
	moved(v int32)
	// drop forgets the rules' pending work after a failure.
	drop()
}

// cpStats describes one schedule search.
type cpStats struct {
	Nodes, Fails int64
	Restarts     int
	Elapsed      time.Duration
}

type cpUndo struct {
	v      int32
	lo, hi int32
}

// cpStore is the engine's state.
type cpStore struct {
	lo, hi []int32
	trail  []cpUndo
	queue  []int32
	inq    []bool
	prio   []uint32
	rules  cpRules
	// slackTies breaks ties of lower bounds by the smaller upper bound first.
	slackTies bool
	// only, when set, lists the variables that init may leave unfixed; the
	// others are fixed, consistent with each other, and left out of the
	// first propagation and of branching (the large-neighbourhood search,
	// lns.go, fixes all but a few).
	only []int32
	all  []int32 // 0, 1, ..., n - 1

	fails, limit, nodes int64
	ctx                 context.Context
	stopped             bool
}

func newCPStore(n int, rules cpRules) *cpStore {
	all := make([]int32, n)
	for i := range all {
		all[i] = int32(i)
	}
	return &cpStore{lo: make([]int32, n), hi: make([]int32, n), inq: make([]bool, n), prio: make([]uint32, n), rules: rules, all: all}
}

// search looks for an assignment of every variable within the failure budget.
// init sets the initial domains (false: some domain is empty). Each restart
// begins from init again with a failure limit of 100 times the next Luby term;
// the first run breaks ties by variable index, later ones by priorities drawn from
// a source seeded by seed and T. On success the values are in s.lo.
func (s *cpStore) search(ctx context.Context, T int, init func() bool, maxFails int64, seed uint64) (found bool, st cpStats) {
	r := newCPRestarts(T, maxFails, seed)
	st = s.resume(ctx, r, init, maxFails)
	return r.found, st
}

// cpRestarts is a search (cpStore.search) that may stop between two restarts
// and go on later (cpStore.resume): it keeps what passes from one restart to
// the next, the run's number, the failures so far and the source of the
// priorities. Lemma (a search in parts): a search resumed until maxFails
// takes the same runs, with the same failure limits and priorities, as
// search with the same T, maxFails and seed, so it ends with the same
// answer (each run starts from init, and the store keeps nothing else from
// one run to the next).
type cpRestarts struct {
	T        int
	maxFails int64
	rng      *rand.Rand
	run      int   // the next run, from 1
	total    int64 // the failures of the runs so far
	// ended says the search is over: found, the whole tree searched, no
	// assignment at all, the budget spent, or cancelled.
	ended, found bool
}

func newCPRestarts(T int, maxFails int64, seed uint64) *cpRestarts {
	return &cpRestarts{T: T, maxFails: maxFails, rng: rand.New(rand.NewPCG(seed, uint64(T))), run: 1}
}

// resume runs the restarts of r until it ends or, at the end of a run, its
// failures reach until; it returns the statistics of these runs (Restarts:
// the restarts of r so far).
func (s *cpStore) resume(ctx context.Context, r *cpRestarts, init func() bool, until int64) (st cpStats) {
	start := time.Now()
	s.ctx, s.stopped = ctx, false
	defer func() { st.Elapsed = time.Since(start) }()
	for ; !r.ended && r.total < until; r.run++ {
		if r.total >= r.maxFails || s.stopped || ctx.Err() != nil {
			r.ended = true
			break
		}
		s.trail = s.trail[:0]
		s.dropQueue()
		s.rules.drop()
		ok := init()
		for v := range s.lo {
			if r.run == 1 {
				s.prio[v] = uint32(v)
			} else {
				s.prio[v] = r.rng.Uint32()
			}
		}
		for _, v := range s.vars() {
			s.push(v)
		}
		if !ok || !s.rules.propagate(s) {
			r.ended = true // no assignment at all
			return st
		}
		s.fails, s.nodes = 0, 0
		s.limit = min(100*luby(r.run), r.maxFails-r.total)
		res := s.dfs()
		r.total += s.fails
		st.Fails += s.fails
		st.Nodes += s.nodes
		st.Restarts = r.run - 1
		if res > 0 {
			r.ended, r.found = true, true
			return st
		}
		if res == 0 {
			r.ended = true // the whole tree was searched
			return st
		}
	}
	if r.total >= r.maxFails || s.stopped || ctx.Err() != nil {
		r.ended = true
	}
	return st
}

// luby returns the i-th term (from 1) of the Luby sequence 1 1 2 1 1 2 4 ...
func luby(i int) int64 {
	for k := 1; ; k++ {
		if i == 1<<k-1 {
			return 1 << (k - 1)
		}
		if i < 1<<k-1 {
			return luby(i - (1<<(k-1) - 1))
		}
	}
}

// vars is the variables the search propagates first and branches on: only,
// or all of them.
func (s *cpStore) vars() []int32 {
	if s.only != nil {
		return s.only
	}
	return s.all
}

// dfs returns 1 at a leaf (every variable fixed), 0 when the subtree has no
// solution, -1 when the failure limit or the context stopped it. It branches on
// the unfixed variable with the smallest lower bound (ties: before): left x = lo,
// right x >= lo + 1.
func (s *cpStore) dfs() int {
	s.nodes++
	if s.nodes&1023 == 0 && s.ctx.Err() != nil {
		s.stopped = true
	}
	if s.stopped {
		return -1
	}
	x := int32(-1)
	for _, i := range s.vars() {
		if s.lo[i] == s.hi[i] {
			continue
		}
		if x < 0 || s.lo[i] < s.lo[x] || s.lo[i] == s.lo[x] && s.before(i, x) {
			x = i
		}
	}
	if x < 0 {
		return 1
	}
	v := s.lo[x]
	mark := len(s.trail)
	if s.setHi(x, v) && s.rules.propagate(s) {
		if r := s.dfs(); r != 0 {
			return r
		}
	} else {
		s.fail()
	}
	s.undo(mark)
	if s.fails >= s.limit {
		return -1
	}
	if s.setLo(x, v+1) && s.rules.propagate(s) {
		return s.dfs()
	}
	s.fail()
	return 0
}

// before breaks a tie of lower bounds: by priority, or first by the smaller upper
// bound when slackTies is set.
func (s *cpStore) before(i, x int32) bool {
	if s.slackTies && s.hi[i] != s.hi[x] {
		return s.hi[i] < s.hi[x]
	}
	return s.prio[i] < s.prio[x]
}

func (s *cpStore) fail() {
	s.fails++
	s.dropQueue()
	s.rules.drop()
}

func (s *cpStore) dropQueue() {
	for _, v := range s.queue {
		s.inq[v] = false
	}
	s.queue = s.queue[:0]
}

func (s *cpStore) undo(mark int) {
	for k := len(s.trail) - 1; k >= mark; k-- {
		u := s.trail[k]
		s.lo[u.v], s.hi[u.v] = u.lo, u.hi
	}
	s.trail = s.trail[:mark]
}

// pop takes a variable off the queue (-1 when it is empty).
func (s *cpStore) pop() int32 {
	if len(s.queue) == 0 {
		return -1
	}
	v := s.queue[len(s.queue)-1]
	s.queue = s.queue[:len(s.queue)-1]
	s.inq[v] = false
	return v
}

func (s *cpStore) push(v int32) {
	if !s.inq[v] {
		s.inq[v] = true
		s.queue = append(s.queue, v)
	}
	s.rules.moved(v)
}

// setLo raises v's lower bound to at least x; false when the domain empties.
func (s *cpStore) setLo(v, x int32) bool {
	if x <= s.lo[v] {
		return true
	}
	s.trail = append(s.trail, cpUndo{v, s.lo[v], s.hi[v]})
	s.lo[v] = x
	s.push(v)
	return x <= s.hi[v]
}

// setHi lowers v's upper bound to at most x; false when the domain empties.
func (s *cpStore) setHi(v, x int32) bool {
	if x >= s.hi[v] {
		return true
	}
	s.trail = append(s.trail, cpUndo{v, s.lo[v], s.hi[v]})
	s.hi[v] = x
	s.push(v)
	return s.lo[v] <= x
}

// cpWin is a task's window on a unary resource: earliest start, latest end,
// length.
type cpWin struct{ est, lct, l int32 }

// overloaded reports whether the tasks w cannot share one unary resource: some
// deadline D and threshold R leave less room in [R, D] than the tasks whose
// windows lie inside it need (R + sum l - 1 > D). It sorts w. Cost O(n^2).
func overloaded(w []cpWin) bool {
	// by earliest start, latest first
	slices.SortFunc(w, func(x, y cpWin) int { return int(y.est - x.est) })
	for _, dl := range w {
		D := dl.lct
		sum := int32(0)
		for _, t := range w {
			if t.lct <= D {
				sum += t.l
				if t.est+sum-1 > D {
					return true
				}
			}
		}
	}
	return false
}

// cpEdges is the overload checking shared by the models: the shared edges whose
// tasks moved since the last pass, and a window of each task computed by the
// model (window appends edge e's task windows to w).
type cpEdges struct {
	// tasks counts the task windows checked (a measure of the work done).
	tasks  int64
	dirty  []int32
	isDrt  []bool
	scr    []cpWin
	window func(e int32, w []cpWin) []cpWin
}

func newCPEdges(n int, window func(e int32, w []cpWin) []cpWin) cpEdges {
	return cpEdges{isDrt: make([]bool, n), window: window}
}

// mark queues the edges es for the next overload pass.
func (c *cpEdges) mark(es []int32) {
	for _, e := range es {
		if !c.isDrt[e] {
			c.isDrt[e] = true
			c.dirty = append(c.dirty, e)
		}
	}
}

// drop forgets the queued edges (after a failure).
func (c *cpEdges) drop() {
	for _, e := range c.dirty {
		c.isDrt[e] = false
	}
	c.dirty = c.dirty[:0]
}

// check runs overload checking on the queued edges; false is a failure.
func (c *cpEdges) check() bool {
	for len(c.dirty) > 0 {
		e := c.dirty[len(c.dirty)-1]
		c.dirty = c.dirty[:len(c.dirty)-1]
		c.isDrt[e] = false
		c.scr = c.window(e, c.scr[:0])
		c.tasks += int64(len(c.scr))
		if overloaded(c.scr) {
			return false
		}
	}
	return true
}
