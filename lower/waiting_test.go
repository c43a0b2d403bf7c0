package lower

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"

	"github.com/wormlab/wormlab/model"
)

// waitingInstance draws 2 to 4 worms of mixed lengths (1 to 4 flits) on a levelled
// network of 4 to 5 levels and width 2, most of them running to the last level:
// the setting where a worm that waits can beat every no-wait schedule, so that
// conditions of the bounds that only matter for waiting worms are exercised.
func waitingInstance(t *rapid.T) *model.Instance {
	net := &model.Network{}
	in := &model.Instance{Name: "waiting", Net: net, Flits: 1}
	levels := rapid.IntRange(5, 6).Draw(t, "levels")
	width := 2
	for l := 0; l < levels; l++ {
		for x := 0; x < width; x++ {
			net.AddNode(fmt.Sprintf("%d.%d", l, x))
		}
	}
	for l := 0; l+1 < levels; l++ {
		for x := 0; x < width; x++ {
			for y := 0; y < width; y++ {
				net.AddEdge(l*width+x, (l+1)*width+y)
			}
		}
	}
	nw := rapid.IntRange(2, 3).Draw(t, "worms")
	for i := 0; i < nw; i++ {
		l0 := rapid.IntRange(0, levels-2).Draw(t, "start level")
		end := levels - 1
		if !rapid.Bool().Draw(t, "to the last level") {
			end = rapid.IntRange(l0+1, levels-1).Draw(t, "end level")
		}
		x := rapid.IntRange(0, width-1).Draw(t, "start row")
		var path []int
		for l := l0; l < end; l++ {
			y := rapid.IntRange(0, width-1).Draw(t, "row")
			path = append(path, net.EdgesBetween(l*width+x, (l+1)*width+y)[0])
			x = y
		}
		in.Messages = append(in.Messages, model.Message{ID: fmt.Sprintf("m%d", i), Path: path, L: rapid.IntRange(1, 3).Draw(t, "L")})
	}
	return in
}

// deliveries returns every vector of delivery times D_i = t_d + L - 1 that a legal
// wormhole schedule of makespan at most horizon reaches (MODEL.md, rule 2: the
// holdings after every step are disjoint), by exhaustive search over the move
// counts. Exponential; tiny instances only.
func deliveries(in *model.Instance, horizon int) [][]int {
	n := len(in.Messages)
	d := make([]int, n)
	L := make([]int, n)
	for i := range in.Messages {
		d[i], L[i] = len(in.Messages[i].Path), in.Messages[i].L
	}
	legal := func(h []int) bool {
		owner := map[int]bool{}
		for i := range h {
			lo, hi := holds(h[i], d[i], L[i])
			for k := lo; k <= hi; k++ {
				e := in.Messages[i].Path[k-1]
				if owner[e] {
					return false
				}
				owner[e] = true
			}
		}
		return true
	}
	type state struct{ h, del []int }
	key := func(s state) string { return fmt.Sprint(s.h, s.del) }
	layer := []state{{make([]int, n), make([]int, n)}}
	var out [][]int
	for t := 0; t < horizon && len(layer) > 0; t++ {
		seen := map[string]bool{}
		var next []state
		for _, s := range layer {
			var free []int
			for i := range s.h {
				if s.h[i] < d[i] {
					free = append(free, i)
				}
			}
			for mask := 0; mask < 1<<len(free); mask++ {
				g := state{append([]int(nil), s.h...), append([]int(nil), s.del...)}
				for i := range g.h {
					if g.h[i] >= d[i] && g.h[i] < d[i]+L[i] {
						g.h[i]++ // draining, then the last move that frees the last edge
					}
				}
				for b, i := range free {
					if mask&(1<<b) != 0 {
						g.h[i]++
					}
				}
				all := true
				for i := range g.h {
					if g.del[i] == 0 && g.h[i] == d[i]+L[i]-1 {
						g.del[i] = t + 1
					}
					all = all && g.del[i] > 0
				}
				if !legal(g.h) {
					continue
				}
				if all {
					out = append(out, g.del)
					continue
				}
				if k := key(g); !seen[k] {
					seen[k] = true
					next = append(next, g)
				}
			}
		}
		layer = next
	}
	return out
}

// The separation lemma of AlignedConflicts (r <= min(L_i, L_j) - 1 at the shared
// edge implies D_j >= D_i + L_j or D_i >= D_j + L_i), checked against every legal
// wormhole schedule up to two steps beyond the optimum, waiting worms included, on
// instances where waiting matters.
func TestSeparationLemmaWormhole(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		in := waitingInstance(t)
		require.NoError(t, in.Validate())
		g := AlignedConflicts(in)
		opt := wormholeOptimum(in)
		ds := deliveries(in, opt+2)
		require.NotEmpty(t, ds)
		for _, del := range ds {
			for i := range in.Messages {
				for j := i + 1; j < len(in.Messages); j++ {
					if !g.Adjacent(i, j) {
						continue
					}
					li, lj := in.Messages[i].L, in.Messages[j].L
					if !(del[j] >= del[i]+lj || del[i] >= del[j]+li) {
						t.Fatalf("%s and %s aligned-conflict but are delivered at %d and %d (L %d, %d)",
							in.Messages[i].ID, in.Messages[j].ID, del[i], del[j], li, lj)
					}
				}
			}
		}
	})
}

// Every bound of Bounds and Best is at most the exact wormhole optimum on instances
// where waiting helps (levelled networks, mixed lengths): the bounds must hold for
// schedules in which worms wait, not only for no-wait ones.
func TestBoundsBelowOptimumWithWaiting(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		in := waitingInstance(t)
		require.NoError(t, in.Validate())
		opt := wormholeOptimum(in)
		for _, b := range Bounds(in) {
			if b.Value > opt {
				t.Fatalf("bound %s = %d above the wormhole optimum %d (%s)", b.Name, b.Value, opt, b.Detail)
			}
		}
		if b := Best(in); b.Value > opt {
			t.Fatalf("Best %s = %d above the optimum %d", b.Name, b.Value, opt)
		}
	})
}

// AlignedConflicts is exactly its definition, recomputed here pair by pair: i ~ j
// iff some edge e lies on both paths with the same number r of hops after it and
// r <= min(L_i, L_j) - 1. (The separation test above checks that no pair is there
// wrongly; this one that none is missing.)
func TestAlignedConflictsDefinition(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		var in *model.Instance
		if rapid.Bool().Draw(t, "waiting") {
			in = waitingInstance(t)
		} else {
			in = tinyInstance(t)
		}
		g := AlignedConflicts(in)
		for i := range in.Messages {
			for j := range in.Messages {
				if i == j {
					continue
				}
				mi, mj := &in.Messages[i], &in.Messages[j]
				want := false
				for ki, e := range mi.Path {
					for kj, f := range mj.Path {
						ri, rj := len(mi.Path)-1-ki, len(mj.Path)-1-kj
						if e == f && ri == rj && ri <= min(mi.L, mj.L)-1 {
							want = true
						}
					}
				}
				require.Equal(t, want, g.Adjacent(i, j), "%s, %s", mi.ID, mj.ID)
			}
		}
	})
}

// The witness for the aligned-conflict condition r <= min(L_i, L_j) - 1: three
// one-flit worms of 4 hops on a levelled network of width 2. m1 meets m2 on its
// first edge (r = 3) and m0 on its second (r = 2); only m0 and m2 meet at the end
// (r = 0). Without the condition the three form an aligned clique and the clique
// bound claims 3 + 4 - 1 = 6, but a schedule in which a worm waits one step has
// makespan 5 (every no-wait schedule needs 6: waiting helps).
func TestAlignedConditionWitness(t *testing.T) {
	in, err := model.ParseInstance([]byte(`{"name": "aligned-witness",
	  "network": {"edges": [["0.0","1.0"], ["0.0","1.1"], ["0.1","1.0"], ["0.1","1.1"], ["1.0","2.0"], ["1.0","2.1"], ["1.1","2.0"], ["1.1","2.1"],
	    ["2.0","3.0"], ["2.0","3.1"], ["2.1","3.0"], ["2.1","3.1"], ["3.0","4.0"], ["3.0","4.1"], ["3.1","4.0"], ["3.1","4.1"]]},
	  "flits": 1,
	  "messages": [{"id": "m0", "path": ["0.1","1.0","2.0","3.1","4.0"]}, {"id": "m1", "path": ["0.0","1.0","2.0","3.0","4.0"]},
	    {"id": "m2", "path": ["0.0","1.0","2.1","3.1","4.0"]}]}`))
	require.NoError(t, err)
	opt := wormholeOptimum(in)
	require.Equal(t, 5, opt)
	bopt, _ := bufferlessOptimum(in)
	require.Equal(t, 6, bopt)
	for _, b := range Bounds(in) {
		require.LessOrEqual(t, b.Value, opt, "bound %s (%s)", b.Name, b.Detail)
	}
	require.LessOrEqual(t, Best(in).Value, opt)
	g := AlignedConflicts(in)
	require.True(t, g.Adjacent(0, 2))
	require.False(t, g.Adjacent(0, 1))
	require.False(t, g.Adjacent(1, 2))
}
