package offline

// The colorers' own bounds in the forms seed 002 (Ranade, Schleimer, Wilkerson),
// section 4, states them: Lemma 6 with section 4.5 for any k-entrant order, the tree
// of section 4.3 (k = 2) and the k-dimensional mesh of section 4.4. Plan.Bound is the
// sharper bound of one plan (each part's own c, d and L); these are the closed forms
// in the instance's c (message congestion), d (dilation) and L (largest length).

import (
	"fmt"

	"github.com/wormlab/wormlab/model"
)

// ColourBound returns section 4.5's largest colour for a k-entrant order, messages of
// at most l flits and message congestion c: (2L - 1) k (c - 1) + L ("any placement of
// k(c - 1) blocks of L unavailable colours must leave a block of L available colours
// somewhere in the range 1 .. (2L - 1) k (c - 1) + L"). Colours are 1-based and a
// message takes L of them, so its 0-based start is at most ColourBound - L
// (StartBound) and it is delivered by ColourBound - 1 + d (PartBound). For L = 1
// this is Lemma 6's k (c - 1) + 1.
func ColourBound(k, c, l int) int {
	if c == 0 {
		return 0
	}
	return StartBound(k, c, l) + l
}

// TreeBound returns the tree colorer's bound, section 4.3 with 4.5: the order is
// 2-entrant, so the makespan is at most (2L - 1) 2 (c - 1) + d + L - 1. It fails,
// as TreePlan does, when the network is not a forest or a path visits a node twice.
func TreeBound(in *model.Instance) (int, error) {
	if _, err := TreePlan(in, ""); err != nil {
		return 0, err
	}
	ms := in.Measure()
	return PartBound(2, ms.C, ms.D, ms.LMax), nil
}

// MeshBound returns the mesh colorer's bound for paths of one straight segment per
// dimension on a k-dimensional mesh, section 4.4 with 4.5: each of the 2^k k!
// classes is k-entrant (Lemma 7) and, laid one after another in time (doc.go says
// why the paper's stacking of colour ranges is not enough), the makespan is at most
// 2^k k! ((2L - 1) k (c - 1) + d + L - 1). The paper counts 2^k k! (k (c - 1) + 1)
// colours for L = 1, the d term once. It fails, as MeshPlan does, when the network
// has no mesh coordinates or a path does not fit.
func MeshBound(in *model.Instance) (int, error) {
	plan, err := MeshPlan(in)
	if err != nil {
		return 0, err
	}
	ms := in.Measure()
	return MeshClasses(plan.K) * PartBound(plan.K, ms.C, ms.D, ms.LMax), nil
}

// ColorerBound returns the bound Color proves for the order ("auto", "tree", "mesh"
// or "any"): Plan.Bound, the sum over the plan's parts of PartBound with each part's
// own congestion, dilation and length. It is at most TreeBound for the tree order,
// MeshBound for the mesh order, and PartBound(d, c, d, L) for the generic order.
func ColorerBound(in *model.Instance, order string) (int, error) {
	if err := in.Validate(); err != nil {
		return 0, err
	}
	plan, err := Choose(in, order, "")
	if err != nil {
		return 0, fmt.Errorf("offline: colorer bound: %w", err)
	}
	return plan.Bound(in), nil
}
