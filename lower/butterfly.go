package lower

// The butterfly lower bound of seed 002 (Ranade, Schleimer, Wilkerson), section 3:
// Definition 2 (the truncated butterfly), Lemma 4 (phases of length L) and Theorem 2
// (a bound on the largest set of pairwise non-conflicting worms bounds the time).
//
// Derivation used here. Let n = log N, l = min(L, n), and cut every path to its
// first l edges (the truncated butterfly). A full schedule restricts to a legal
// truncated one whose deliveries are no later (the worm drains after level l instead
// of moving on). Truncated paths all start on level 0 and end on level l <= L, so
// conflicting truncated worms are aligned with r <= l - 1 <= L - 1 and the
// separation lemma (AlignedConflicts) applies: their deliveries are >= L apart.
// Deliveries happen from l + L - 1 on; cutting time into windows of L steps gives a
// proper colouring of the truncated path graph P_l (the phases of Lemma 4), so
//
//	T_truncated >= l + L - 1 + (chi(P_l) - 1) L,  chi(P_l) >= ceil(M / alpha(P_l)),
//
// and the worm delivered last in the truncated schedule still has n - l hops to go:
//
//	T >= chi(P_l) L + n - 1 >= ceil(M / alpha(P_l)) L + n - 1.
//
// The paper's form: with B = alpha, T >= M L / B; Theorem 2 shows that for
// M = N log N random paths no independent set of size B = 8 N log^2 log N / l
// exists with high probability, hence T = Omega(L l log N / (8 log^2 log N)).
// ButterflyRow reports that formula with logarithms to base 2, as stated.

import (
	"fmt"
	"math"

	"github.com/wormlab/wormlab/instances"
	"github.com/wormlab/wormlab/model"
)

// Truncate returns the instance with every path cut to its first h edges (paths of
// at most h edges are kept whole), on the same network: the truncated butterfly of
// seed 002, Definition 2, when h = min(L, log N).
func Truncate(in *model.Instance, h int) *model.Instance {
	out := in.Clone()
	out.Name = fmt.Sprintf("%s-truncated-%d", in.Name, h)
	for i := range out.Messages {
		if len(out.Messages[i].Path) > h {
			out.Messages[i].Path = out.Messages[i].Path[:h]
		}
	}
	return out
}

// ButterflyProblem generates Ranade's lightly ("light") or heavily ("heavy") loaded
// problem on the N-input butterfly with messages of L flits (0: log N), seeded.
func ButterflyProblem(n int, load string, L int, seed uint64) (*model.Instance, error) {
	if load != instances.Light && load != instances.Heavy {
		// The caller names its flag (wormlab lower butterfly checks --traffic itself).
		return nil, fmt.Errorf("lower: butterfly traffic %q is neither %s nor %s", load, instances.Light, instances.Heavy)
	}
	return instances.Generate(instances.Spec{Kind: "butterfly", Size: n, Traffic: load, Flits: L, Seed: seed})
}

// ButterflyRow is the section 3 analysis of one butterfly problem.
type ButterflyRow struct {
	N    int    `json:"N"`
	Load string `json:"load"`
	Seed uint64 `json:"seed"`
	// M messages of L flits; LogN = n = log N levels; Trunc = l = min(L, n).
	M, L, LogN, Trunc int
	// C, CL, D are the message and flit congestion and the dilation of the full
	// problem; CPlusD = c_L + d.
	C, CL, D, CPlusD int
	// DeltaTrunc is the degree of the truncated path graph.
	DeltaTrunc int
	// Alpha bounds the independence number of the truncated path graph from above
	// (exact when AlphaExact); AlphaFound is the largest independent set found.
	Alpha, AlphaFound int
	AlphaExact        bool
	// ChiLower <= chi(P_l) <= ChiUpper.
	ChiLower, ChiUpper int
	// BoundAlpha = ceil(M / Alpha) L + n - 1 and BoundChi = ChiLower L + n - 1 are
	// the phase bounds (valid lower bounds on the makespan).
	BoundAlpha, BoundChi int
	// Best is lower.Best on the full problem, named by BestName.
	Best     int
	BestName string
	// Theorem is L l log N / (8 log^2 log N), logs to base 2 (seed 002, Theorem 2,
	// the constant as printed; an asymptotic statement, not a bound for small N).
	Theorem float64
	// PaperB is the independent-set size B = 8 N log^2 log N / l that Theorem 2
	// shows unlikely (logs base 2); its bound is M L / B. PaperBHolds reports
	// alpha < B on this instance (the theorem's event).
	PaperB      float64
	PaperBHolds bool
	// Optimum is a solver's proven optimum, filled in by the caller (0: not
	// attempted or not reached); OptimumModel names the model.
	Optimum      int    `json:",omitempty"`
	OptimumModel string `json:",omitempty"`
}

// Butterfly analyses a butterfly problem in (messages from inputs to outputs of the
// N-input butterfly, all of length L): truncation, exact or bounded independence
// and chromatic numbers of the truncated path graph with budget search nodes per
// component, the phase bounds, the theorem's formula, and lower.Best.
func Butterfly(in *model.Instance, budget int) (ButterflyRow, error) {
	var row ButterflyRow
	if len(in.Messages) == 0 {
		return row, fmt.Errorf("lower: butterfly: no messages")
	}
	ms := in.Measure()
	row.M, row.L, row.LogN = len(in.Messages), in.Messages[0].L, ms.D
	for i := range in.Messages {
		if in.Messages[i].L != row.L {
			return row, fmt.Errorf("lower: butterfly: message %q has %d flits, not %d like the others", in.Messages[i].ID, in.Messages[i].L, row.L)
		}
		if len(in.Messages[i].Path) != ms.D {
			return row, fmt.Errorf("lower: butterfly: message %q has %d hops, not log N = %d", in.Messages[i].ID, len(in.Messages[i].Path), ms.D)
		}
	}
	row.N = len(in.Net.Nodes) / (row.LogN + 1)
	row.Trunc = min(row.L, row.LogN)
	row.C, row.CL, row.D = ms.C, ms.CL, ms.D
	row.CPlusD = ms.CL + ms.D
	tr := Truncate(in, row.Trunc)
	g := PathGraph(tr)
	for v := 0; v < g.N; v++ {
		row.DeltaTrunc = max(row.DeltaTrunc, g.Degree(v))
	}
	is := MaxIndependentSet(g, budget)
	row.Alpha, row.AlphaFound, row.AlphaExact = is.Upper, len(is.Set), is.Exact
	row.ChiLower = 1
	for _, comp := range g.Components() {
		ch := Chromatic(g.Induced(comp), budget)
		row.ChiLower = max(row.ChiLower, ch.Lower)
		row.ChiUpper = max(row.ChiUpper, ch.Upper)
	}
	row.ChiLower = max(row.ChiLower, (row.M+row.Alpha-1)/row.Alpha)
	row.BoundAlpha = (row.M+row.Alpha-1)/row.Alpha*row.L + row.LogN - 1
	row.BoundChi = row.ChiLower*row.L + row.LogN - 1
	b := Best(in)
	row.Best, row.BestName = b.Value, b.Name
	if row.BoundChi > row.Best {
		row.Best, row.BestName = row.BoundChi, "truncated-phases"
	}
	n := float64(row.LogN)
	if ll := math.Log2(n); ll > 0 {
		row.Theorem = float64(row.L*row.Trunc) * n / (8 * ll * ll)
		row.PaperB = 8 * float64(row.N) * ll * ll / float64(row.Trunc)
		row.PaperBHolds = float64(row.Alpha) < row.PaperB
	}
	return row, nil
}
