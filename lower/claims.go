package lower

// The claims of Ranade, Schleimer and Wilkerson (seed 002), section 5, the Omega(cd)
// construction, each measured on the instance that Prime builds.

import (
	"encoding/json"
	"fmt"
	"math/big"
	"strings"

	"github.com/wormlab/wormlab/model"
)

// Claim is one statement of a paper checked on a built instance: Stated is the value
// the paper states (an equality "= 4" or a bound ">= 20", its formula evaluated),
// Value the quantity measured on the instance, Holds whether the measured value
// satisfies the statement, and Detail explains (and names a witness when the claim
// fails).
type Claim struct {
	Claim  string `json:"claim"`
	Stated string `json:"stated"`
	Holds  bool   `json:"holds"`
	Value  any    `json:"value"`
	Detail string `json:"detail"`
}

// primeRepaired reads the "repaired" flag of the instance's "topology" object.
func primeRepaired(in *model.Instance) bool {
	var top struct {
		Repaired bool `json:"repaired"`
	}
	if raw, ok := in.Extra["topology"]; ok {
		_ = json.Unmarshal(raw, &top)
	}
	return top.Repaired
}

// PrimeClaims checks every claim of seed 002, section 5 on the built instance in
// (from Prime with the same p and L), measuring each quantity on the instance
// rather than taking it from the formulas. For the repaired construction (its
// "topology" says so) the claims are the same with 2p + 2 levels and d = 2p + 1.
//
// The makespan claim holds when a bound of this package or of the model proves
// makespan >= p^2 L; when it does not, a legal bufferless schedule built from a
// colouring of the path graph (PhaseSchedule, checked by the verifier) shows how
// far below p^2 L the optimum is.
func PrimeClaims(in *model.Instance, p, L int) []Claim {
	repaired := primeRepaired(in)
	wantLevels, wantD := 2*p+1, 2*p
	if repaired {
		wantLevels, wantD = 2*p+2, 2*p+1
	}
	var cs []Claim
	add := func(claim, stated string, holds bool, value any, detail string, a ...any) {
		cs = append(cs, Claim{Claim: claim, Stated: stated, Holds: holds, Value: value, Detail: fmt.Sprintf(detail, a...)})
	}

	// the network: levels of p nodes, K_{p,p} and single-edge layers alternating.
	lv, ok := in.Net.Levelling()
	nLevels, shape := 0, ""
	if ok {
		for _, l := range lv {
			nLevels = max(nLevels, l+1)
		}
		width := make([]int, nLevels)
		for _, l := range lv {
			width[l]++
		}
		layer := make([]int, max(nLevels-1, 0))
		for _, e := range in.Net.Edges {
			layer[lv[e.From]]++
		}
		var sb strings.Builder
		good := true
		for l, w := range width {
			good = good && w == p
			if l < len(layer) {
				switch layer[l] {
				case p * p:
					sb.WriteString("K")
				case p:
					sb.WriteString("1")
				default:
					sb.WriteString("?")
					good = false
				}
			}
		}
		shape = sb.String()
		ok = good
	}
	wantShape := strings.Repeat("K1", p)
	if repaired {
		wantShape = strings.Repeat("1K", p) + "1"
	}
	add("levelled network", fmt.Sprintf("= %d", wantLevels), ok && nLevels == wantLevels && shape == wantShape, nLevels,
		"%d levels of %d nodes, layers %s (K = K_{p,p}, 1 = single edges); want %d levels, layers %s", nLevels, p, shape, wantLevels, wantShape)

	ms := in.Measure()
	add("worms", fmt.Sprintf("= %d", p*p), len(in.Messages) == p*p, len(in.Messages), "p^2 = %d messages of L = %d flits", p*p, L)
	add("message congestion", fmt.Sprintf("= %d", p), ms.C == p, ms.C, "max over edges of the messages using it; the paper: p = %d", p)
	add("flit congestion", fmt.Sprintf("= %d", p*L), ms.CL == p*L, ms.CL, "c_L; the paper: c = p L = %d", p*L)
	add("dilation", fmt.Sprintf("= %d", wantD), ms.D == wantD, ms.D, "longest path in hops; want %d", wantD)
	add("L >= d", fmt.Sprintf(">= %d", 2*p+1), ms.LMax >= ms.D && L >= 2*p+1, L, "every message is at least as long as the network (L = %d, d = %d, 2p + 1 = %d)", L, ms.D, 2*p+1)

	// every pair of paths shares an edge: counted on the path graph.
	g := PathGraph(in)
	n := len(in.Messages)
	missing, wi, wj := 0, -1, -1
	for i := 0; i < n; i++ {
		for j := i + 1; j < n; j++ {
			if !g.Adjacent(i, j) {
				if missing == 0 {
					wi, wj = i, j
				}
				missing++
			}
		}
	}
	if missing == 0 {
		add("every pair of paths shares an edge", "= 0 apart", true, 0, "all %d pairs meet (the path graph is complete)", n*(n-1)/2)
	} else {
		add("every pair of paths shares an edge", "= 0 apart", false, missing, "%d of %d pairs never meet; smallest witness: %s",
			missing, n*(n-1)/2, primeWitness(in, p, wi, wj, repaired))
	}

	// the makespan bound that follows.
	best := Best(in)
	claimed := p * p * L
	detail := fmt.Sprintf("best proven lower bound %d (%s: %s); claimed p^2 L = %d", best.Value, best.Name, best.Detail, claimed)
	if best.Value < claimed {
		col := Chromatic(g, DefaultBudget)
		if s, err := PhaseSchedule(in, col.Colour); err == nil && s.Makespan < claimed {
			detail += fmt.Sprintf("; refuted: a legal bufferless schedule of makespan %d exists (%d phases of L steps, one per colour of the path graph, verified)", s.Makespan, col.Upper)
		}
	}
	add("makespan >= p^2 L", fmt.Sprintf(">= %d", claimed), best.Value >= claimed, best.Value, "%s", detail)
	// 3 best >= c_L d in big integers: with lengths near model.MaxTotalFlits / p^2
	// both products pass the range of int.
	holds := new(big.Int).Mul(big.NewInt(3), big.NewInt(int64(best.Value))).Cmp(
		new(big.Int).Mul(big.NewInt(int64(ms.CL)), big.NewInt(int64(ms.D)))) >= 0
	ratio := float64(best.Value) / (float64(ms.CL) * float64(ms.D))
	add("Omega(cd): bound >= c_L d / 3", fmt.Sprintf(">= %.4f", 1.0/3), holds, fmt.Sprintf("%.4f", ratio),
		"proven bound / (c_L d) = %d / (%d * %d); the paper's p^2 L is c_L d / 2, the repaired p^2 L + 2p is at least c_L d / 3", best.Value, ms.CL, ms.D)
	return cs
}

// primeWitness explains why worms i and j never meet.
func primeWitness(in *model.Instance, p, i, j int, repaired bool) string {
	ri, rj := PrimeRows(p, i, repaired), PrimeRows(p, j, repaired)
	why := "they share no edge"
	if !repaired && i%p == j%p {
		why = fmt.Sprintf("i_b = j_b = %d and i_a != j_a, so i_b + k i_a = j_b + k j_a only at k = 0, where the vector holds the slope (%d != %d) instead: the paper's k_0 = (j_b - i_b)/(i_a - j_a) = 0 names no shared edge", i%p, i/p, j/p)
	} else if !repaired && i/p == j/p {
		why = fmt.Sprintf("i_a = j_a = %d: they share the node of level 0 but leave it by different edges of the K_{p,p}", i/p)
	}
	return fmt.Sprintf("%s (a=%d, b=%d) rows %v and %s (a=%d, b=%d) rows %v by level: %s",
		in.Messages[i].ID, i/p, i%p, ri, in.Messages[j].ID, j/p, j%p, rj, why)
}
