package offline

import (
	"fmt"
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
	// Entrance[i] lists the entrance edges the construction gives message i.
	Entrance [][]int
	// K is the entrance number the construction claims: 2 for trees, the number of
	// dimensions for meshes, the dilation d for the generic order.
	K int
	// Names of the parts (mesh classes such as "+1-0"; empty otherwise).
	Names []string
	// Roots lists the chosen tree roots (node names), one per component with paths.
	Roots []string
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

// partStats returns the congestion, dilation and largest length of the messages of
// one part.
func partStats(ps *model.Paths, part []int, load []int) (c, d, l int) {
	for _, i := range part {
		for _, e := range ps.Path(i) {
			load[e]++
			c = max(c, load[e])
		}
		d = max(d, ps.D(i))
		l = max(l, ps.L[i])
	}
	for _, i := range part {
		for _, e := range ps.Path(i) {
			load[e] = 0
		}
	}
	return c, d, l
}

// Bound returns the plan's proven makespan bound: the sum over its parts of
// PartBound, since each part starts when the previous one is delivered.
func (p *Plan) Bound(in *model.Instance) int { return p.bound(model.PathsOf(in)) }

func (p *Plan) bound(ps *model.Paths) int {
	load := make([]int, len(ps.Net.Edges))
	total := 0
	for _, part := range p.Parts {
		c, d, l := partStats(ps, part, load)
		total += PartBound(p.K, c, d, l)
	}
	return total
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
	if err := p.check(ps.Len()); err != nil {
		return nil, nil, err
	}
	c, err := newColorer(ps)
	if err != nil {
		return nil, nil, err
	}
	// The placements read only entrance edges, so an edge needs the spans of the
	// messages placed before its last reader only (Colorer.lastRead).
	c.lastRead = make([]int32, len(ps.Net.Edges))
	for e := range c.lastRead {
		c.lastRead[e] = -1
	}
	rank := int32(0)
	for _, part := range p.Parts {
		for _, i := range part {
			for _, e := range p.Entrance[i] {
				c.lastRead[e] = rank
			}
			rank++
		}
	}
	offset := 0
	buf := make([]int, 0, 8) // never nil: nil means every position
	for _, part := range p.Parts {
		offsets = append(offsets, offset)
		end := offset
		for _, i := range part {
			check := p.entrancePositions(ps, i, buf[:0])
			if check != nil {
				buf = check
			}
			s := c.PlaceChecking(i, offset, check)
			c.rank++
			end = max(end, s+ps.D(i)+ps.L[i]-1)
		}
		offset = end
	}
	return c.starts, offsets, nil
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

// entrancePositions appends to out (which it returns; out must not be nil) the
// 0-based positions of message i's entrance edges on its path; it returns nil,
// meaning every position, when the set is the whole path.
func (p *Plan) entrancePositions(ps *model.Paths, i int, out []int) []int {
	path := ps.Path(i)
	set := p.Entrance[i]
	if len(set) == len(path) {
		return nil
	}
	for k, e := range path {
		if slices.Contains(set, int(e)) {
			out = append(out, k)
		}
	}
	return out
}
