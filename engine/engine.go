// The wormhole step function: seed 002 (Ranade, Schleimer, Wilkerson), section 1.2
// (a head advances when its link is free and the buffer empty, the whole worm with
// it), under MODEL.md's holding rule; doc.go derives the step rule.

package engine

import (
	"container/heap"
	"context"
	"fmt"
	"math/rand/v2"

	"github.com/wormlab/wormlab/model"
)

// Config chooses the arbitration policy and seeds the engine's random source.
type Config struct {
	// Arb is an arbitration policy name (Policies); "" means "message". Policy,
	// when set, is used instead.
	Arb    string
	Policy Policy
	// Seed seeds the PCG source used by the "random" policy.
	Seed uint64
	// RecordSteps keeps one StepCount per step in which a worm moved or requested.
	RecordSteps bool
	// Rotate lets a closed cycle of worms, each waiting for the tail of the next,
	// shift by one edge in one step. MODEL.md's holding rule allows it; by default
	// the engine treats such a cyclic wait as a deadlock (doc.go).
	Rotate bool
}

// Counters sum what the engine did over a run.
type Counters struct {
	// Steps is the clock: the last time the engine reached.
	Steps int
	// BusySteps counts the steps in which some worm moved.
	BusySteps int
	// WormMoves counts worm moves that moved at least one flit.
	WormMoves int64
	// FlitMoves counts flit crossings (sum over delivered worms of d_i L_i, plus the
	// crossings of removed attempts).
	FlitMoves int64
	// Requests counts head requests for an edge; Lost those that lost arbitration;
	// Blocked those that won but whose edge was not freed. Of the worms waiting at a
	// source for the same first edge only the one the policy puts first requests it
	// (doc.go, injection queues).
	Requests, Lost, Blocked int64
	// Wakeups counts worms woken from sleep; Examined the worms the step loop looked
	// at (the awake ones, summed over steps): Examined / WormMoves measures how far
	// the step's work is from the work of the moves themselves.
	Wakeups, Examined int64
	// Resident sums over the steps the worms released and not done: the work of an
	// engine that looks at every worm in every step.
	Resident int64
	// Removed counts worms taken off the network undelivered; WastedFlits the flit
	// crossings they had made.
	Removed     int
	WastedFlits int64
}

// StepCount is what happened in one step t.
type StepCount struct {
	T        int
	Moving   int // worms that moved a flit
	Flits    int // flit crossings
	Requests int // heads that asked for an edge
	Lost     int // requests that lost arbitration
}

// Worm states.
const (
	stIdle     uint8 = iota // at its source, not released
	stPending               // released for a future time
	stAwake                 // may move in the next step
	stAsleep                // waiting on an edge that cannot be freed in the next step
	stDone                  // delivered and off the network
	stAtSource              // released, queued at its source behind the first edge's representative
)

// Engine simulates wormhole routing on one instance, step by step. It is not safe
// for concurrent use.
type Engine struct {
	in   *model.Instance
	path [][]int
	l    []int32
	d    []int32
	nIn  []int32 // per node: number of input edges
	port []int32 // per edge: its position in Network.In of its head node

	pol Policy
	arb Arbiter
	now int

	h       []int32
	state   []uint8
	rel     []int
	cross   [][]int
	deliv   []int
	sleepOn []int32
	queued  []bool

	holder  []int32
	waiters [][]int32
	// Worms released at their source and waiting for the same first edge f form an
	// injection queue: rep[f] is the one that requests f (a normal worm, awake or
	// asleep), srcQ[f] a heap of the others, ordered by the policy's key (srcLess).
	rep  []int32
	srcQ []srcHeap

	cand, spare []int32
	pending     eventHeap
	seq         int

	// per-step scratch
	reqHead  []int32 // per edge: first requester, -1
	reqNext  []int32 // per worm
	winner   []int32 // per edge, -1
	memo     []mark  // per worm, within a step
	touched  []int32
	reqs     []int32
	movers   []int32
	freed    []int32
	buf      []Request
	wakeList []int32
	stack    []int32

	active   int // worms released and not done
	lastMove int // the last step in which a worm moved

	counters Counters
	steps    []StepCount
	record   bool
	rotate   bool
	stamp    []int32 // per worm, for rotationPossible
}

// New builds an engine for a valid instance (see model.Instance.Validate). Every
// worm starts idle at its source; the driver releases them.
func New(in *model.Instance, cfg Config) (*Engine, error) {
	pol, err := resolvePolicy(cfg)
	if err != nil {
		return nil, err
	}
	if err := in.Validate(); err != nil {
		return nil, err
	}
	if err := checkLimits(in); err != nil {
		return nil, err
	}
	n, ne := len(in.Messages), len(in.Net.Edges)
	e := &Engine{
		in:      in,
		path:    make([][]int, n),
		l:       make([]int32, n),
		d:       make([]int32, n),
		h:       make([]int32, n),
		state:   make([]uint8, n),
		rel:     make([]int, n),
		cross:   make([][]int, n),
		deliv:   make([]int, n),
		sleepOn: make([]int32, n),
		queued:  make([]bool, n),
		holder:  make([]int32, ne),
		waiters: make([][]int32, ne),
		rep:     make([]int32, ne),
		srcQ:    make([]srcHeap, ne),
		reqHead: make([]int32, ne),
		reqNext: make([]int32, n),
		winner:  make([]int32, ne),
		memo:    make([]mark, n),
		record:  cfg.RecordSteps,
		rotate:  cfg.Rotate,
	}
	e.nIn, e.port = inputPorts(in.Net)
	e.pol = pol
	e.arb = pol.Arbiter(ne, rand.New(rand.NewPCG(cfg.Seed, 0x656e67696e65)))
	for i := range in.Messages {
		m := &in.Messages[i]
		e.path[i] = m.Path
		e.l[i] = int32(m.L)
		e.d[i] = int32(len(m.Path))
		e.cross[i] = make([]int, 0, len(m.Path))
	}
	for f := range e.holder {
		e.rep[f] = -1
		e.srcQ[f].e = e
		e.holder[f] = -1
		e.reqHead[f] = -1
		e.winner[f] = -1
	}
	return e, nil
}

// inputPorts returns per node its number of input edges, and per edge its position
// in Network.In of its head node: the port numbers arbitration uses (a worm at its
// source comes in on port nIn[u]).
func inputPorts(net *model.Network) (nIn, port []int32) {
	nIn = make([]int32, len(net.Nodes))
	port = make([]int32, len(net.Edges))
	for u := range net.Nodes {
		ins := net.In(u)
		nIn[u] = int32(len(ins))
		for p, f := range ins {
			port[f] = int32(p)
		}
	}
	return nIn, port
}

// Now returns the clock: the time after the last step simulated.
func (e *Engine) Now() int { return e.now }

// Release lets worm i start after time t (its head may first cross in step t + 1).
// It is an error to release a worm that is not idle at its source, or for a time
// before Now.
func (e *Engine) Release(i, t int) error {
	if i < 0 || i >= len(e.h) {
		return fmt.Errorf("engine: release: no message #%d", i)
	}
	if e.state[i] != stIdle {
		return fmt.Errorf("engine: release: message %q is not waiting at its source", e.in.Messages[i].ID)
	}
	if t < e.now {
		return fmt.Errorf("engine: release: message %q at time %d, before the clock %d", e.in.Messages[i].ID, t, e.now)
	}
	if t > MaxRelease {
		return fmt.Errorf("engine: release: message %q at time %d, beyond %d", e.in.Messages[i].ID, t, MaxRelease)
	}
	e.state[i] = stPending
	e.rel[i] = t
	e.seq++
	heap.Push(&e.pending, event{t: t, seq: e.seq, id: int32(i)})
	return nil
}

// Delivered reports whether worm i's tail has reached its destination.
func (e *Engine) Delivered(i int) bool { return e.h[i] >= e.d[i]+e.l[i]-1 }

// Released reports whether worm i has been released and not removed since.
func (e *Engine) Released(i int) bool { return e.state[i] != stIdle }

// DeliveryTime returns t_d + L - 1 for a delivered worm, 0 otherwise.
func (e *Engine) DeliveryTime(i int) int { return e.deliv[i] }

// Cross returns worm i's head crossing times so far (shared; do not modify).
func (e *Engine) Cross(i int) []int { return e.cross[i] }

// Counters returns the running totals.
func (e *Engine) Counters() Counters { c := e.counters; c.Steps = e.now; return c }

// Steps returns the per-step counters (only with Config.RecordSteps).
func (e *Engine) Steps() []StepCount { return e.steps }

// Unfinished counts the worms released and not yet delivered.
func (e *Engine) Unfinished() int {
	k := 0
	for i := range e.h {
		if e.state[i] != stIdle && e.state[i] != stDone && !e.Delivered(i) {
			k++
		}
	}
	return k
}

// Remove takes worm i off the network. A delivered worm finishes (it releases its
// last edge at once). An undelivered worm loses its flits: the edges it holds are
// freed, its crossing times are discarded, and it waits idle at its source until it
// is released again. A pending worm returns to idle. Removing an idle or finished
// worm does nothing.
func (e *Engine) Remove(i int) {
	switch e.state[i] {
	case stIdle, stDone:
		return
	case stPending:
		e.state[i] = stIdle // its heap entry goes stale
		return
	case stAtSource:
		q := &e.srcQ[e.path[i][0]]
		for k, x := range q.w {
			if x == int32(i) {
				heap.Remove(q, k)
				break
			}
		}
		e.state[i] = stIdle
		e.active--
		return
	}
	e.active--
	if f := e.path[i][0]; e.rep[f] == int32(i) {
		e.rep[f] = -1
		e.promote(f)
	}
	d, l, h := e.d[i], e.l[i], e.h[i]
	for k := max(1, h-l+1); k <= min(h, d); k++ {
		f := e.path[i][k-1]
		if e.holder[f] == int32(i) {
			e.holder[f] = -1
			e.wakeWaiters(f)
		}
	}
	if h >= d+l-1 {
		e.h[i] = d + l
		e.state[i] = stDone
		return
	}
	e.counters.Removed++
	e.counters.WastedFlits += flitsUpTo(int64(h), int64(d), int64(l))
	e.cross[i] = e.cross[i][:0]
	e.h[i] = 0
	e.state[i] = stIdle
}

// flitsUpTo returns the flit crossings a worm makes in its first m moves:
// move j moves the flits f with 1 <= j - f <= d, 0 <= f < L.
func flitsUpTo(m, d, l int64) int64 {
	var s int64
	for j := int64(1); j <= m; j++ {
		s += flitsAt(j, d, l)
	}
	return s
}

// flitsAt is the number of flits crossing an edge in move j of a worm.
func flitsAt(j, d, l int64) int64 {
	lo := max(0, j-d)
	hi := min(l-1, j-1)
	if hi < lo {
		return 0
	}
	return hi - lo + 1
}

// tailOn reports whether f is worm j's tail edge, i.e. j's next move releases f.
func (e *Engine) tailOn(j int32, f int) bool {
	k := e.h[j] - e.l[j] + 1
	return k >= 1 && k <= e.d[j] && e.path[j][k-1] == f
}

func (e *Engine) enqueue(i int32) {
	if !e.queued[i] {
		e.queued[i] = true
		e.cand = append(e.cand, i)
	}
}

// wake makes sleeping worm i awake and, through its tail edge, the worms waiting
// behind it.
func (e *Engine) wake(i int32) {
	e.stack = append(e.stack[:0], i)
	for len(e.stack) > 0 {
		w := e.stack[len(e.stack)-1]
		e.stack = e.stack[:len(e.stack)-1]
		if e.state[w] != stAsleep {
			continue
		}
		e.counters.Wakeups++
		e.state[w] = stAwake
		e.enqueue(w)
		if k := e.h[w] - e.l[w] + 1; k >= 1 && k <= e.d[w] {
			f := e.path[w][k-1]
			for _, x := range e.waiters[f] {
				if e.state[x] == stAsleep && e.sleepOn[x] == int32(f) {
					e.stack = append(e.stack, x)
				}
			}
			e.waiters[f] = e.waiters[f][:0]
		}
	}
}

// inject puts a worm whose release time has come into the injection queue of its
// first edge f; the queue's best worm by the policy's key is its representative.
func (e *Engine) inject(i int32) {
	f := e.path[i][0]
	e.active++
	r := e.rep[f]
	switch {
	case r < 0:
		e.rep[f] = i
		e.state[i] = stAwake
		e.enqueue(i)
	case e.srcLess(i, r):
		// i takes r's place and state; r joins the queue.
		e.rep[f] = i
		if e.state[r] == stAsleep {
			e.sleep(i, f)
		} else {
			e.state[i] = stAwake
			e.enqueue(i)
		}
		e.state[r] = stAtSource
		heap.Push(&e.srcQ[f], r)
	default:
		e.state[i] = stAtSource
		heap.Push(&e.srcQ[f], i)
	}
}

// promote makes the best queued worm of edge f's injection queue its representative.
func (e *Engine) promote(f int) {
	if e.srcQ[f].Len() == 0 {
		return
	}
	i := heap.Pop(&e.srcQ[f]).(int32)
	e.rep[f] = i
	e.state[i] = stAwake
	e.enqueue(i)
}

// srcLess orders the worms of one injection queue as the policy would choose among
// them (they share the injection port, and have all their hops to make).
func (e *Engine) srcLess(a, b int32) bool {
	return e.pol.QueueBefore(Queued{a, e.d[a], e.rel[a]}, Queued{b, e.d[b], e.rel[b]})
}

type srcHeap struct {
	e *Engine
	w []int32
}

func (h srcHeap) Len() int           { return len(h.w) }
func (h srcHeap) Less(a, b int) bool { return h.e.srcLess(h.w[a], h.w[b]) }
func (h srcHeap) Swap(a, b int)      { h.w[a], h.w[b] = h.w[b], h.w[a] }
func (h *srcHeap) Push(x any)        { h.w = append(h.w, x.(int32)) }
func (h *srcHeap) Pop() any {
	x := h.w[len(h.w)-1]
	h.w = h.w[:len(h.w)-1]
	return x
}

// wakeWaiters wakes the worms sleeping on edge f.
func (e *Engine) wakeWaiters(f int) {
	if len(e.waiters[f]) == 0 {
		return
	}
	e.wakeList = append(e.wakeList[:0], e.waiters[f]...)
	e.waiters[f] = e.waiters[f][:0]
	for _, x := range e.wakeList {
		if e.state[x] == stAsleep && e.sleepOn[x] == int32(f) {
			e.wake(x)
		}
	}
}

func (e *Engine) sleep(i int32, f int) {
	e.state[i] = stAsleep
	e.sleepOn[i] = int32(f)
	e.waiters[f] = append(e.waiters[f], i)
}

// releaseDue wakes the worms whose release time has come.
func (e *Engine) releaseDue() {
	for e.pending.Len() > 0 && e.pending[0].t <= e.now {
		it := heap.Pop(&e.pending).(event)
		if e.state[it.id] == stPending && e.rel[it.id] == it.t {
			e.inject(it.id)
		}
	}
}

// nextRelease returns the earliest live release time.
func (e *Engine) nextRelease() (int, bool) {
	for e.pending.Len() > 0 {
		it := e.pending[0]
		if e.state[it.id] == stPending && e.rel[it.id] == it.t {
			return it.t, true
		}
		heap.Pop(&e.pending)
	}
	return 0, false
}

// mark is a worm's state within one step, kept in Engine.memo and reset to
// unmarked at the end of the step.
type mark int8

const (
	unmarked mark = iota
	// resolve's walk along a chain of holders:
	resolving // on the current walk
	moves     // the worm moves in this step
	waits     // the worm's edge is not freed in this step
	// settle's walk among the requesters that did not move:
	settledAwake  // it may move in the next step: keep it awake
	settledAsleep // it waits on a sleeping worm or a cyclic wait: it sleeps
	settling      // on the current walk
)

// step simulates step now+1 in five named phases and returns the number of worms
// that moved (including bookkeeping moves that release a last edge):
//
//  1. request: draining worms move; the other awake worms request their next edge,
//     or sleep on it when its holder cannot free it in this step;
//  2. arbitrate: one winner per requested edge (the policy's arbiter);
//  3. resolve: a winner moves iff its edge is free or freed in this step;
//  4. apply: the movers release their tail edges, then enter their next edges;
//  5. settle: requesters that did not move sleep or stay awake.
func (e *Engine) step() int {
	t := e.now + 1
	list := e.cand
	e.cand = e.spare[:0]
	for _, i := range list {
		e.queued[i] = false
	}
	e.touched = e.touched[:0]
	e.reqs = e.reqs[:0]
	e.movers = e.movers[:0]
	e.request(list)
	lost := e.arbitrate()
	e.resolveWinners()
	moving, flits := e.apply(t)
	e.settleRequesters()
	e.spare = list[:0]
	e.now = t
	if len(e.movers) > 0 {
		e.lastMove = t
	}
	e.counters.Requests += int64(len(e.reqs))
	e.counters.Examined += int64(len(list))
	e.counters.Resident += int64(e.active)
	e.counters.Lost += int64(lost)
	if moving > 0 {
		e.counters.BusySteps++
		e.counters.WormMoves += int64(moving)
		e.counters.FlitMoves += int64(flits)
	}
	if e.record && (len(e.movers) > 0 || len(e.reqs) > 0) {
		e.steps = append(e.steps, StepCount{T: t, Moving: moving, Flits: flits, Requests: len(e.reqs), Lost: lost})
	}
	return len(e.movers)
}

// request is phase 1: draining worms of list join the movers; every other awake
// worm requests its next edge f (e.reqHead[f] lists the requesters, e.touched the
// requested edges) or, when f's holder cannot free f in this step, sleeps on f.
func (e *Engine) request(list []int32) {
	for _, i := range list {
		if e.state[i] != stAwake {
			continue
		}
		if e.h[i] >= e.d[i] {
			e.movers = append(e.movers, i)
			continue
		}
		f := e.path[i][e.h[i]]
		if j := e.holder[f]; j >= 0 && !(e.state[j] == stAwake && e.tailOn(j, f)) {
			e.sleep(i, f)
			continue
		}
		if e.reqHead[f] < 0 {
			e.touched = append(e.touched, int32(f))
		}
		e.reqNext[i] = e.reqHead[f]
		e.reqHead[f] = i
		e.reqs = append(e.reqs, i)
	}
}

// arbitrate is phase 2: the arbiter picks one winner per requested edge
// (e.winner). It returns the number of requests that lost.
func (e *Engine) arbitrate() (lost int) {
	for _, f32 := range e.touched {
		f := int(f32)
		u := e.in.Net.Edges[f].From
		e.buf = e.buf[:0]
		for i := e.reqHead[f]; i >= 0; i = e.reqNext[i] {
			r := Request{Msg: i, Port: e.nIn[u], In: -1, Rem: e.d[i] - e.h[i], Rel: e.rel[i]}
			if e.h[i] > 0 {
				g := e.path[i][e.h[i]-1]
				r.In, r.Port = int32(g), e.port[g]
			}
			e.buf = append(e.buf, r)
		}
		w := e.arb.Pick(f, e.buf, e.nIn[u])
		e.winner[f] = e.buf[w].Msg
		lost += len(e.buf) - 1
	}
	return lost
}

// resolveWinners is phase 3: each winner is marked moves or waits; the movers join
// e.movers and the arbiter is told of each grant.
func (e *Engine) resolveWinners() {
	for _, f := range e.touched {
		e.resolve(e.winner[f])
	}
	for _, f := range e.touched {
		w := e.winner[f]
		if e.memo[w] == moves {
			e.movers = append(e.movers, w)
			u := e.in.Net.Edges[f].From
			port := e.nIn[u]
			if e.h[w] > 0 {
				port = e.port[e.path[w][e.h[w]-1]]
			}
			e.arb.Granted(int(f), port, e.nIn[u])
		} else {
			e.counters.Blocked++
		}
	}
}

// apply is phase 4 at time t: releases first, then entries, so that a head may
// take the edge a tail leaves in the same step; delivered worms are recorded and
// finished worms retired, and the worms waiting on freed edges are woken. It
// returns the worms that moved a flit and the flit crossings.
func (e *Engine) apply(t int) (moving, flits int) {
	e.freed = e.freed[:0]
	for _, i := range e.movers {
		if k := e.h[i] + 1 - e.l[i]; k >= 1 && k <= e.d[i] {
			f := e.path[i][k-1]
			e.holder[f] = -1
			e.freed = append(e.freed, int32(f))
		}
	}
	for _, i := range e.movers {
		if e.h[i] < e.d[i] {
			f := e.path[i][e.h[i]]
			e.holder[f] = i
			e.cross[i] = append(e.cross[i], t)
		}
		e.h[i]++
		if e.h[i] == 1 {
			f := e.path[i][0]
			e.rep[f] = -1
			e.promote(f)
		}
		if fl := flitsAt(int64(e.h[i]), int64(e.d[i]), int64(e.l[i])); fl > 0 {
			moving++
			flits += int(fl)
		}
		switch e.h[i] {
		case e.d[i] + e.l[i] - 1:
			e.deliv[i] = t
		case e.d[i] + e.l[i]:
			e.state[i] = stDone
			e.active--
			continue
		}
		e.enqueue(i)
		if k := e.h[i] - e.l[i] + 1; k >= 1 && k <= e.d[i] {
			e.wakeWaiters(e.path[i][k-1])
		}
	}
	for _, f := range e.freed {
		if e.holder[f] < 0 {
			e.wakeWaiters(int(f))
		}
	}
	return moving, flits
}

// settleRequesters is phase 5: requesters that did not move stay awake unless they
// wait (through a chain of tails) on a sleeping worm or on a cyclic wait: then they
// sleep on their edge. It then clears the step's marks and request lists.
func (e *Engine) settleRequesters() {
	for _, i := range e.reqs {
		if e.memo[i] != moves {
			e.settle(i)
		}
	}
	for _, i := range e.reqs {
		e.memo[i] = unmarked
	}
	for _, f := range e.touched {
		e.reqHead[f] = -1
		e.winner[f] = -1
	}
}

// resolve decides whether winner w moves in this step by following the chain of
// holders whose tails occupy the edges the chain's heads want, marking every worm
// of the chain moves or waits. A chain that returns to itself waits (cyclic wait,
// see doc.go), or moves with Rotate.
func (e *Engine) resolve(w int32) {
	e.stack = e.stack[:0]
	var res mark
	cur := w
	for {
		if m := e.memo[cur]; m == moves || m == waits {
			res = m
			break
		} else if m == resolving { // a closed chain of tails
			res = waits
			if e.rotate {
				res = moves
			}
			break
		}
		e.memo[cur] = resolving
		e.stack = append(e.stack, cur)
		f := e.path[cur][e.h[cur]]
		j := e.holder[f]
		if j < 0 {
			res = moves
			break
		}
		if e.h[j] >= e.d[j] { // the holder drains: it always moves
			res = moves
			break
		}
		if g := e.path[j][e.h[j]]; e.state[j] != stAwake || e.winner[g] != j {
			res = waits
			break
		}
		cur = j
	}
	for _, x := range e.stack {
		e.memo[x] = res
	}
}

// settle puts non-moving requester i to sleep when the worm it waits for is asleep
// or caught with it in a cyclic wait, and keeps it awake otherwise (it lost
// arbitration, or waits for an awake worm that may move next step). It follows the
// chain of holders through the other non-moving requesters.
func (e *Engine) settle(i int32) {
	e.stack = e.stack[:0]
	cur := i
	var asleep bool
	for {
		if m := e.memo[cur]; m == settledAwake || m == settledAsleep {
			asleep = m == settledAsleep
			break
		} else if m == settling { // back on this walk: a cyclic wait
			// With rotation the cycle may shift once arbitration lets all its
			// worms win: they stay awake.
			asleep = !e.rotate
			break
		}
		e.stack = append(e.stack, cur)
		e.memo[cur] = settling
		j := e.holder[e.path[cur][e.h[cur]]]
		switch {
		case j < 0:
			asleep = false
		case e.state[j] == stAsleep:
			asleep = true
		case e.state[j] != stAwake || e.h[j] >= e.d[j] || e.memo[j] == unmarked || e.memo[j] == moves:
			// Done, draining, moved, or awake without a request: it may move.
			asleep = false
		default: // another non-moving requester
			cur = j
			continue
		}
		break
	}
	for _, x := range e.stack {
		if asleep {
			e.memo[x] = settledAsleep
			e.sleep(x, e.path[x][e.h[x]])
		} else {
			e.memo[x] = settledAwake
			e.enqueue(x)
		}
	}
}

// Run advances the clock to time limit (limit < 0: until every released worm is
// delivered and nothing is pending). When the network stalls (a step in which no
// worm can move) the clock jumps to the next release time, or to limit; with
// limit < 0 and nothing left to release, a stall with undelivered worms is returned
// as a *Deadlock. The context is checked every 1024 steps.
func (e *Engine) Run(ctx context.Context, limit int) error {
	for n := 0; ; n++ {
		if limit >= 0 && e.now >= limit {
			return nil
		}
		if n&1023 == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		e.releaseDue()
		if len(e.cand) > 0 && (e.step() > 0 || e.rotationPossible()) {
			continue
		}
		// Nothing can move until the next release.
		next, ok := e.nextRelease()
		switch {
		case ok && (limit < 0 || next < limit):
			e.now = max(e.now, next)
		case limit >= 0:
			e.now = limit
			return nil
		default:
			if e.active > 0 {
				return e.deadlock()
			}
			return nil
		}
	}
}

// rotationPossible reports, after a step in which nothing moved, whether another
// draw of the random policy could let a cycle of awake requesters rotate (Rotate
// only: with a deterministic policy a step without moves repeats itself). It looks
// for a cycle of worms each requesting the tail edge of the next.
func (e *Engine) rotationPossible() bool {
	if _, random := e.arb.(drawer); !e.rotate || !random {
		return false
	}
	if e.stamp == nil {
		e.stamp = make([]int32, len(e.h))
	}
	walk := int32(0)
	for _, i := range e.cand {
		walk++
		cur := i
		for {
			if e.state[cur] != stAwake || e.h[cur] >= e.d[cur] {
				break
			}
			if e.stamp[cur] == walk {
				clear(e.stamp)
				return true
			}
			if e.stamp[cur] != 0 { // reached an earlier walk's worm: no new cycle
				break
			}
			e.stamp[cur] = walk
			f := e.path[cur][e.h[cur]]
			j := e.holder[f]
			if j < 0 || !e.tailOn(j, f) {
				break
			}
			cur = j
		}
	}
	clear(e.stamp)
	return false
}

// Stalled reports whether released worms remain undelivered while nothing can move.
func (e *Engine) Stalled() bool {
	return e.active > 0 && e.Unfinished() > 0 && len(e.cand) == 0
}

// Schedule returns the crossing times recorded so far as a wormhole schedule.
func (e *Engine) Schedule() *model.Schedule {
	cross := make([][]int, len(e.cross))
	for i, c := range e.cross {
		cross[i] = append([]int(nil), c...)
	}
	return model.NewSchedule(e.in, model.Wormhole, cross)
}

// event is an entry of an eventHeap: something that happens at time t, id naming a
// worm or an edge (kind tells which where a heap holds both); seq orders the
// entries of one time by insertion.
type event struct {
	t, seq int
	kind   uint8
	id     int32
}

// eventHeap orders events by time, then by insertion. The engine's pending
// releases and Store's arrivals and frees use it.
type eventHeap []event

func (h eventHeap) Len() int { return len(h) }
func (h eventHeap) Less(a, b int) bool {
	if h[a].t != h[b].t {
		return h[a].t < h[b].t
	}
	return h[a].seq < h[b].seq
}
func (h eventHeap) Swap(a, b int) { h[a], h[b] = h[b], h[a] }
func (h *eventHeap) Push(x any)   { *h = append(*h, x.(event)) }
func (h *eventHeap) Pop() any {
	old := *h
	it := old[len(old)-1]
	*h = old[:len(old)-1]
	return it
}
