package offline

// The generic greedy colorer of Ranade, Schleimer and Wilkerson, "Nearly tight
// bounds for wormhole routing" (seed 002), section 4.2, with the contiguous
// multiflit colours of section 4.5: take the paths in a total order and give each
// the smallest start (colour) that conflicts with no path already coloured.

import (
	"context"
	"fmt"
	"math"

	"github.com/wormlab/wormlab/model"
)

// Colorer holds a partial bufferless schedule: per edge, the steps during which the
// placed messages hold it. Placing a message finds its earliest conflict-free start;
// removing one frees its steps. The zero value is not usable; call NewColorer.
type Colorer struct {
	ps *model.Paths
	// lines holds the edges' timelines: one an edge, indexed by edge, without
	// reads; with reads, one for each edge read that has no bitline
	// (edgeReads.slot).
	lines  []timeline
	starts []int
	curs   []cursor // one per searched edge during a placement
	// reads, when set (Plan.Colour), holds for each edge the last rank in the
	// colouring order (of the part being coloured) at which a message searches
	// it, and rank the rank of the message being placed: a span is recorded only
	// on the edges a later message reads (39% of the spans of 10^6 tree paths are
	// never read). It also says where each edge read keeps its busy steps: a
	// bitline or a timeline.
	reads []edgeReads
	rank  int32
	bits  []bitline // the bitlines of the edges that have one (edgeReads.slot)
	// touched lists the edges read by the part being coloured (planPart).
	touched []int32
	// The checked edges' bitlines and offsets during a placement (placeBits).
	lineBuf []*bitline
	offBuf  []int32
}

// edgeReads is what a plan's colouring knows of an edge before it starts: the
// last rank that reads it (-1 for none), and where its busy steps are kept:
// slot 1 + i for Colorer.bits[i], -1 - i for Colorer.lines[i] (0 for an edge
// nobody reads, which keeps none). Side by side, so that recording a span
// looks up one entry.
type edgeReads struct{ last, slot int32 }

// NewColorer returns a colorer for in with no message placed. It returns an error
// when the instance is so large that its steps might not fit in 32 bits.
func NewColorer(in *model.Instance) (*Colorer, error) { return newColorer(model.PathsOf(in)) }

// newColorer is NewColorer on the compact form of the instance.
func newColorer(ps *model.Paths) (*Colorer, error) {
	if err := checkSteps(ps); err != nil {
		return nil, err
	}
	c := &Colorer{ps: ps, lines: make([]timeline, len(ps.Net.Edges)), starts: make([]int, ps.Len())}
	for i := range c.starts {
		c.starts[i] = -1
	}
	return c, nil
}

// checkSteps reports an error when the instance is so large that a greedy
// colouring's steps might not fit in 32 bits: whatever the order, no greedy
// start exceeds (2 LMax - 1) d (c - 1) (doc.go), and the delivery time adds
// d + LMax - 1; that must stay below 2^30.
func checkSteps(ps *model.Paths) error {
	ms := ps.Measure()
	if worst := float64(2*ms.LMax-1)*float64(ms.D)*float64(max(ms.C-1, 0)) + float64(ms.D+ms.LMax); worst > math.MaxInt32/2 {
		return fmt.Errorf("offline: instance too large: steps up to %.0f do not fit in 32 bits", worst)
	}
	return nil
}

// Place gives message i the smallest start s >= from at which it conflicts with no
// placed message, records it and returns it. Two messages conflict when they hold
// a common edge in a common step (MODEL.md, bufferless model): message i holds its
// k-th edge during steps s+k .. s+k+L_i-1. It panics if i is already placed (a
// programmer error).
func (c *Colorer) Place(i, from int) int { return c.PlaceChecking(i, from, nil) }

// PlaceChecking is Place looking only at the path positions (0-based) listed in
// check; nil means every position. The spans are recorded on every edge.
//
// Lemma 6's proof (seed 002, section 4.2) is what makes this sound: when the
// messages are placed in a k-entrant order of a simple problem, every placed
// message that shares an edge with message i also runs over one of i's entrance
// edges, at the same offset (two paths of a tree or of one mesh class share one
// contiguous piece), so a conflict anywhere shows on an entrance edge. Checking the
// entrance edges only is then exact, and costs k instead of d searches per try.
//
// The search keeps a candidate s and walks the checked edges round robin, starting
// at the busiest; an edge that is busy at the candidate's offset pushes s to its
// next free block (timeline.firstFree), and the walk stops once every checked edge
// has accepted the same s.
func (c *Colorer) PlaceChecking(i, from int, check []int) int {
	if check == nil {
		return c.place(i, from, nil)
	}
	pos := make([]int32, len(check))
	for j, k := range check {
		pos[j] = int32(k)
	}
	return c.place(i, from, pos)
}

// place is PlaceChecking with the positions as int32 (Plan's entrance sets).
func (c *Colorer) place(i, from int, check []int32) int {
	if c.starts[i] >= 0 {
		panic(fmt.Sprintf("offline: message %d placed twice", i))
	}
	return c.placePath(i, c.ps.Path(i), int32(c.ps.L[i]), from, check)
}

// placePath is place given message i's path and length (a copy of them, see
// Plan.colour), for a message not yet placed.
func (c *Colorer) placePath(i int, path []int32, l int32, from int, check []int32) int {
	return c.record(i, path, l, c.search(path, l, from, check))
}

// search returns the start placePath gives a message of path and length l.
func (c *Colorer) search(path []int32, l int32, from int, check []int32) int32 {
	n := len(check)
	if check == nil {
		n = len(path)
	}
	pos := func(j int) int {
		if check == nil {
			return j
		}
		return int(check[j])
	}
	if s, ok := c.placeBits(path, l, from, n, pos); ok {
		return s
	}
	s := int32(from)
	// Begin at the edge holding most spans: it is the likeliest to push the start,
	// and every push makes the other edges check again.
	j0, most := 0, -1
	for j := range n {
		if size := c.busy(path[pos(j)]); size > most {
			j0, most = j, size
		}
	}
	c.curs = c.curs[:0]
	for range n {
		c.curs = append(c.curs, cursor{})
	}
	for j, agree := j0, 0; agree < n; {
		k := int32(pos(j))
		at := s + k + 1
		var x int32
		if b := c.bitsOf(path[k]); b != nil {
			x = b.firstFree(at, l)
		} else {
			x = c.lineOf(path[k]).firstFreeFrom(&c.curs[j], at, l)
		}
		if x > at {
			s = x - k - 1
			agree = 1
		} else {
			agree++
		}
		if j++; j == n {
			j = 0
		}
	}
	return s
}

// placeBits finds the start of placePath by commonFree when every checked edge
// (positions pos(0) .. pos(n-1) of path) keeps a bitline and l is at most 64;
// ok is false, and the caller searches edge by edge, otherwise.
func (c *Colorer) placeBits(path []int32, l int32, from, n int, pos func(int) int) (s int32, ok bool) {
	if c.reads == nil || l > 64 || n == 0 {
		return 0, false
	}
	c.lineBuf, c.offBuf = c.lineBuf[:0], c.offBuf[:0]
	for j := range n {
		k := pos(j)
		b := c.bitsOf(path[k])
		if b == nil {
			return 0, false
		}
		c.lineBuf = append(c.lineBuf, b)
		c.offBuf = append(c.offBuf, int32(k)+1)
	}
	return commonFree(c.lineBuf, c.offBuf, int32(from), l), true
}

// record records message i at start s: its spans on the edges of path that a
// later message reads (all of them without a plan), and its start.
func (c *Colorer) record(i int, path []int32, l, s int32) int {
	for k, e := range path {
		lo := s + int32(k) + 1
		if c.reads != nil {
			r := c.reads[e]
			if r.last <= c.rank {
				continue
			}
			if r.slot > 0 {
				c.bits[r.slot-1].add(lo, lo+l-1)
				continue
			}
			c.lines[-1-r.slot].add(lo, lo+l-1)
			continue
		}
		c.lines[e].add(lo, lo+l-1)
	}
	c.starts[i] = int(s)
	return int(s)
}

// recordAt records message i at start s on the edges at the positions check
// of path that a later message reads, and its start (Plan.colourStaged: the
// other positions are recorded by recordOff).
func (c *Colorer) recordAt(i int, path []int32, check []int32, l, s int32) {
	for _, k := range check {
		r := c.reads[path[k]]
		if r.last <= c.rank {
			continue
		}
		lo := s + k + 1
		if r.slot > 0 {
			c.bits[r.slot-1].add(lo, lo+l-1)
			continue
		}
		c.lines[-1-r.slot].add(lo, lo+l-1)
	}
	c.starts[i] = int(s)
}

// recordOff records a message of rank rank at start s on the edges of path
// off the positions check (sorted) that a later message reads.
func (c *Colorer) recordOff(path []int32, check []int32, l, s, rank int32) {
	reads := c.reads
	from := int32(0)
	for j := 0; j <= len(check); j++ {
		to := int32(len(path))
		if j < len(check) {
			to = check[j]
		}
		at := s + from + 1
		for k, e := range path[from:to] {
			r := reads[e]
			if r.last <= rank {
				continue
			}
			lo := at + int32(k)
			if r.slot > 0 {
				c.bits[r.slot-1].add(lo, lo+l-1)
				continue
			}
			c.lines[-1-r.slot].add(lo, lo+l-1)
		}
		from = to + 1
	}
}

// busy returns the number of busy steps on edge e.
func (c *Colorer) busy(e int32) int {
	if b := c.bitsOf(e); b != nil {
		return b.busy
	}
	return c.lineOf(e).busy
}

// bitsOf returns edge e's bitline, nil when it has a timeline.
func (c *Colorer) bitsOf(e int32) *bitline {
	if c.reads == nil || c.reads[e].slot <= 0 {
		return nil
	}
	return &c.bits[c.reads[e].slot-1]
}

// lineOf returns edge e's timeline, nil when it has a bitline or, under a
// plan, is read by no message.
func (c *Colorer) lineOf(e int32) *timeline {
	if c.reads == nil {
		return &c.lines[e]
	}
	if r := c.reads[e]; r.slot < 0 {
		return &c.lines[-1-r.slot]
	}
	return nil
}

// Remove takes message i out of the schedule (nothing happens if it is not placed).
func (c *Colorer) Remove(i int) {
	s := c.starts[i]
	if s < 0 {
		return
	}
	l := int32(c.ps.L[i])
	for k, e := range c.ps.Path(i) {
		lo := int32(s + k + 1)
		if b := c.bitsOf(e); b != nil {
			b.remove(lo, lo+l-1)
		} else if tl := c.lineOf(e); tl != nil {
			tl.remove(lo, lo+l-1)
		}
	}
	c.starts[i] = -1
}

// Start returns message i's start, or -1 if it is not placed.
func (c *Colorer) Start(i int) int { return c.starts[i] }

// Starts returns a copy of all starts (-1 for messages not placed).
func (c *Colorer) Starts() []int { return append([]int(nil), c.starts...) }

// Greedy colours the messages of in in the given order (a permutation of the
// message indices), each with the smallest start that conflicts with no message
// before it (section 4.2; contiguous blocks of L_i steps, section 4.5). It returns
// the starts indexed like in.Messages.
func Greedy(in *model.Instance, order []int) ([]int, error) {
	return greedy(model.PathsOf(in), order)
}

// GreedyContext is Greedy stopped by ctx: it looks at ctx each time the messages
// placed since its last look have greedyLook hops in all (about a millisecond of
// placing), and once ctx is done returns ctx's error and no starts. So a caller
// that has a schedule already (optimal's upper bound, which tries several orders)
// stops within a look, where Greedy places every message of the order first.
func GreedyContext(ctx context.Context, in *model.Instance, order []int) ([]int, error) {
	return greedyStop(model.PathsOf(in), order, ctx.Err)
}

// greedyLook is the number of hops placed between two looks of GreedyContext
// at its context: 4096 hops of 4-flit worms on a 50x50 mesh take about a
// millisecond.
const greedyLook = 1 << 12

// greedy is Greedy on the compact form of the instance.
func greedy(ps *model.Paths, order []int) ([]int, error) {
	if err := checkOrder(ps.Len(), order); err != nil {
		return nil, err
	}
	c, err := newColorer(ps)
	if err != nil {
		return nil, err
	}
	for _, i := range order {
		c.Place(i, 0)
	}
	return c.starts, nil
}

// greedyStop is greedy asking stop every greedyLook hops placed; once stop
// has an error it returns it and no starts. greedy keeps a loop of its own,
// without the count of hops.
func greedyStop(ps *model.Paths, order []int, stop func() error) ([]int, error) {
	if err := checkOrder(ps.Len(), order); err != nil {
		return nil, err
	}
	c, err := newColorer(ps)
	if err != nil {
		return nil, err
	}
	hops := 0
	for _, i := range order {
		c.Place(i, 0)
		if hops += ps.D(i); hops >= greedyLook {
			hops = 0
			if err := stop(); err != nil {
				return nil, err
			}
		}
	}
	return c.starts, nil
}

// checkOrder reports an error unless order is a permutation of the message indices.
func checkOrder(n int, order []int) error {
	if len(order) != n {
		return fmt.Errorf("offline: order has %d entries for %d messages", len(order), n)
	}
	seen := make([]bool, len(order))
	for _, i := range order {
		if i < 0 || i >= len(order) || seen[i] {
			return fmt.Errorf("offline: order is not a permutation of the messages (entry %d)", i)
		}
		seen[i] = true
	}
	return nil
}
