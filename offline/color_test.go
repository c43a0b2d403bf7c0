package offline

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/wormlab/wormlab/instances"
	"github.com/wormlab/wormlab/model"
	"github.com/wormlab/wormlab/verify"
	"pgregory.net/rapid"
)

// equalLengths returns L when every message has length L, else 0.
func equalLengths(in *model.Instance) int {
	l := in.Messages[0].L
	for i := range in.Messages {
		if in.Messages[i].L != l {
			return 0
		}
	}
	return l
}

// checkPlanColouring checks one colouring of a plan against the paper's claims:
// the schedule is legal (verify.Schedule), the construction's entrance sets satisfy
// Definition 3 with at most plan.K edges, the smallest entrance sets of the order
// need at most plan.K edges, every start respects Lemma 6 with section 4.5 within
// its part, and the makespan respects the plan's bound.
func checkPlanColouring(t *rapid.T, in *model.Instance, res *Result) {
	plan := res.Plan
	require.NoError(t, verify.Schedule(in, res.Schedule), "the colouring must be a legal bufferless schedule")
	require.Equal(t, model.Bufferless, res.Schedule.Model)

	// Definition 3 for the construction's own entrance sets.
	k, err := CheckEntrances(in, plan.Parts, plan.Entrances())
	require.NoError(t, err)
	require.LessOrEqual(t, k, plan.K, "the construction's entrance sets are larger than claimed")
	// The smallest entrance sets of the same order, computed from scratch.
	min, err := MinEntrances(in, plan.Parts)
	require.NoError(t, err)
	if min.Exact {
		require.LessOrEqual(t, min.K, k, "the smallest entrance sets are larger than the construction's")
	}
	_, err = CheckEntrances(in, plan.Parts, min.Sets)
	require.NoError(t, err, "MinEntrances returned sets that are not entrance sets")

	// Lemma 6 with section 4.5, part by part.
	users := in.Users()
	part := make([]int, len(in.Messages))
	for pi, p := range plan.Parts {
		for _, i := range p {
			part[i] = pi
		}
	}
	for pi, p := range plan.Parts {
		// The part's congestion and largest length, counted here from the users.
		c, l := 0, 0
		for _, us := range users {
			n := 0
			for _, u := range us {
				if part[u.Msg] == pi {
					n++
				}
			}
			c = max(c, n)
		}
		for _, q := range p {
			l = max(l, in.Messages[q].L)
		}
		for _, q := range p {
			rel := res.Starts[q] - res.Offsets[pi]
			if res.ImprovedBy == "" {
				require.GreaterOrEqual(t, rel, 0)
				require.LessOrEqual(t, rel, windowBound(in, users, plan.Entrance(q), q, func(p int) bool { return part[p] == pi }),
					"Lemma 6 count: message %q starts later than its entrance edges allow", in.Messages[q].ID)
				require.LessOrEqual(t, rel, StartBound(plan.K, c, l), "Lemma 6 / 4.5: start above (2L-1)k(c-1)")
			}
		}
	}
	require.LessOrEqual(t, res.Schedule.Makespan, res.Constructed)
	require.LessOrEqual(t, res.Constructed, res.Bound, "the construction exceeds its proven bound")
}

// Section 4.3 (the tree order is 2-entrant), Lemma 6 and section 4.5: on a tree,
// every colouring is legal, the entrance sets have at most 2 edges, and every start
// is at most (2L-1) 2 (c-1); with L = 1 that is the paper's 2(c-1)+1 colours.
func TestTreeColouringLemma6(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		in := treeInstance(t)
		res, err := Color(in, Options{Order: OrderTree})
		require.NoError(t, err)
		require.Equal(t, OrderTree, res.Order)
		require.Equal(t, 2, res.K)
		checkPlanColouring(t, in, res)
		ms := in.Measure()
		if l := equalLengths(in); l > 0 {
			for _, s := range res.Starts {
				require.LessOrEqual(t, s, (2*l-1)*2*(ms.C-1), "Lemma 6 with 4.5 on a tree")
			}
		}
		min, err := MinEntrances(in, res.Plan.Parts)
		require.NoError(t, err)
		require.True(t, min.Exact, "on a tree two paths share one contiguous piece")
		require.LessOrEqual(t, min.K, 2, "section 4.3: the tree order is 2-entrant")
	})
}

// Lemma 7 (the mesh order is k-entrant within each class), Lemma 6 and section 4.5
// per class, and section 4.4's combination: every class fits in
// (2L-1) k (c-1) + L colours, and the classes, laid one after another in time, in
// at most 2^k k! times ((2L-1) k (c-1) + L + d - 1) steps.
func TestMeshColouringLemma7(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		k := rapid.IntRange(1, 3).Draw(t, "k")
		in := meshInstance(t, k)
		res, err := Color(in, Options{Order: OrderMesh})
		require.NoError(t, err)
		require.Equal(t, k, res.K)
		checkPlanColouring(t, in, res)
		require.LessOrEqual(t, len(res.Plan.Parts), MeshClasses(k))

		min, err := MinEntrances(in, res.Plan.Parts)
		require.NoError(t, err)
		require.True(t, min.Exact, "within a mesh class two paths share one contiguous piece")
		require.LessOrEqual(t, min.K, k, "Lemma 7: each mesh class order is k-entrant")

		ms := in.Measure()
		if l := equalLengths(in); l > 0 {
			colours := (2*l-1)*k*(ms.C-1) + l
			for pi, part := range res.Plan.Parts {
				for _, q := range part {
					require.LessOrEqual(t, res.Starts[q]-res.Offsets[pi]+l, colours,
						"section 4.5: class %s uses more than (2L-1)k(c-1)+L colours", res.Plan.Names[pi])
				}
			}
			require.LessOrEqual(t, res.Bound, MeshClasses(k)*(colours+ms.D-1))
			require.LessOrEqual(t, res.Schedule.Makespan, MeshClasses(k)*(colours+ms.D-1))
		}
	})
}

// Section 5's remark with Lemma 6: on any network every order is d-entrant (all of
// a path's edges as its entrance set), so every start is at most (2L-1) d (c-1);
// the count holds without the problem being simple.
func TestAnyColouringDEntrant(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		in := graphInstance(t)
		res, err := Color(in, Options{Order: OrderAny})
		require.NoError(t, err)
		checkPlanColouring(t, in, res)
		ms := in.Measure()
		require.Equal(t, ms.D, res.K)
		for q, s := range res.Starts {
			require.LessOrEqual(t, s, (2*ms.LMax-1)*len(in.Messages[q].Path)*(ms.C-1))
		}
	})
}

// The improvement pass keeps the schedule legal and never makes it longer than the
// construction, so the proven bound still holds.
func TestImproveNeverLonger(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		var in *model.Instance
		switch rapid.IntRange(0, 2).Draw(t, "kind") {
		case 0:
			in = treeInstance(t)
		case 1:
			in = meshInstance(t, rapid.IntRange(1, 3).Draw(t, "k"))
		default:
			in = graphInstance(t)
		}
		plain, err := Color(in, Options{})
		require.NoError(t, err)
		res, err := Color(in, Options{Improve: true})
		require.NoError(t, err)
		require.NoError(t, verify.Schedule(in, res.Schedule))
		require.Equal(t, plain.Schedule.Makespan, res.Constructed)
		require.LessOrEqual(t, res.Schedule.Makespan, plain.Schedule.Makespan)
		require.LessOrEqual(t, res.Schedule.Makespan, res.Bound)
		require.GreaterOrEqual(t, res.Schedule.Makespan, in.LowerBound().Value, "a legal schedule below the lower bound")
		again, err := Compact(in, res.Starts)
		require.NoError(t, err)
		require.LessOrEqual(t, makespan(in, again), res.Schedule.Makespan)
	})
}

// Determinism (package doc): ties are broken by message and node index, so the
// same instance gives the same starts, bit for bit, improvement pass included.
func TestColorDeterministic(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		in := meshInstance(t, 2)
		a, err := Color(in, Options{Improve: true})
		require.NoError(t, err)
		b, err := Color(in.Clone(), Options{Improve: true})
		require.NoError(t, err)
		require.Equal(t, a.Starts, b.Starts)
	})
}

// Choose's rule for "auto": the tree order of section 4.3 whenever the network is
// a forest and the paths are simple, else the mesh order of section 4.4 when the
// network has coordinates and every path fits a class (Lemma 7).
func TestAutoChooses(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		tree := treeInstance(t)
		res, err := Color(tree, Options{})
		require.NoError(t, err)
		assert.Equal(t, OrderTree, res.Order, "a tree (even with coords) takes the tree order")
		mesh := meshInstance(t, 2)
		res, err = Color(mesh, Options{})
		require.NoError(t, err)
		if IsTree(mesh.Net) {
			assert.Equal(t, OrderTree, res.Order)
		} else {
			assert.Equal(t, OrderMesh, res.Order)
		}
	})
}

// Lemma 6 with section 4.5, Lemma 7 and the d-entrant generic order on the
// generators' instances (every kind, its routings, random traffic): auto's choice
// is legal, its entrance sets are right, and the makespan respects the bound.
func TestGeneratedInstancesWithinBound(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		spec := instances.Spec{
			Seed:     rapid.Uint64().Draw(t, "seed"),
			Messages: rapid.IntRange(1, 80).Draw(t, "messages"),
			Flits:    rapid.IntRange(1, 4).Draw(t, "flits"),
		}
		switch spec.Kind = rapid.SampledFrom([]string{"tree", "kary-tree", "mesh", "torus", "butterfly", "fat-tree", "levelled", "line"}).Draw(t, "kind"); spec.Kind {
		case "tree", "line":
			spec.Size = rapid.IntRange(2, 40).Draw(t, "size")
		case "mesh", "torus":
			spec.Sides = rapid.SliceOfN(rapid.IntRange(2, 5), 1, 3).Draw(t, "sides")
			routings := []string{instances.DimensionOrder}
			if len(spec.Sides) <= 2 {
				routings = append(routings, instances.OneBend)
			}
			spec.Routing = rapid.SampledFrom(routings).Draw(t, "routing")
		case "butterfly", "levelled":
			spec.Size = rapid.SampledFrom([]int{2, 4, 8}).Draw(t, "size")
		case "fat-tree":
			spec.Size = rapid.SampledFrom([]int{4, 16}).Draw(t, "size")
		}
		in, err := instances.Generate(spec)
		require.NoError(t, err)
		if len(in.Messages) == 0 {
			t.Skip("every message had equal ends")
		}
		res, err := Color(in, Options{})
		require.NoError(t, err)
		checkPlanColouring(t, in, res)
		if spec.Kind == "mesh" && !IsTree(in.Net) {
			require.Equal(t, OrderMesh, res.Order, "dimension-order and one-bend paths fit the mesh order")
		}
	})
}

// Lemma (parts coloured apart): a part starts when the part before it has been
// delivered, so colouring each part alone from step 0 and shifting it by the
// lengths of the parts before it (Plan.colourWithin, on one to three
// goroutines) gives the starts and part offsets of one colorer placing every
// message in turn, each part from the delivery of the one before
// (Colorer.PlaceChecking on the plan's entrance positions, with every span
// recorded on a timeline), on mesh plans of several classes and on tree and
// generic plans of one part.
func TestColourPartsApartAsInTurn(t *testing.T) {
	apart := 0
	rapid.Check(t, func(t *rapid.T) {
		in, order := orderInstance(t)
		plan, err := Choose(in, order, "")
		require.NoError(t, err)
		ps := model.PathsOf(in)
		c, err := newColorer(ps)
		require.NoError(t, err)
		var wantOff []int
		offset := 0
		for _, part := range plan.Parts {
			wantOff = append(wantOff, offset)
			end := offset
			for _, i := range part {
				var check []int // nil: every position
				if pos := plan.positions(i); pos != nil {
					check = ints(pos)
				}
				s := c.PlaceChecking(i, offset, check)
				end = max(end, s+ps.D(i)+ps.L[i]-1)
			}
			offset = end
		}
		workers := rapid.IntRange(1, 3).Draw(t, "workers")
		got, gotOff, err := plan.colourOn(ps, plan.scan(ps, true), workers)
		require.NoError(t, err)
		require.Equal(t, c.Starts(), got, "starts")
		require.Equal(t, wantOff, gotOff, "part offsets")
		require.NoError(t, verify.Schedule(in, model.FromStarts(in, got)), "the parts' colourings, shifted, must be a legal bufferless schedule")
		if workers > 1 && len(plan.Parts) > 1 {
			apart++
		}
	})
	require.Positive(t, apart, "no draw coloured several parts on several goroutines")
}
