package lower

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/wormlab/wormlab/model"
	"github.com/wormlab/wormlab/verify"
	"pgregory.net/rapid"
)

// holds reports the 1-based range of edges a worm of d hops and L flits holds after
// h moves (MODEL.md, legality rule 2); lo > hi when it holds none.
func holds(h, d, L int) (lo, hi int) {
	return max(1, h-L+1), min(h, d)
}

// wormholeOptimum is the exact optimum makespan in the wormhole model, found by
// breadth-first search over the vectors of move counts: in each step every worm
// whose head has arrived moves (it drains), every other worm may move or wait, and
// the holdings after the step must be pairwise disjoint. Exponential; tiny
// instances only.
func wormholeOptimum(in *model.Instance) int {
	n := len(in.Messages)
	d := make([]int, n)
	L := make([]int, n)
	for i := range in.Messages {
		d[i], L[i] = len(in.Messages[i].Path), in.Messages[i].L
	}
	key := func(h []int) string { return fmt.Sprint(h) }
	done := func(h []int) bool {
		for i := range h {
			if h[i] < d[i]+L[i]-1 {
				return false
			}
		}
		return true
	}
	legal := func(h []int) bool {
		owner := map[int]int{}
		for i := range h {
			lo, hi := holds(h[i], d[i], L[i])
			for k := lo; k <= hi; k++ {
				e := in.Messages[i].Path[k-1]
				if _, ok := owner[e]; ok {
					return false
				}
				owner[e] = i
			}
		}
		return true
	}
	start := make([]int, n)
	seen := map[string]bool{key(start): true}
	layer := [][]int{start}
	for t := 0; ; t++ {
		for _, h := range layer {
			if done(h) {
				return t
			}
		}
		var next [][]int
		for _, h := range layer {
			var free []int
			for i := range h {
				if h[i] < d[i] {
					free = append(free, i)
				}
			}
			for mask := 0; mask < 1<<len(free); mask++ {
				g := append([]int(nil), h...)
				for i := range g {
					if g[i] >= d[i] && g[i] < d[i]+L[i] {
						g[i]++
					}
				}
				for b, i := range free {
					if mask&(1<<b) != 0 {
						g[i]++
					}
				}
				if k := key(g); !seen[k] && legal(g) {
					seen[k] = true
					next = append(next, g)
				}
			}
		}
		layer = next
	}
}

// bufferlessOptimum is the exact optimum in the bufferless model by depth-first
// search over start delays, with its schedule.
func bufferlessOptimum(in *model.Instance) (int, []int) {
	n := len(in.Messages)
	ub := 0
	for i := range in.Messages {
		ub += len(in.Messages[i].Path) + in.Messages[i].L
	}
	best, bestS := ub+1, []int(nil)
	s := make([]int, n)
	conflict := func(i, j int) bool {
		mi, mj := &in.Messages[i], &in.Messages[j]
		for ki, e := range mi.Path {
			for kj, f := range mj.Path {
				if e == f {
					// message i holds e during steps s+k .. s+k+L-1 (k 1-based).
					ai, bi := s[i]+ki+1, s[i]+ki+mi.L
					aj, bj := s[j]+kj+1, s[j]+kj+mj.L
					if ai <= bj && aj <= bi {
						return true
					}
				}
			}
		}
		return false
	}
	var dfs func(i, mk int)
	dfs = func(i, mk int) {
		if mk >= best {
			return
		}
		if i == n {
			best, bestS = mk, append([]int(nil), s...)
			return
		}
		m := &in.Messages[i]
		for st := 0; st+len(m.Path)+m.L-1 < best; st++ {
			s[i] = st
			ok := true
			for j := 0; j < i && ok; j++ {
				ok = !conflict(i, j)
			}
			if ok {
				dfs(i+1, max(mk, st+len(m.Path)+m.L-1))
			}
		}
	}
	dfs(0, 0)
	return best, bestS
}

// tinyInstance draws up to 4 worms of up to 3 hops and 3 flits on a small levelled
// network (any start level, so paths need not be aligned) or on a bidirected ring.
func tinyInstance(t *rapid.T) *model.Instance {
	net := &model.Network{}
	in := &model.Instance{Name: "tiny", Net: net, Flits: 1}
	nw := rapid.IntRange(1, 4).Draw(t, "worms")
	if rapid.Bool().Draw(t, "ring") {
		size := rapid.IntRange(3, 5).Draw(t, "ring size")
		for v := 0; v < size; v++ {
			net.AddNode(fmt.Sprint(v))
		}
		cw := make([]int, size)
		ccw := make([]int, size)
		for v := 0; v < size; v++ {
			cw[v], ccw[(v+1)%size] = net.AddLink(v, (v+1)%size)
		}
		for i := 0; i < nw; i++ {
			v := rapid.IntRange(0, size-1).Draw(t, "start")
			d := rapid.IntRange(1, min(3, size-1)).Draw(t, "hops")
			dir := rapid.Bool().Draw(t, "clockwise")
			var path []int
			for k := 0; k < d; k++ {
				if dir {
					path = append(path, cw[v])
					v = (v + 1) % size
				} else {
					path = append(path, ccw[v])
					v = (v - 1 + size) % size
				}
			}
			in.Messages = append(in.Messages, model.Message{ID: fmt.Sprintf("m%d", i), Path: path, L: rapid.IntRange(1, 3).Draw(t, "L")})
		}
		return in
	}
	levels, width := 4, rapid.IntRange(1, 2).Draw(t, "width")
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
	for i := 0; i < nw; i++ {
		l0 := rapid.IntRange(0, levels-2).Draw(t, "start level")
		d := rapid.IntRange(1, levels-1-l0).Draw(t, "hops")
		x := rapid.IntRange(0, width-1).Draw(t, "start row")
		var path []int
		for k := 0; k < d; k++ {
			y := rapid.IntRange(0, width-1).Draw(t, "row")
			path = append(path, net.EdgesBetween((l0+k)*width+x, (l0+k+1)*width+y)[0])
			x = y
		}
		in.Messages = append(in.Messages, model.Message{ID: fmt.Sprintf("m%d", i), Path: path, L: rapid.IntRange(1, 3).Draw(t, "L")})
	}
	return in
}

// Every bound of Bounds (the separation lemma of AlignedConflicts and its clique,
// colouring, independence and prefix corollaries, the edge bounds, the disjunctive
// program) and Best is at most the exact wormhole optimum, which is at most the
// exact bufferless optimum; and the disjunctive program searched to the end is the
// optimum (Disjunctive is exact).
func TestBoundsBelowOptimum(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		in := tinyInstance(t)
		require.NoError(t, in.Validate())
		opt := wormholeOptimum(in)
		bopt, starts := bufferlessOptimum(in)
		require.NoError(t, verify.Schedule(in, model.FromStarts(in, starts)))
		require.LessOrEqual(t, opt, bopt)
		for _, b := range Bounds(in) {
			if b.Value > opt {
				t.Fatalf("bound %s = %d above the wormhole optimum %d (%s)", b.Name, b.Value, opt, b.Detail)
			}
		}
		if b := Best(in); b.Value > opt {
			t.Fatalf("Best %s = %d above the optimum %d", b.Name, b.Value, opt)
		}
		// The disjunctive program is the wormhole model exactly: a complete search
		// finds the optimum of the step-by-step search.
		v, exact := Disjunctive(in, 0, 0)
		require.True(t, exact)
		require.Equal(t, opt, v, "Disjunctive against the exhaustive optimum")
	})
}

// The separation lemma of AlignedConflicts, checked on the optimal bufferless
// schedule of each tiny instance (a legal wormhole schedule): two aligned-conflicting
// messages are delivered at least the follower's L apart.
func TestSeparationLemmaBufferless(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		in := tinyInstance(t)
		_, starts := bufferlessOptimum(in)
		g := AlignedConflicts(in)
		for i := range in.Messages {
			for j := range in.Messages {
				if i == j || !g.Adjacent(i, j) {
					continue
				}
				di := starts[i] + len(in.Messages[i].Path) + in.Messages[i].L - 1
				dj := starts[j] + len(in.Messages[j].Path) + in.Messages[j].L - 1
				if dj >= di {
					require.GreaterOrEqual(t, dj-di, in.Messages[j].L, "messages %d, %d", i, j)
				}
			}
		}
	})
}
