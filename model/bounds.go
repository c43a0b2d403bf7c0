package model

import (
	"cmp"
	"fmt"
	"math/bits"
	"slices"
)

// Bound is a lower bound on the makespan of every legal schedule (wormhole, hence
// also bufferless), with the edge or message that attains it (-1 when not used).
type Bound struct {
	Name   string
	Value  int
	Edge   int
	Msg    int
	Detail string
}

// Names of the lower bounds of MODEL.md.
const (
	BoundDilation = "dilation"        // max_i d_i + L_i - 1
	BoundFlits    = "flit-congestion" // c_L
	BoundEdge     = "edge"            // the per-edge refinement, see EdgeBound
)

// LowerBounds returns the lower bounds of MODEL.md for the instance: dilation
// (max_i d_i + L_i - 1), flit congestion (c_L) and the per-edge refinement (EdgeBound,
// which is never below either). Cost O(sum d_i log c) at worst, usually far less
// (bestEdgeBound).
func (in *Instance) LowerBounds() []Bound {
	return pathsOf(in, false).lowerBounds(func(i int) string { return in.Messages[i].ID })
}

// LowerBounds returns the lower bounds of MODEL.md for the paths' instance
// (Instance.LowerBounds).
func (p *Paths) LowerBounds() []Bound { return p.lowerBounds(p.ID) }

// lowerBounds is LowerBounds with the ids from id (an Instance's own, so that
// Instance.LowerBounds copies none).
func (p *Paths) lowerBounds(id func(i int) string) []Bound {
	var bs []Bound
	dil := Bound{Name: BoundDilation, Edge: -1, Msg: -1}
	for i, l := range p.L {
		if v := p.D(i) + l - 1; dil.Msg < 0 || v > dil.Value {
			dil.Value, dil.Msg = v, i
		}
	}
	if dil.Msg >= 0 {
		dil.Detail = fmt.Sprintf("message %q: d + L - 1 = %d + %d - 1", id(dil.Msg), p.D(dil.Msg), p.L[dil.Msg])
	}
	bs = append(bs, dil)
	ms := p.Measure()
	fl := Bound{Name: BoundFlits, Value: ms.CL, Edge: ms.CLEdge, Msg: -1}
	net := p.Net
	if ms.CLEdge >= 0 {
		fl.Detail = fmt.Sprintf("edge %d (%s) carries %d flits of %s", ms.CLEdge, net.EdgeName(ms.CLEdge), ms.CL, messages(ms.Load[ms.CLEdge]))
	}
	bs = append(bs, fl)
	eb := Bound{Name: BoundEdge, Msg: -1}
	eb.Edge, eb.Value = p.bestEdgeBound(ms, 1<<16)
	if eb.Edge >= 0 {
		eb.Detail = fmt.Sprintf("edge %d (%s): %s on it (earliest arrivals, lengths and remaining hops)", eb.Edge, net.EdgeName(eb.Edge), messagesQueue(ms.Load[eb.Edge]))
	}
	bs = append(bs, eb)
	return bs
}

// LowerBound returns the largest of LowerBounds (the first in their order on a tie).
func (in *Instance) LowerBound() Bound { return largest(in.LowerBounds()) }

// LowerBound returns the largest of LowerBounds (the first in their order on a tie).
func (p *Paths) LowerBound() Bound { return largest(p.LowerBounds()) }

// largest returns the largest bound (the first on a tie).
func largest(bs []Bound) Bound {
	best := bs[0]
	for _, b := range bs[1:] {
		if b.Value > best.Value {
			best = b
		}
	}
	return best
}

// bestEdgeBound returns the edge with the largest EdgeBound (the smallest index on
// a tie) and that bound; -1 and 0 when no message uses an edge.
//
// It evaluates the edges by decreasing upper bound and stops at the first upper
// bound below the best bound found, so that on most instances only the few most
// loaded edges are solved. The upper bound of an edge: serving its messages in any
// order without idling from the latest release r_max ends every service by
// r_max + sum L - 1, so Jackson's optimum is at most r_max + sum L - 1 + q_max.
// The messages of the edges solved are gathered in passes over the paths, each pass
// for a batch of edges carrying at most an eighth of the hops or minBatch hops,
// whichever is more (and at least one edge): memory O(edges + sum d_i / 8 +
// minBatch) instead of O(sum d_i) for Users.
func (ps *Paths) bestEdgeBound(ms Measures, minBatch int) (edge, value int) {
	ne := len(ps.Net.Edges)
	ps.Measure() // the reaches, counted with the paths' measures
	rq := ps.reach
	total := len(ps.Hops)
	ub := func(e int) int { return int(rq[e].r) + ms.FlitLoad[e] - 1 + int(rq[e].q) }
	var cand []int
	for e := range ne {
		if ms.Load[e] > 0 {
			cand = append(cand, e)
		}
	}
	slices.SortFunc(cand, func(a, b int) int {
		if c := cmp.Compare(ub(b), ub(a)); c != 0 {
			return c
		}
		return cmp.Compare(a, b)
	})
	budget := max(total/8, minBatch)
	slot := make([]int32, ne) // batch position + 1 of an edge being solved, else 0
	var (
		jb    jackson
		jobs  []jacksonJob
		batch []int
		fill  []int
	)
	edge = -1
	open := func(next int) bool { return edge < 0 || ub(cand[next]) >= value }
	for next := 0; next < len(cand) && open(next); {
		batch, fill = batch[:0], fill[:0]
		uses := 0
		for next < len(cand) && open(next) && (len(batch) == 0 || uses+ms.Load[cand[next]] <= budget) {
			e := cand[next]
			batch = append(batch, e)
			fill = append(fill, uses)
			slot[e] = int32(len(batch))
			uses += ms.Load[e]
			next++
		}
		jobs = slices.Grow(jobs[:0], uses)[:uses]
		for i, l := range ps.L {
			p := ps.Path(i)
			for k, e := range p {
				if j := slot[e]; j > 0 {
					jobs[fill[j-1]] = jacksonJob{r: k + 1, rem: l, q: len(p) - k - 1}
					fill[j-1]++
				}
			}
		}
		lo := 0
		for j, e := range batch {
			slot[e] = 0
			v := jb.solve(jobs[lo:fill[j]])
			lo = fill[j]
			if edge < 0 || v > value || (v == value && e < edge) {
				edge, value = e, v
			}
		}
	}
	return edge, value
}

// EdgeBound is the per-edge lower bound of MODEL.md for one edge e used by the
// messages us, made exact as a one-machine scheduling relaxation.
//
// Proof. Message i uses e as its k-th edge (k = Pos+1), so its head cannot cross e
// before step k (release r_i = k). It holds e for at least L_i consecutive times, and
// no two messages hold e at once, so e is a machine that serves each message for L_i
// unit slots without overlap. Its tail crosses e at the end of that service, at some
// time C_i, and still has q_i = d_i - k hops to make, one per step, so it is
// delivered no earlier than C_i + q_i. Hence the makespan is at least the optimum of
// the one-machine problem "minimise max_i (C_i + q_i) with release dates r_i and
// processing times L_i", and at least the optimum of its preemptive relaxation, which
// Jackson's rule (at every slot serve the released message with the largest q)
// computes exactly. With one message it gives d + L - 1; with all releases equal to
// 1 it gives at least c_L: it dominates both simpler bounds.
func (in *Instance) EdgeBound(us []Use) int {
	var buf jackson
	return buf.bound(in, us)
}

// jackson holds the buffers of EdgeBound so that LowerBounds can reuse them across
// edges.
type jackson struct {
	jobs     []jacksonJob
	heap     jacksonHeap
	head     []int32 // runBuckets' stacks and their bits
	below    []int32
	nonEmpty []uint64
	count    []int        // sortByRelease's counts
	sorted   []jacksonJob // and its output
}

func (jb *jackson) bound(in *Instance, us []Use) int {
	jobs := jb.jobs[:0]
	for _, u := range us {
		m := &in.Messages[u.Msg]
		jobs = append(jobs, jacksonJob{r: u.Pos + 1, rem: m.L, q: len(m.Path) - u.Pos - 1})
	}
	jb.jobs = jobs
	return jb.solve(jobs)
}

// Job is a task of the one-machine relaxation behind EdgeBound: it cannot start
// before slot R, needs P unit slots, and is followed by Q more steps.
type Job struct{ R, P, Q int }

// JacksonBound returns the optimum of the preemptive one-machine problem "minimise
// max_j (C_j + Q_j)", C_j the last slot of job j, by Jackson's rule (at every slot
// serve the released job with the largest Q). It is a lower bound for the same
// problem without preemption; EdgeBound applies it to the users of one edge. Cost
// O(n log n); jobs is not modified; 0 for no jobs.
func JacksonBound(jobs []Job) int {
	var jb jackson
	for _, j := range jobs {
		jb.jobs = append(jb.jobs, jacksonJob{r: j.R, rem: j.P, q: j.Q})
	}
	return jb.solve(jb.jobs)
}

// solve runs Jackson's rule on jobs, reordering them. Its value does not depend on
// their order, nor on how ties of q are broken: the rule's preemptive schedule is
// optimal either way.
func (jb *jackson) solve(jobs []jacksonJob) int {
	jb.sortByRelease(jobs)
	return jb.run(jobs)
}

// run is solve on jobs sorted by release: with buckets by q (runBuckets) when
// the tails span few values, as the remaining hops of the messages on one edge
// do, else with a heap.
func (jb *jackson) run(jobs []jacksonJob) int {
	if len(jobs) == 0 {
		return 0
	}
	lo, hi := jobs[0].q, jobs[0].q
	for _, j := range jobs[1:] {
		lo, hi = min(lo, j.q), max(hi, j.q)
	}
	// As in sortByRelease, hi-lo as a uint is the span even past an int.
	if uint(hi-lo) < maxBuckets {
		return jb.runBuckets(jobs, lo, hi-lo+1)
	}
	return jb.runHeap(jobs)
}

// runBuckets is run with a bucket per value of q (span values from lo on, at
// most maxBuckets): the released jobs of tail q are a stack, and the rule serves
// the top of the highest non-empty stack, found from a bit per bucket. A push
// and a pop cost O(1) and a look for the next bucket at most span/64 words,
// where the heap cost O(log n) a push and a pop (most of the lower bounds at
// 10^6 paths). Which job of the largest q is served does not change the value
// (solve). It consumes the jobs' remaining service.
func (jb *jackson) runBuckets(jobs []jacksonJob, lo, span int) int {
	head := slices.Grow(jb.head[:0], span)[:span] // 1 + index of the top job of each bucket, 0 when empty
	clear(head)
	nonEmpty := slices.Grow(jb.nonEmpty[:0], (span+63)/64)[:(span+63)/64]
	clear(nonEmpty)
	below := slices.Grow(jb.below[:0], len(jobs))[:len(jobs)] // 1 + index of the job under each
	top := -1                                                 // highest non-empty bucket
	best, now := 0, 0
	for next := 0; next < len(jobs) || top >= 0; {
		if top < 0 && now < jobs[next].r {
			now = jobs[next].r
		}
		for ; next < len(jobs) && jobs[next].r <= now; next++ {
			b := jobs[next].q - lo
			below[next], head[b] = head[b], int32(next+1)
			nonEmpty[b/64] |= 1 << uint(b%64)
			top = max(top, b)
		}
		j := int(head[top] - 1)
		run := jobs[j].rem
		if next < len(jobs) && now+run > jobs[next].r {
			run = jobs[next].r - now
		}
		now += run
		jobs[j].rem -= run
		if jobs[j].rem == 0 {
			best = max(best, now-1+jobs[j].q)
			if head[top] = below[j]; head[top] == 0 {
				nonEmpty[top/64] &^= 1 << uint(top%64)
				top = highestBelow(nonEmpty, top)
			}
		}
	}
	jb.head, jb.below, jb.nonEmpty = head, below, nonEmpty
	return best
}

// maxBuckets is the largest span of tails runBuckets takes.
const maxBuckets = 1 << 12

// highestBelow returns the highest set bit of words at or below bit b, -1 if none.
func highestBelow(words []uint64, b int) int {
	for w := b / 64; w >= 0; w-- {
		m := words[w]
		if w == b/64 {
			m &= ^uint64(0) >> uint(63-b%64)
		}
		if m != 0 {
			return w*64 + 63 - bits.LeadingZeros64(m)
		}
	}
	return -1
}

// runHeap is run with a max-heap on q.
func (jb *jackson) runHeap(jobs []jacksonJob) int {
	h := jb.heap[:0]
	best := 0
	now := 0 // the next free slot
	for next := 0; next < len(jobs) || len(h) > 0; {
		if len(h) == 0 && now < jobs[next].r {
			now = jobs[next].r
		}
		for next < len(jobs) && jobs[next].r <= now {
			h.push(jobs[next])
			next++
		}
		top := &h[0]
		run := top.rem
		if next < len(jobs) && now+run > jobs[next].r {
			run = jobs[next].r - now
		}
		now += run
		top.rem -= run
		if top.rem == 0 {
			if v := now - 1 + top.q; v > best {
				best = v
			}
			h.pop()
		}
	}
	jb.heap = h
	return best
}

// sortByRelease sorts jobs by release. Releases are positions on paths, small
// against the number of jobs on a loaded edge: then a counting sort, else a
// comparison sort (the order among equal releases does not matter, see solve).
func (jb *jackson) sortByRelease(jobs []jacksonJob) {
	if len(jobs) == 0 {
		return
	}
	lo, hi := jobs[0].r, jobs[0].r
	for _, j := range jobs[1:] {
		lo, hi = min(lo, j.r), max(hi, j.r)
	}
	// hi-lo may overflow an int (JacksonBound takes any releases); as a uint it
	// is the span exactly.
	if len(jobs) < 64 || uint(hi-lo) > uint(len(jobs)) {
		slices.SortFunc(jobs, func(a, b jacksonJob) int { return cmp.Compare(a.r, b.r) })
		return
	}
	count := slices.Grow(jb.count[:0], hi-lo+2)[:hi-lo+2]
	clear(count)
	for _, j := range jobs {
		count[j.r-lo+1]++
	}
	for r := 1; r < len(count); r++ {
		count[r] += count[r-1]
	}
	out := slices.Grow(jb.sorted[:0], len(jobs))[:len(jobs)]
	for _, j := range jobs {
		out[count[j.r-lo]] = j
		count[j.r-lo]++
	}
	copy(jobs, out)
	jb.count, jb.sorted = count, out
}

// jacksonJob is one message on the edge: release r, remaining service rem, tail q.
type jacksonJob struct{ r, rem, q int }

// jacksonHeap is a max-heap on q (a typed heap: container/heap boxed every push).
type jacksonHeap []jacksonJob

func (h *jacksonHeap) push(j jacksonJob) {
	*h = append(*h, j)
	a := *h
	for i := len(a) - 1; i > 0; {
		p := (i - 1) / 2
		if a[p].q >= a[i].q {
			break
		}
		a[p], a[i] = a[i], a[p]
		i = p
	}
}

func (h *jacksonHeap) pop() {
	a := *h
	n := len(a) - 1
	a[0] = a[n]
	a = a[:n]
	for i := 0; ; {
		c := 2*i + 1
		if c >= n {
			break
		}
		if c+1 < n && a[c+1].q > a[c].q {
			c++
		}
		if a[i].q >= a[c].q {
			break
		}
		a[i], a[c] = a[c], a[i]
		i = c
	}
	*h = a
}

// messages is "1 message" or "n messages".
func messages(n int) string {
	if n == 1 {
		return "1 message"
	}
	return fmt.Sprintf("%d messages", n)
}

// messagesQueue is "1 message queues" or "n messages queue".
func messagesQueue(n int) string {
	if n == 1 {
		return "1 message queues"
	}
	return fmt.Sprintf("%d messages queue", n)
}
