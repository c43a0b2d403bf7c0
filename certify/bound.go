package certify

// Closed-form certificates: when the optimum equals a lower bound that every legal
// schedule obeys, the bound's arithmetic with its witness (a message, an edge and
// the worms queued on it, or a clique of worms) proves that no shorter schedule
// exists, and no CNF is needed. The bounds are those of MODEL.md ("Lower bounds
// every schedule obeys") and the aligned-clique bound of package lower (separation
// lemma at lower.AlignedConflicts; seed 002, section 5, for the all-colliding
// family).

import (
	"fmt"
	"slices"
	"strings"

	"github.com/wormlab/wormlab/lower"
	"github.com/wormlab/wormlab/model"
)

// Names of the closed-form bounds.
const (
	// BoundDilation: makespan >= d + L - 1 for the message named.
	BoundDilation = "dilation"
	// BoundEdge: for a set S of messages using one edge e, message i at hop k_i,
	// makespan >= min_S k_i + sum_S L_i + min_S (d_i - k_i) - 1.
	BoundEdge = "edge"
	// BoundClique: for a set S of messages pairwise in aligned conflict,
	// makespan >= sum_S L_i + min_S d_i - 1.
	BoundClique = "aligned-clique"
	// BoundEmpty: an instance of no message; every schedule has makespan >= 0.
	BoundEmpty = "empty"
)

// emptyArithmetic is the arithmetic of BoundEmpty.
const emptyArithmetic = "no message: makespan >= 0"

// dilationValue is the dilation bound d + L - 1 of message m (MODEL.md: its head
// makes d hops and its tail L - 1 more moves, one step each).
func dilationValue(m *model.Message) (int, string) {
	v := len(m.Path) + m.L - 1
	return v, fmt.Sprintf("d %d + L %d - 1 = %d", len(m.Path), m.L, v)
}

// edgeValue is the edge bound of a set of messages on edge e.
//
// Proof. Every message of S holds e during a block of at least L_i consecutive
// times (MODEL.md rule 2: from the step its head crosses e to the step its tail
// does), and the blocks are disjoint. The head of i cannot cross e, its k_i-th
// edge, before step k_i, so every block starts at r = min_S k_i or later, and the
// blocks together end no earlier than r + sum_S L_i - 1. The message whose block
// ends last then still has d_i - k_i hops to make, one step each, after its tail
// crossed e: it is delivered no earlier than r + sum_S L_i - 1 + min_S (d_i - k_i).
// With S one message this is d + L - 1; with all users of e it is at least c_L.
// The largest value over all S equals the preemptive one-machine optimum that
// model.Instance.EdgeBound computes by Jackson's rule (Carlier's theorem).
func edgeValue(in *model.Instance, e int, s []int) (int, string, error) {
	r, q, sumL := -1, -1, 0
	for _, i := range s {
		m := &in.Messages[i]
		k := slices.Index(m.Path, e) + 1
		if k == 0 {
			return 0, "", fmt.Errorf("message %q does not use edge %d", m.ID, e)
		}
		if r < 0 || k < r {
			r = k
		}
		if qi := len(m.Path) - k; q < 0 || qi < q {
			q = qi
		}
		sumL += m.L
	}
	v := r + sumL + q - 1
	return v, fmt.Sprintf("min hop %d + sum L %d + min hops after %d - 1 = %d", r, sumL, q, v), nil
}

// bestEdgeSet returns the set S of users of edge e with the largest edgeValue. The
// best set is, for some release r0 and tail q0, all users with k >= r0 and
// d - k >= q0 (adding a message of that kind only adds to sum L), so trying every
// pair (r0, q0) finds it in O(c_e^3).
func bestEdgeSet(in *model.Instance, e int, us []model.Use) ([]int, int) {
	var best []int
	bestV := 0
	for _, a := range us {
		r0 := a.Pos + 1
		for _, b := range us {
			q0 := len(in.Messages[b.Msg].Path) - b.Pos - 1
			var s []int
			for _, u := range us {
				if u.Pos+1 >= r0 && len(in.Messages[u.Msg].Path)-u.Pos-1 >= q0 {
					s = append(s, u.Msg)
				}
			}
			if len(s) == 0 {
				continue
			}
			if v, _, _ := edgeValue(in, e, s); best == nil || v > bestV {
				best, bestV = s, v
			}
		}
	}
	slices.Sort(best)
	return best, bestV
}

// aligned reports whether messages i and j are in aligned conflict: they share an
// edge with the same number r of hops left after it, r <= min(L_i, L_j) - 1 (the
// separation lemma at lower.AlignedConflicts: their deliveries are then at least
// the later one's L apart).
func aligned(in *model.Instance, i, j int) bool {
	a, b := &in.Messages[i], &in.Messages[j]
	for ka, e := range a.Path {
		kb := slices.Index(b.Path, e)
		if kb < 0 {
			continue
		}
		ra, rb := len(a.Path)-ka-1, len(b.Path)-kb-1
		if ra == rb && ra <= min(a.L, b.L)-1 {
			return true
		}
	}
	return false
}

// cliqueValue checks that s is pairwise aligned and returns sum L + min d - 1.
//
// Proof (lower.Bounds, aligned-clique): order S by delivery; by the separation
// lemma each delivery after the first comes at least its own L after the previous
// one, and the first is no earlier than d + L - 1.
func cliqueValue(in *model.Instance, s []int) (int, string, error) {
	sumL, dmin := 0, -1
	for x, i := range s {
		for _, j := range s[x+1:] {
			if !aligned(in, i, j) {
				return 0, "", fmt.Errorf("messages %q and %q are not in aligned conflict", in.Messages[i].ID, in.Messages[j].ID)
			}
		}
		m := &in.Messages[i]
		sumL += m.L
		if dmin < 0 || len(m.Path) < dmin {
			dmin = len(m.Path)
		}
	}
	v := sumL + dmin - 1
	return v, fmt.Sprintf("sum L %d + min d %d - 1 = %d", sumL, dmin, v), nil
}

// closedForm returns the first closed-form bound whose value is target (dilation,
// then the edges in order, then the heaviest aligned clique found; empty for an
// instance of no message), or nil. It
// returns an error when a bound exceeds target: then the schedule claimed optimal
// would contradict a proven bound.
func closedForm(in *model.Instance, target int) (*Bound, error) {
	if len(in.Messages) == 0 {
		// No CNF can refute horizon -1: the bound of no message certifies 0.
		if target == 0 {
			return &Bound{Name: BoundEmpty, Value: 0, Messages: []string{}, Arithmetic: emptyArithmetic}, nil
		}
		return nil, nil
	}
	var found *Bound
	consider := func(b *Bound) error {
		if b.Value > target {
			return fmt.Errorf("certify: %s bound %d (%s) exceeds the makespan %d", b.Name, b.Value, b.Arithmetic, target)
		}
		if b.Value == target && found == nil {
			found = b
		}
		return nil
	}
	for i := range in.Messages {
		m := &in.Messages[i]
		v, arith := dilationValue(m)
		b := &Bound{Name: BoundDilation, Value: v, Messages: []string{m.ID}, Arithmetic: arith}
		if err := consider(b); err != nil {
			return nil, err
		}
	}
	for e, us := range in.Users() {
		if len(us) == 0 {
			continue
		}
		s, _ := bestEdgeSet(in, e, us)
		v, arith, err := edgeValue(in, e, s)
		if err != nil {
			return nil, err
		}
		if err := consider(&Bound{Name: BoundEdge, Value: v, Edge: &e, EdgeName: in.Net.EdgeName(e), Messages: ids(in, s), Arithmetic: arith}); err != nil {
			return nil, err
		}
	}
	if found != nil || len(in.Messages) < 2 {
		return found, nil
	}
	w := make([]int, len(in.Messages))
	for i := range w {
		w[i] = in.Messages[i].L
	}
	cl := lower.MaxClique(lower.AlignedConflicts(in), w, lower.DefaultBudget).Clique
	if len(cl) >= 2 {
		v, arith, err := cliqueValue(in, cl)
		if err != nil {
			return nil, err
		}
		if err := consider(&Bound{Name: BoundClique, Value: v, Messages: ids(in, cl), Arithmetic: arith}); err != nil {
			return nil, err
		}
	}
	return found, nil
}

// checkBound recomputes a closed-form bound from the instance alone.
func checkBound(in *model.Instance, b *Bound) error {
	idx := in.Index()
	var s []int
	seen := map[string]bool{}
	for _, id := range b.Messages {
		i, ok := idx[id]
		if !ok {
			return fmt.Errorf("bound %s: no message %q in the instance", b.Name, id)
		}
		if seen[id] {
			return fmt.Errorf("bound %s: message %q named twice", b.Name, id)
		}
		seen[id] = true
		s = append(s, i)
	}
	if (b.Name == BoundDilation || b.Name == BoundClique || b.Name == BoundEmpty) && (b.Edge != nil || b.EdgeName != "") {
		return fmt.Errorf("bound %s: names an edge, which only an edge bound has", b.Name)
	}
	if b.Name == BoundEmpty {
		if len(in.Messages) > 0 { // else s, of the instance's messages, is empty
			return fmt.Errorf("bound %s: the instance has %d message(s), the bound names %d, want none", b.Name, len(in.Messages), len(s))
		}
		if b.Value != 0 || b.Arithmetic != emptyArithmetic {
			return fmt.Errorf("bound %s: the instance gives 0 (%s), the certificate says %d (%s)", b.Name, emptyArithmetic, b.Value, b.Arithmetic)
		}
		return nil
	}
	if len(s) == 0 {
		return fmt.Errorf("bound %s: no messages", b.Name)
	}
	var v int
	var arith string
	var err error
	switch b.Name {
	case BoundDilation:
		if len(s) != 1 {
			return fmt.Errorf("bound dilation: names %d messages, want 1", len(s))
		}
		v, arith = dilationValue(&in.Messages[s[0]])
	case BoundEdge:
		if b.Edge == nil || *b.Edge < 0 || *b.Edge >= len(in.Net.Edges) {
			return fmt.Errorf("bound edge: no such edge")
		}
		if got := in.Net.EdgeName(*b.Edge); b.EdgeName != got {
			return fmt.Errorf("bound edge: edge %d is %s, the certificate names %q", *b.Edge, got, b.EdgeName)
		}
		v, arith, err = edgeValue(in, *b.Edge, s)
	case BoundClique:
		v, arith, err = cliqueValue(in, s)
	default:
		return fmt.Errorf("bound %q: unknown kind (want %s, %s, %s or %s)", b.Name, BoundDilation, BoundEdge, BoundClique, BoundEmpty)
	}
	if err != nil {
		return fmt.Errorf("bound %s: %w", b.Name, err)
	}
	if v != b.Value || arith != b.Arithmetic {
		return fmt.Errorf("bound %s: the instance gives %s, the certificate says %d (%s)", b.Name, arith, b.Value, b.Arithmetic)
	}
	return nil
}

func ids(in *model.Instance, s []int) []string {
	out := make([]string, len(s))
	for x, i := range s {
		out[x] = in.Messages[i].ID
	}
	return out
}

func joinIDs(s []string) string { return strings.Join(s, ", ") }
