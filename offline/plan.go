package offline

import (
	"fmt"

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

func (p *Plan) bound(ps *model.Paths) int {
	if len(p.Parts) == 1 && len(p.Parts[0]) == ps.Len() { // every message: the instance's measures
		ms := ps.Measure()
		return PartBound(p.K, ms.C, ms.D, ms.LMax)
	}
	total := 0
	for _, st := range p.partStats(ps) {
		total += PartBound(p.K, st.c, st.d, st.l)
	}
	return total
}

// partStat is the congestion, dilation and largest length of one part's messages.
type partStat struct{ c, d, l int }

// partStats returns every part's partStat. The messages are read in index order,
// one pass over the hops in the order they are stored, with a load per part and
// edge (4 bytes each); the parts' members, taken part by part, would visit the
// paths in an order with no locality (the mesh order's parts are sorted by initial
// point). When parts times edges is large against the hops, each part is counted
// on its own with one load per edge instead.
func (p *Plan) partStats(ps *model.Paths) []partStat {
	if len(p.Parts)*len(ps.Net.Edges) > 4*len(ps.Hops)+1<<16 {
		return p.partStatsApart(ps)
	}
	return p.partStatsJoint(ps)
}

// partStatsJoint is partStats in one pass in message order.
func (p *Plan) partStatsJoint(ps *model.Paths) []partStat {
	ne := len(ps.Net.Edges)
	stats := make([]partStat, len(p.Parts))
	partOf := make([]int32, ps.Len()) // -1: in no part
	for i := range partOf {
		partOf[i] = -1
	}
	for pi, part := range p.Parts {
		for _, i := range part {
			partOf[i] = int32(pi)
		}
	}
	load := make([]int32, len(p.Parts)*ne)
	for i, pi := range partOf {
		if pi < 0 {
			continue
		}
		stats[pi].add(ps, i, load[int(pi)*ne:(int(pi)+1)*ne])
	}
	return stats
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
	return p.colourWithin(ps, p.bound(ps))
}

// colourWithin is colour given the plan's bound (Plan.bound), the last step any
// message holds an edge in.
func (p *Plan) colourWithin(ps *model.Paths, bound int) (starts, offsets []int, err error) {
	if err := p.check(ps.Len()); err != nil {
		return nil, nil, err
	}
	c, err := newColorer(ps)
	if err != nil {
		return nil, nil, err
	}
	c.plan(p, bound)
	var g gathered
	offset := 0
	for _, part := range p.Parts {
		offsets = append(offsets, offset)
		end := offset
		for b := 0; b < len(part); b += gatherBlock {
			msgs := part[b:min(b+gatherBlock, len(part))]
			g.gather(p, msgs)
			for r, i := range msgs {
				path, check := g.message(r, p.every)
				s := c.placePath(i, path, g.l[r], offset, check)
				c.rank++
				end = max(end, s+len(path)+int(g.l[r])-1)
			}
		}
		offset = end
	}
	return c.starts, offsets, nil
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

// plan prepares c for the plan's colouring, whose steps lie in 0 .. bound. The
// placements read only entrance edges, so an edge needs the spans of the
// messages placed before its last reader only (edgeReads.last). An edge read at
// least once whose load (the messages crossing it) is at least the number of
// 64-step words up to the bound keeps its busy steps in a bitline: the bitset
// is then no larger than the 8-byte runs of its messages.
func (c *Colorer) plan(p *Plan, bound int) {
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
	words := bound/64 + 1
	for e := range c.reads {
		if c.reads[e].last >= 0 && load[e] >= words {
			c.bits = append(c.bits, newBitline(bound+1))
			c.reads[e].bits = int32(len(c.bits))
		}
	}
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
