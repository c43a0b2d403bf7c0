package lower

// Lower bounds beyond c + d for any instance, from the separation lemma
// (AlignedConflicts): the aligned-clique bound generalises the all-colliding worms
// of seed 002, section 5, and the colouring and independence bounds are the phases
// of seed 002, Lemma 4 and Theorem 2, in exact form.

import (
	"fmt"
	"strings"

	"github.com/wormlab/wormlab/internal/plural"
	"github.com/wormlab/wormlab/model"
)

// Names of the lower bounds of this package (model.Bound.Name).
const (
	BoundClique       = "aligned-clique"
	BoundColouring    = "aligned-colouring"
	BoundIndependence = "aligned-independence"
	BoundPrefix       = "prefix-colouring"
)

// DefaultBudget is the number of search nodes each clique, independent-set or
// colouring search of Bounds may expand. A search cut short still gives a valid
// (weaker) bound.
const DefaultBudget = 20000

// Bounds returns the lower bounds of this package for the instance, each valid for
// every legal wormhole schedule (so for bufferless ones too), with its witness in
// Detail and Msg. They rest on two facts: a worm holds a shared edge for at least
// L consecutive steps that no other worm may share (MODEL.md rule 2), and the
// separation lemma of AlignedConflicts (and its general form, Disjunctions).
//
//   - aligned-clique: for a clique S of the aligned conflict graph,
//     makespan >= sum_{i in S} L_i + min_{i in S} d_i - 1.
//     Proof: order S by delivery time; by the separation lemma each message after the
//     first is delivered at least its own L after the previous one, and the first is
//     delivered no earlier than d + L - 1, so the last is delivered no earlier than
//     d_first - 1 + sum of L over S. For p^2 pairwise colliding worms of length L on
//     paths of d hops this is p^2 L + d - 1, the bound of seed 002, section 5.
//   - aligned-colouring: for a set U of messages (a component of the aligned conflict
//     graph), with D0 = min_U (d_i + L_i - 1) and Lmin = min_U L_i,
//     makespan >= D0 + (chi(U) - 1) Lmin.
//     Proof: cut time from D0 on into windows of Lmin steps and give each message the
//     window of its delivery. Two adjacent messages are delivered at least Lmin apart
//     (separation lemma), so they get different windows: the windows colour U
//     properly, so at least chi(U) windows hold a delivery and the last one starts at
//     D0 + (chi - 1) Lmin or later. chi is bounded below by a clique or computed by
//     DSATUR branch and bound.
//   - aligned-independence: the same with chi(U) >= ceil(|U| / alpha(U)), alpha
//     the independence number: each window's messages are pairwise non-conflicting.
//     This is the phase argument of seed 002, Lemma 4 and Theorem 2, in exact form.
//     An upper bound on alpha (a partition into cliques) keeps it valid when the
//     exact search is cut short.
//   - prefix-colouring: the colouring bound of the paths cut to their first min L
//     edges, plus the hops left (prefixBound; only when min L < d).
//   - edge-sequence: the per-edge bound without preemption (EdgeSequence; edges
//     with 2 <= c_e <= MaxSequenceUsers).
//   - disjunctive: the wormhole model written as a disjunctive program over head
//     crossing times, one disjunction per pair of messages on a shared edge
//     (Disjunctive), searched over orientations within a budget: every makespan
//     below the value is refuted, and a complete search gives the optimum. It
//     subsumes the other bounds when it completes and sees chains of messages
//     that meet on different edges.
//     Run from the best of the other bounds, with budget/10 nodes, and only up to
//     MaxDisjunctions disjunctions.
func Bounds(in *model.Instance) []model.Bound {
	return BoundsBudget(in, DefaultBudget)
}

// BoundsBudget is Bounds with each search limited to budget nodes (<= 0: no limit).
func BoundsBudget(in *model.Instance, budget int) []model.Bound {
	g := AlignedConflicts(in)
	lim := limit{nodes: budget}
	bs := []model.Bound{cliqueBound(in, g, lim), colouringBound(in, g, lim), independenceBound(in, g, lim)}
	if b, ok := prefixBound(in, lim); ok {
		bs = append(bs, b)
	}
	if b, ok := sequenceBound(in, lim); ok {
		bs = append(bs, b)
	}
	from := in.LowerBound().Value
	for _, b := range bs {
		from = max(from, b.Value)
	}
	if b, ok := disjunctiveBound(in, from, budget, lim); ok {
		bs = append(bs, b)
	}
	return bs
}

// prefixBound is the aligned-colouring bound of the instance cut to its first
// h = min L edges (Truncate), plus the hops every message still has after them:
// makespan >= bound(truncated) + min_i (d_i - min(d_i, h)).
//
// Proof. A legal schedule restricted to the first h edges of each path, the worm
// draining one flit per step after its h-th hop, is legal (each message holds each
// edge for a sub-interval of its original holding) and delivers each message i at
// least d_i - min(d_i, h) steps earlier. With h <= L every shared edge of the cut
// paths is within L - 1 hops of their end, so far more pairs are aligned conflicts
// than in the whole paths when L < d: this is the truncated butterfly of seed 002,
// Definition 2, for any instance. Reported only when min L < d.
func prefixBound(in *model.Instance, lim limit) (model.Bound, bool) {
	ms := in.Measure()
	h := ms.LMax
	rest := -1
	for i := range in.Messages {
		m := &in.Messages[i]
		h = min(h, m.L)
	}
	if len(in.Messages) == 0 || h >= ms.D {
		return model.Bound{}, false
	}
	for i := range in.Messages {
		if r := len(in.Messages[i].Path) - min(len(in.Messages[i].Path), h); rest < 0 || r < rest {
			rest = r
		}
	}
	tr := Truncate(in, h)
	g := alignedConflicts(tr, lim)
	if lim.cut() {
		return model.Bound{}, false
	}
	b := colouringBound(tr, g, lim)
	b.Name = BoundPrefix
	b.Value += rest
	b.Detail = fmt.Sprintf("paths cut to their first %s, %s; plus %s left", plural.Count(h, "edge"), b.Detail, plural.Count(rest, "hop"))
	return b, true
}

// Best returns the largest of Bounds and the model's LowerBounds (the first in that
// order on a tie).
func Best(in *model.Instance) model.Bound {
	bs := append(in.LowerBounds(), Bounds(in)...)
	best := bs[0]
	for _, b := range bs[1:] {
		if b.Value > best.Value {
			best = b
		}
	}
	return best
}

// CliqueValue is the aligned-clique bound of a clique S: sum of L plus min d, minus 1.
func CliqueValue(in *model.Instance, s []int) int {
	if len(s) == 0 {
		return 0
	}
	sum, dmin := 0, -1
	for _, i := range s {
		m := &in.Messages[i]
		sum += m.L
		if dmin < 0 || len(m.Path) < dmin {
			dmin = len(m.Path)
		}
	}
	return sum + dmin - 1
}

func cliqueBound(in *model.Instance, g *Graph, lim limit) model.Bound {
	b := model.Bound{Name: BoundClique, Edge: -1, Msg: -1}
	if len(in.Messages) == 0 {
		return b
	}
	w := make([]int, len(in.Messages))
	for i := range w {
		w[i] = in.Messages[i].L
	}
	res := maxClique(g, w, lim)
	b.Value = CliqueValue(in, res.Clique)
	b.Msg = res.Clique[0]
	how := "maximum"
	if !res.Exact {
		how = "largest found"
	}
	b.Detail = fmt.Sprintf("%s clique of %s %s: sum L + min d - 1", how, plural.Count(len(res.Clique), "pairwise aligned-conflicting message"), ids(in, res.Clique))
	return b
}

// groups returns the components of g with their release D0 and shortest length.
func groups(in *model.Instance, g *Graph, lim limit) (comps [][]int, d0, lmin []int) {
	comps = g.components(lim)
	for _, c := range comps {
		r, l := -1, -1
		for _, i := range c {
			m := &in.Messages[i]
			if v := len(m.Path) + m.L - 1; r < 0 || v < r {
				r = v
			}
			if l < 0 || m.L < l {
				l = m.L
			}
		}
		d0 = append(d0, r)
		lmin = append(lmin, l)
	}
	return comps, d0, lmin
}

func colouringBound(in *model.Instance, g *Graph, lim limit) model.Bound {
	b, _ := colouring(in, g, lim)
	return b
}

// ColouringBound is the aligned-colouring bound of Bounds with each component's
// chromatic number searched within budget nodes, and the colouring found: colour[i]
// for every message, each component's colours from 0. The colouring is proper for
// aligned conflicts only: two worms of one colour may still share an edge at
// non-aligned positions, so lower.PhaseSchedule of it is legal only where every
// colour class is edge-disjoint (on levelled networks with L >= d, for instance);
// elsewhere PhaseSchedule reports the shared edge (on levelled:2x3x2, m0 with L = 1
// on [0 7] and m3 with L = 2 on [0 6] both take colour 0 and meet on edge 0).
func ColouringBound(in *model.Instance, budget int) (model.Bound, []int) {
	return colouring(in, AlignedConflicts(in), limit{nodes: budget})
}

func colouring(in *model.Instance, g *Graph, lim limit) (model.Bound, []int) {
	b := model.Bound{Name: BoundColouring, Edge: -1, Msg: -1}
	colour := make([]int, len(in.Messages))
	comps, d0, lmin := groups(in, g, lim)
	for k, c := range comps {
		h := g.induced(c, lim)
		if lim.cut() {
			// h is partial, and the bound of the components done stands (the
			// proof holds for any set of messages).
			break
		}
		res := chromatic(h, lim)
		for j, i := range c {
			colour[i] = res.Colour[j]
		}
		v := d0[k] + (res.Lower-1)*lmin[k]
		if b.Msg < 0 || v > b.Value {
			b.Value, b.Msg = v, c[0]
			how := "chi = %d (DSATUR search complete)"
			if !res.Exact {
				how = "chi >= %d (a clique; the colouring search was cut short)"
			}
			b.Detail = fmt.Sprintf("component of %s from %q, "+how+": D0 %d + (chi - 1) * L %d",
				plural.Count(len(c), "message"), in.Messages[c[0]].ID, res.Lower, d0[k], lmin[k])
		}
	}
	return b, colour
}

func independenceBound(in *model.Instance, g *Graph, lim limit) model.Bound {
	b := model.Bound{Name: BoundIndependence, Edge: -1, Msg: -1}
	comps, d0, lmin := groups(in, g, lim)
	for k, c := range comps {
		h := g.induced(c, lim)
		if lim.cut() {
			break
		}
		res := maxIndependentSet(h, lim)
		parts := (len(c) + res.Upper - 1) / res.Upper
		v := d0[k] + (parts-1)*lmin[k]
		if b.Msg < 0 || v > b.Value {
			b.Value, b.Msg = v, c[0]
			how := "alpha = %d"
			if !res.Exact {
				how = "alpha <= %d"
			}
			b.Detail = fmt.Sprintf("component of %s from %q, "+how+": D0 %d + (ceil(%d / alpha) - 1) * L %d",
				plural.Count(len(c), "message"), in.Messages[c[0]].ID, res.Upper, d0[k], len(c), lmin[k])
		}
	}
	return b
}

// ids renders message ids for a witness, at most 12 of them.
func ids(in *model.Instance, s []int) string {
	var parts []string
	for k, i := range s {
		if k == 12 {
			parts = append(parts, fmt.Sprintf("... (%d more)", len(s)-12))
			break
		}
		parts = append(parts, fmt.Sprintf("%q", in.Messages[i].ID))
	}
	return "{" + strings.Join(parts, ", ") + "}"
}
