package offline

import (
	"cmp"
	"fmt"
	"runtime"
	"slices"

	"github.com/wormlab/wormlab/model"
)

// Plan is an order for the greedy colorer with the entrance sets that prove its
// bound (seed 002, Definition 3 and Lemma 6).
//
// The paths are split into parts. Each part is a total order (smallest first); the
// colorer colours the parts one after another, starting every message of a part
// after the whole previous part has been delivered, so paths of different parts
// never constrain each other. Trees and the generic order use one part; the mesh
// order uses one part per class of section 4.4.
type Plan struct {
	// Order names the construction: "tree", "mesh" or "any".
	Order string
	// Parts lists message indices, each part in colouring order.
	Parts [][]int
	// K is the entrance number the construction claims: 2 for trees, the number of
	// dimensions for meshes, the dilation d for the generic order.
	K int
	// Names of the parts (mesh classes such as "+1-0"; empty otherwise).
	Names []string
	// Roots lists the chosen tree roots (node names), one per component with paths.
	Roots []string

	// The entrance sets the construction gives the messages, as positions
	// (0-based) on their paths: message i's are pos[posOff[i]:posOff[i+1]], in
	// path order; with every set, each path's every position. Flat, so that they
	// take 4 bytes an edge and the collector has no pointer to follow in them.
	pos    []int32
	posOff []int32
	every  bool
	ps     *model.Paths
	// stages, when set (the tree order), cut the plan's one part into stages:
	// part[stages[t]:stages[t+1]] (the last to the end). A message's spans off
	// its entrance positions are read only by messages of later stages, so
	// colourStaged records them on another goroutine while the stage goes on.
	stages []int
}

// newPlan returns a plan for ps with no entrance sets yet (addEntrance gives them,
// message by message in index order).
func newPlan(ps *model.Paths, order string, k int) *Plan {
	return &Plan{Order: order, K: k, ps: ps, posOff: append(make([]int32, 0, ps.Len()+1), 0)}
}

// addEntrance appends the next message's entrance set, positions on its path.
func (p *Plan) addEntrance(pos ...int32) {
	p.pos = append(p.pos, pos...)
	p.posOff = append(p.posOff, int32(len(p.pos)))
}

// positions returns message i's entrance positions; nil means every position.
func (p *Plan) positions(i int) []int32 {
	if p.every {
		return nil
	}
	return p.pos[p.posOff[i]:p.posOff[i+1]]
}

// Entrance returns the entrance edges the construction gives message i, in path
// order.
func (p *Plan) Entrance(i int) []int {
	path := p.ps.Path(i)
	pos := p.positions(i)
	if pos == nil {
		return ints(path)
	}
	out := make([]int, len(pos))
	for j, k := range pos {
		out[j] = int(path[k])
	}
	return out
}

// Entrances returns every message's entrance set (Entrance), indexed like the
// messages.
func (p *Plan) Entrances() [][]int {
	out := make([][]int, p.ps.Len())
	for i := range out {
		out[i] = p.Entrance(i)
	}
	return out
}

// PartBound is the proven bound of Lemma 6 and section 4.5 for one part: with a
// K-entrant order and messages of at most L flits, every start is at most
// (2L - 1) K (c - 1), so every message is delivered by (2L - 1) K (c - 1) + d + L - 1,
// where c, d and L are the congestion, dilation and largest length of the part.
// For L = 1 this is the paper's k(c - 1) + 1 colours, shifted to 0-based starts.
func PartBound(k, c, d, l int) int {
	if c == 0 {
		return 0
	}
	return StartBound(k, c, l) + d + l - 1
}

// StartBound is the bound on every start of Lemma 6 with section 4.5:
// (2L - 1) K (c - 1).
func StartBound(k, c, l int) int { return (2*l - 1) * k * max(c-1, 0) }

// Bound returns the plan's proven makespan bound: the sum over its parts of
// PartBound, since each part starts when the previous one is delivered.
func (p *Plan) Bound(in *model.Instance) int { return p.bound(model.PathsOf(in)) }

func (p *Plan) bound(ps *model.Paths) int { return sum(p.partBounds(ps)) }

// partBounds returns each part's PartBound: the last step a message of the
// part holds an edge in, counted from the part's start.
func (p *Plan) partBounds(ps *model.Paths) []int { return p.scan(ps, false).horizon }

// partsScan is what a plan's colouring learns of its parts before it starts:
// each part's horizon, its PartBound (the last step a message of the part
// holds an edge in, counted from the part's start), and for a plan of several
// parts, where they fit in one table, the last rank within each part at which
// a message reads each edge: last[j*edges + e] for part j and edge e, -1 when
// no message of the part reads e (nil: planPart finds them part by part).
type partsScan struct {
	horizon []int
	last    []int32
}

// scan returns the plan's partsScan, with the table of last readers when
// reads is set and the plan has several parts.
func (p *Plan) scan(ps *model.Paths, reads bool) partsScan {
	if len(p.Parts) == 1 && len(p.Parts[0]) == ps.Len() { // every message: the instance's measures
		ms := ps.Measure()
		return partsScan{horizon: []int{PartBound(p.K, ms.C, ms.D, ms.LMax)}}
	}
	var sc partsScan
	stats, last := p.partStats(ps, reads && len(p.Parts) > 1)
	sc.last = last
	sc.horizon = make([]int, len(p.Parts))
	for j, st := range stats {
		sc.horizon[j] = PartBound(p.K, st.c, st.d, st.l)
	}
	return sc
}

// sum returns the sum of xs.
func sum(xs []int) int {
	t := 0
	for _, x := range xs {
		t += x
	}
	return t
}

// partStat is the congestion, dilation and largest length of one part's messages.
type partStat struct{ c, d, l int }

// partStats returns every part's partStat. The messages are read in index order,
// one pass over the hops in the order they are stored, with a load per part and
// edge (4 bytes each); the parts' members, taken part by part, would visit the
// paths in an order with no locality (the mesh order's parts are sorted by initial
// point). When parts times edges is large against the hops, each part is counted
// on its own with one load per edge instead. With reads, the one pass also
// finds the parts' last readers (partsScan.last; nil when the parts are
// counted one by one).
func (p *Plan) partStats(ps *model.Paths, reads bool) ([]partStat, []int32) {
	if !p.joint(ps) {
		return p.partStatsApart(ps), nil
	}
	return p.partStatsJoint(ps, reads)
}

// joint reports whether the parts' tables of a value per part and edge are
// small against the hops (partStats).
func (p *Plan) joint(ps *model.Paths) bool {
	return len(p.Parts)*len(ps.Net.Edges) <= 4*len(ps.Hops)+1<<16
}

// partStatsJoint is partStats in one pass in message order; with reads, the
// same pass also finds each part's last readers (partsScan.last), the ranks
// within the parts of the messages reading each edge.
func (p *Plan) partStatsJoint(ps *model.Paths, reads bool) ([]partStat, []int32) {
	ne := len(ps.Net.Edges)
	stats := make([]partStat, len(p.Parts))
	partOf := make([]int32, ps.Len()) // -1: in no part
	for i := range partOf {
		partOf[i] = -1
	}
	var rank, last []int32 // with reads: each message's rank within its part
	if reads {
		rank = make([]int32, ps.Len())
		last = make([]int32, len(p.Parts)*ne)
		for k := range last {
			last[k] = -1
		}
	}
	for pi, part := range p.Parts {
		for r, i := range part {
			partOf[i] = int32(pi)
			if reads {
				rank[i] = int32(r)
			}
		}
	}
	load := make([]int32, len(p.Parts)*ne)
	for i, pi := range partOf {
		if pi < 0 {
			continue
		}
		stats[pi].add(ps, i, load[int(pi)*ne:(int(pi)+1)*ne])
		if reads {
			path, row := ps.Path(i), last[int(pi)*ne:(int(pi)+1)*ne]
			if pos := p.positions(i); pos != nil {
				for _, k := range pos {
					row[path[k]] = max(row[path[k]], rank[i])
				}
			} else {
				for _, e := range path {
					row[e] = max(row[e], rank[i])
				}
			}
		}
	}
	return stats, last
}

// partStatsApart is partStats part by part, with one load per edge.
func (p *Plan) partStatsApart(ps *model.Paths) []partStat {
	stats := make([]partStat, len(p.Parts))
	load := make([]int32, len(ps.Net.Edges))
	for pi, part := range p.Parts {
		for _, i := range part {
			stats[pi].add(ps, i, load)
		}
		for _, i := range part {
			for _, e := range ps.Path(i) {
				load[e] = 0
			}
		}
	}
	return stats
}

// add counts message i into the part's statistics, load being the part's loads.
func (st *partStat) add(ps *model.Paths, i int, load []int32) {
	for _, e := range ps.Path(i) {
		load[e]++
		st.c = max(st.c, int(load[e]))
	}
	st.d = max(st.d, ps.D(i))
	st.l = max(st.l, ps.L[i])
}

// Colour runs the greedy colorer over the plan: part by part, each message at its
// smallest conflict-free start, no earlier than the delivery of the previous part.
// Only the entrance edges are searched (Colorer.PlaceChecking); that is exact when
// the plan's entrance sets are right, which the tests check with CheckEntrances
// and the verifier.
// It returns the starts indexed like in.Messages and the start of each part.
func (p *Plan) Colour(in *model.Instance) (starts, offsets []int, err error) {
	return p.colour(model.PathsOf(in))
}

func (p *Plan) colour(ps *model.Paths) (starts, offsets []int, err error) {
	return p.colourWithin(ps, p.scan(ps, true))
}

// colourWithin is colour given the plan's scan: the last step a message of
// part j holds an edge in, counted from the part's start, is at most
// sc.horizon[j] (a PartBound), which sizes the part's bitlines.
//
// A part starts when the one before it has been delivered, and then none of
// the earlier parts' steps can meet its messages' (they lie at or before its
// start, and a message holds its first edge one step after its start): the
// greedy start of every message is its part's start plus the greedy start it
// gets when its part is coloured alone from step 0, since the search for the
// first free block is a function of the busy steps. So each part is coloured
// alone, from 0, on a colorer of its own, the parts on up to GOMAXPROCS
// goroutines at once, and then shifted by the part's start, the sum of the
// lengths of the parts before it: the same starts as colouring the parts one
// after another on one colorer, whatever the number of goroutines.
func (p *Plan) colourWithin(ps *model.Paths, sc partsScan) (starts, offsets []int, err error) {
	return p.colourOn(ps, sc, runtime.GOMAXPROCS(0))
}

// colourOn is colourWithin on up to workers goroutines.
func (p *Plan) colourOn(ps *model.Paths, sc partsScan, workers int) (starts, offsets []int, err error) {
	if err := p.check(ps.Len()); err != nil {
		return nil, nil, err
	}
	if err := checkSteps(ps); err != nil {
		return nil, nil, err
	}
	starts = make([]int, ps.Len())
	ends := make([]int, len(p.Parts)) // each part's last step from its start
	switch len(p.Parts) {
	case 0:
	case 1:
		c := &Colorer{ps: ps, starts: starts}
		c.planAll(p, sc.horizon[0])
		if p.stages != nil && workers > 1 && len(p.Parts[0]) > 2*gatherBlock {
			ends[0] = c.colourStaged(p, p.Parts[0], gatherBlock)
		} else {
			ends[0] = c.colourPart(p, p.Parts[0])
		}
	default:
		p.colourParts(ps, starts, sc, ends, workers)
	}
	offsets = make([]int, len(p.Parts))
	for j := 1; j < len(p.Parts); j++ {
		offsets[j] = offsets[j-1] + ends[j-1]
	}
	for j, part := range p.Parts {
		if off := offsets[j]; off != 0 {
			for _, i := range part {
				starts[i] += off
			}
		}
	}
	return starts, offsets, nil
}

// colourParts colours every part alone from step 0 (colourWithin), on up to
// workers goroutines, each with a colorer of its own that takes the parts
// left, the largest first; it writes the starts from the parts' starts into
// starts and the last step of part j into ends[j].
func (p *Plan) colourParts(ps *model.Paths, starts []int, sc partsScan, ends []int, workers int) {
	order := make([]int, len(p.Parts))
	for j := range order {
		order[j] = j
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(len(p.Parts[b]), len(p.Parts[a])) })
	shareOut(workers, len(order), func() func(int) {
		c := &Colorer{ps: ps, starts: starts, reads: make([]edgeReads, len(ps.Net.Edges))}
		for e := range c.reads {
			c.reads[e].last = -1
		}
		return func(t int) {
			j := order[t]
			if sc.last != nil {
				ne := len(ps.Net.Edges)
				c.planRow(sc.last[j*ne:(j+1)*ne], sc.horizon[j])
			} else {
				c.planPart(p, p.Parts[j], sc.horizon[j])
			}
			ends[j] = c.colourPart(p, p.Parts[j])
			c.unplanPart()
		}
	})
}

// colourPart colours the messages of part in order from step 0 on c (planned
// for the part: planAll or planPart), and returns the last step they hold an
// edge in (0 for none).
func (c *Colorer) colourPart(p *Plan, part []int) int {
	var g gathered
	end := 0
	for b := 0; b < len(part); b += gatherBlock {
		msgs := part[b:min(b+gatherBlock, len(part))]
		g.gather(p, msgs)
		for r, i := range msgs {
			path, check := g.message(r, p.every)
			s := c.placePath(i, path, g.l[r], 0, check)
			c.rank++
			end = max(end, s+len(path)+int(g.l[r])-1)
		}
	}
	return end
}

// colourStaged is colourPart for a plan with stages, on three goroutines: this
// one searches each message's start and records its spans on its entrance
// positions, the next message's search reading them at once, while another
// records its other spans, which only the later stages read, and a third
// gathers the messages' data ahead (gathered). Before a stage begins, the
// recording goroutine has recorded every message before it. The messages go
// from one to the next in gathered blocks of up to size messages, cut at the
// stages.
// Every edge's busy steps are then what colourPart would have at each
// search, and so are the starts.
func (c *Colorer) colourStaged(p *Plan, part []int, size int) int {
	type block struct {
		g      gathered
		lo, hi int     // the block's messages: part[lo:hi]
		stage  bool    // the first block of a stage (after the first)
		s      []int32 // the messages' starts
		rank   int32   // the first message's rank
	}
	const blocks = 6
	free, filled, todo := make(chan *block, blocks), make(chan *block, blocks), make(chan *block, blocks)
	for range blocks {
		free <- new(block)
	}
	// The gatherer cuts the part into blocks and gathers them in order.
	gathered := make(chan struct{})
	go func() {
		defer close(gathered)
		stages := p.stages
		for lo := 0; lo < len(part); {
			hi := min(lo+size, len(part))
			stage := false
			if len(stages) > 0 && stages[0] <= lo {
				stage = lo > 0
				stages = stages[1:]
			}
			if len(stages) > 0 && stages[0] < hi {
				hi = stages[0]
			}
			b := <-free
			b.lo, b.hi, b.stage = lo, hi, stage
			b.g.gather(p, part[lo:hi])
			filled <- b
			lo = hi
		}
	}()
	// The recorder takes the blocks in order; a nil block asks it to say
	// (synced) that it has recorded every block before.
	recorded, synced := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(recorded)
		for b := range todo {
			if b == nil {
				synced <- struct{}{}
				continue
			}
			g := &b.g
			for r, s := range b.s {
				path := g.hops[g.hopOff[r]:g.hopOff[r+1]]
				check := g.pos[g.posOff[r]:g.posOff[r+1]]
				c.recordOff(path, check, g.l[r], s, b.rank+int32(r))
			}
			free <- b
		}
	}()
	end := 0
	for lo := 0; lo < len(part); {
		b := <-filled
		if b.stage { // a new stage: every span before it recorded
			todo <- nil
			<-synced
		}
		b.s, b.rank = b.s[:0], c.rank
		for r, i := range part[b.lo:b.hi] {
			path, check := b.g.message(r, false)
			l := b.g.l[r]
			s := c.search(path, l, 0, check)
			c.recordAt(i, path, check, l, s)
			b.s = append(b.s, s)
			c.rank++
			end = max(end, int(s)+len(path)+int(l)-1)
		}
		lo = b.hi
		todo <- b
	}
	close(todo)
	<-recorded
	<-gathered
	return end
}

// gatherBlock is the number of messages whose data Plan.colour copies side by
// side before placing them.
const gatherBlock = 2048

// gathered holds a block of messages in colouring order: their paths, lengths
// and entrance positions copied one after another. The colouring order visits
// the messages' data at random places (the tree order sorts by depth, the mesh
// order by initial point); copying a block in one tight loop lets the processor
// fetch many of those places at once, where placing them one by one waited for
// each (most of a placement's own time at 10^6 paths).
type gathered struct {
	hops, pos      []int32
	hopOff, posOff []int32 // message r's are hops[hopOff[r]:hopOff[r+1]], the same for pos
	l              []int32
}

// gather copies the data of msgs (message indices) into g.
func (g *gathered) gather(p *Plan, msgs []int) {
	ps := p.ps
	g.hops, g.pos, g.l = g.hops[:0], g.pos[:0], g.l[:0]
	g.hopOff, g.posOff = append(g.hopOff[:0], 0), append(g.posOff[:0], 0)
	for _, i := range msgs {
		g.hops = append(g.hops, ps.Path(i)...)
		g.hopOff = append(g.hopOff, int32(len(g.hops)))
		g.l = append(g.l, int32(ps.L[i]))
		if !p.every {
			g.pos = append(g.pos, p.positions(i)...)
		}
		g.posOff = append(g.posOff, int32(len(g.pos)))
	}
}

// message returns the r-th gathered message's path and entrance positions (nil,
// every position, when every is set).
func (g *gathered) message(r int, every bool) (path, check []int32) {
	path = g.hops[g.hopOff[r]:g.hopOff[r+1]]
	if !every {
		// Not nil even when empty: nil would mean every position.
		if check = g.pos[g.posOff[r]:g.posOff[r+1]]; check == nil {
			check = []int32{}
		}
	}
	return path, check
}

// planAll prepares c for the colouring of a plan of one part, whose steps lie
// in 0 .. horizon. The placements read only entrance edges, so an edge needs
// the spans of the messages placed before its last reader only
// (edgeReads.last), and an edge nobody reads keeps none. An edge read at least
// once whose load (the messages crossing it) is at least the number of 64-step
// words up to the horizon keeps its busy steps in a bitline: the bitset is then
// no larger than the 8-byte runs of its messages; the other edges read keep a
// timeline.
func (c *Colorer) planAll(p *Plan, horizon int) {
	ps := c.ps
	c.reads = make([]edgeReads, len(ps.Net.Edges))
	for e := range c.reads {
		c.reads[e].last = -1
	}
	// The messages' ranks first, then the paths in index order: the order of
	// the paths in memory, not the colouring order's random one.
	rank := make([]int32, ps.Len())
	r := int32(0)
	for _, part := range p.Parts {
		for _, i := range part {
			rank[i] = r
			r++
		}
	}
	for i, r := range rank {
		path := ps.Path(i)
		if pos := p.positions(i); pos != nil {
			for _, k := range pos {
				c.reads[path[k]].last = max(c.reads[path[k]].last, r)
			}
		} else {
			for _, e := range path {
				c.reads[e].last = max(c.reads[e].last, r)
			}
		}
	}
	load := ps.Measure().Load
	words := horizon/64 + 1
	for e := range c.reads {
		if c.reads[e].last >= 0 {
			c.slot(int32(e), load[e] >= words, horizon)
		}
	}
}

// slot gives edge e, read under the plan, a bitline with room for steps 0 ..
// horizon or a timeline.
func (c *Colorer) slot(e int32, bits bool, horizon int) {
	if bits {
		c.bits = append(c.bits, newBitline(horizon+1))
		c.reads[e].slot = int32(len(c.bits))
	} else {
		c.lines = append(c.lines, timeline{})
		c.reads[e].slot = -int32(len(c.lines))
	}
}

// planPart prepares c, whose reads are all unset (last -1, slot 0), for the
// colouring of part alone, its steps in 0 .. horizon (planAll's choices, with
// the ranks within the part; an edge's bitline or timeline is chosen by its
// load in the whole instance, as in planAll): the messages are taken in the
// part's order, and the edges they read are listed in c.touched for unplanPart.
func (c *Colorer) planPart(p *Plan, part []int, horizon int) {
	ps := c.ps
	c.touched = c.touched[:0]
	read := func(e int32, r int32) {
		if c.reads[e].last < 0 {
			c.touched = append(c.touched, e)
		}
		c.reads[e].last = r
	}
	for r, i := range part {
		path := ps.Path(i)
		if pos := p.positions(i); pos != nil {
			for _, k := range pos {
				read(path[k], int32(r))
			}
		} else {
			for _, e := range path {
				read(e, int32(r))
			}
		}
	}
	c.slots(horizon)
}

// slots gives each edge of c.touched its bitline or timeline for a part
// whose steps lie in 0 .. horizon (planAll's choice) and starts the part's
// ranks at 0.
func (c *Colorer) slots(horizon int) {
	load := c.ps.Measure().Load
	words := horizon/64 + 1
	c.lines, c.bits, c.rank = nil, nil, 0
	for _, e := range c.touched {
		c.slot(e, load[e] >= words, horizon)
	}
}

// planRow is planPart given the part's last readers of the edges, row[e] for
// edge e (partsScan.last).
func (c *Colorer) planRow(row []int32, horizon int) {
	c.touched = c.touched[:0]
	for e, r := range row {
		if r >= 0 {
			c.touched = append(c.touched, int32(e))
			c.reads[e].last = r
		}
	}
	c.slots(horizon)
}

// unplanPart unsets the reads planPart set and drops the part's busy steps.
func (c *Colorer) unplanPart() {
	for _, e := range c.touched {
		c.reads[e] = edgeReads{last: -1}
	}
	c.lines, c.bits = nil, nil
}

// check reports an error unless the parts together list every message once.
func (p *Plan) check(msgs int) error {
	seen := make([]bool, msgs)
	n := 0
	for _, part := range p.Parts {
		for _, i := range part {
			if i < 0 || i >= len(seen) || seen[i] {
				return fmt.Errorf("offline: plan lists message index %d twice or out of range", i)
			}
			seen[i] = true
			n++
		}
	}
	if n != msgs {
		return fmt.Errorf("offline: plan lists %d of %d messages", n, msgs)
	}
	return nil
}
