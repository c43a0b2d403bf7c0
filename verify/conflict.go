package verify

import (
	"cmp"
	"slices"

	"github.com/wormlab/wormlab/model"
)

// holding is the closed time interval [from, to] during which message msg holds one
// edge (see doc.go for the derivation).
type holding struct {
	from, to int
	msg      int32
}

// holdings returns every well-formed message's holdings grouped by edge: those of
// edge e are hs[off[e]:off[e+1]], sorted by (from, msg). A counting sort by edge
// keeps this O(H log H) for H = sum_i d_i with three allocations.
func (c *checker) holdings() (hs []holding, off []int) {
	nE := len(c.in.Net.Edges)
	off = make([]int, nE+1)
	for i, cr := range c.cross {
		if cr == nil {
			continue
		}
		for _, e := range c.in.Messages[i].Path {
			off[e+1]++
		}
	}
	for e := 0; e < nE; e++ {
		off[e+1] += off[e]
	}
	hs = make([]holding, off[nE])
	next := slices.Clone(off[:nE])
	for i, cr := range c.cross {
		if cr == nil {
			continue
		}
		m := &c.in.Messages[i]
		d, l := len(m.Path), m.L
		td := cr[d-1]
		store := c.s.Model == model.StoreAndForward
		for k0, e := range m.Path {
			if store {
				// A packet of L flits occupies e_k while its flits cross it, in
				// steps t_k .. t_k + L - 1, and holds nothing elsewhere.
				hs[next[e]] = holding{from: cr[k0], to: cr[k0] + l - 1, msg: int32(i)}
				next[e]++
				continue
			}
			// 0-based k0 is position k = k0+1; held until move k+L, which is step
			// t_{k+L} when k+L <= d and t_d + (k+L-d) when the worm drains.
			to := 0
			if mv := k0 + 1 + l; mv <= d {
				to = cr[mv-1] - 1
			} else {
				to = td + (mv - d) - 1
			}
			hs[next[e]] = holding{from: cr[k0], to: to, msg: int32(i)}
			next[e]++
		}
	}
	for e := 0; e < nE; e++ {
		seg := hs[off[e]:off[e+1]]
		if len(seg) > 1 {
			slices.SortFunc(seg, func(a, b holding) int {
				if c := cmp.Compare(a.from, b.from); c != 0 {
					return c
				}
				return cmp.Compare(a.msg, b.msg)
			})
		}
	}
	return hs, off
}

// conflicts checks rule 2 of MODEL.md: no edge is held by two messages at once.
func (c *checker) conflicts() {
	hs, off := c.holdings()
	if c.all {
		c.allConflicts(hs, off)
	} else {
		c.firstConflict(hs, off)
	}
}

// pair is a conflict before it becomes a Violation: messages i < j hold edge e at
// time t.
type pair struct{ t, e, i, j int }

// allConflicts reports each (edge, pair) whose holdings intersect, at the first time
// both hold the edge (the later start), sorted by (time, edge, i, j). A sweep per
// edge keeps the holdings still active: every active holding that survives the
// removal of those ended before the new start is a reported conflict, so the cost is
// O(H + K) after sorting.
//
// With c.limit > 0 only the first c.limit pairs in that order are kept, in a
// max-heap (the greatest kept on top, replaced by a smaller pair when one comes),
// and c.more counts the others.
func (c *checker) allConflicts(hs []holding, off []int) {
	var ps []pair
	keepPair := func(p pair) {
		switch {
		case c.limit <= 0 || len(ps) < c.limit:
			ps = append(ps, p)
			if c.limit > 0 {
				heapUp(ps, len(ps)-1)
			}
		case pairLess(p, ps[0]):
			ps[0] = p
			heapDown(ps, 0)
			c.more++
		default:
			c.more++
		}
	}
	var active []holding
	for e := 0; e+1 < len(off); e++ {
		active = active[:0]
		for _, h := range hs[off[e]:off[e+1]] {
			keep := active[:0]
			for _, a := range active {
				if a.to >= h.from {
					keep = append(keep, a)
				}
			}
			active = keep
			for _, a := range active {
				i, j := int(a.msg), int(h.msg)
				if j < i {
					i, j = j, i
				}
				keepPair(pair{h.from, e, i, j})
			}
			active = append(active, h)
		}
	}
	slices.SortFunc(ps, comparePairs)
	for _, p := range ps {
		c.conflict(p)
	}
}

// comparePairs orders conflicts by (time, edge, i, j).
func comparePairs(a, b pair) int {
	return cmp.Or(cmp.Compare(a.t, b.t), cmp.Compare(a.e, b.e), cmp.Compare(a.i, b.i), cmp.Compare(a.j, b.j))
}

func pairLess(a, b pair) bool { return comparePairs(a, b) < 0 }

// heapUp and heapDown keep ps a max-heap in the order of comparePairs (ps[0]
// the greatest) after ps[k] is added or replaced.
func heapUp(ps []pair, k int) {
	for k > 0 {
		p := (k - 1) / 2
		if !pairLess(ps[p], ps[k]) {
			return
		}
		ps[p], ps[k] = ps[k], ps[p]
		k = p
	}
}

func heapDown(ps []pair, k int) {
	for {
		l, big := 2*k+1, k
		if l < len(ps) && pairLess(ps[big], ps[l]) {
			big = l
		}
		if r := l + 1; r < len(ps) && pairLess(ps[big], ps[r]) {
			big = r
		}
		if big == k {
			return
		}
		ps[k], ps[big] = ps[big], ps[k]
		k = big
	}
}

// firstConflict reports only the first conflict in the order of allConflicts. On each
// edge the first conflict time T is the first start at or before the latest end seen
// so far. Before T the holdings of the edge are pairwise disjoint, so at most one
// holding that starts before T still holds the edge at T (the latest-ending one);
// the others that hold it at T start at T. The pair of smallest message indices
// among these holders is the one All reports first.
func (c *checker) firstConflict(hs []holding, off []int) {
	best := pair{t: -1}
	for e := 0; e+1 < len(off); e++ {
		seg := hs[off[e]:off[e+1]]
		var prev holding // the holding with the latest end among seg[:j]
		for j, h := range seg {
			if j == 0 || prev.to < h.from {
				prev = h
				continue
			}
			t := h.from
			if best.t >= 0 && best.t <= t {
				break // a conflict as early, on a lower edge, is known
			}
			a, b := -1, -1
			push := func(m int) {
				switch {
				case a < 0 || m < a:
					a, b = m, a
				case b < 0 || m < b:
					b = m
				}
			}
			if prev.from < t {
				push(int(prev.msg))
			}
			for k := j; k >= 0 && seg[k].from == t; k-- {
				push(int(seg[k].msg))
			}
			for k := j + 1; k < len(seg) && seg[k].from == t; k++ {
				push(int(seg[k].msg))
			}
			best = pair{t, e, a, b}
			break
		}
	}
	if best.t >= 0 {
		c.conflict(best)
	}
}

// conflict records a conflict as a Violation.
func (c *checker) conflict(p pair) {
	c.out = append(c.out, Violation{Rule: RuleConflict, Edge: p.e, EdgeName: c.in.Net.EdgeName(p.e), Time: p.t,
		Msg: c.in.Messages[p.i].ID, Other: c.in.Messages[p.j].ID})
}
