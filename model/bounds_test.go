package model_test

import (
	"os"
	"testing"

	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"

	"github.com/wormlab/wormlab/model"
	"github.com/wormlab/wormlab/verify"
)

// holds returns the edges (path positions 0-based) message m holds at time t under
// crossing times cross, literally as MODEL.md rule 2 states it: h = moves made by
// time t, the moves being the steps t_1 .. t_d, then t_d+1 .. t_d+L (the last one
// empties the worm); the worm holds e_k for max(1, h-L+1) <= k <= min(h, d).
func holds(m *model.Message, cross []int, t int) (lo, hi int) {
	d, l := len(m.Path), m.L
	h := 0
	for _, c := range cross {
		if c <= t {
			h++
		}
	}
	if last := cross[d-1]; t > last {
		h += min(t-last, l)
	}
	return max(1, h-l+1) - 1, min(h, d) - 1
}

// clash reports whether messages a and b, with the given crossing times, hold a
// common edge at some time 1 .. horizon.
func clash(in *model.Instance, a, b int, ca, cb []int, horizon int) bool {
	ma, mb := &in.Messages[a], &in.Messages[b]
	for t := 1; t <= horizon; t++ {
		alo, ahi := holds(ma, ca, t)
		blo, bhi := holds(mb, cb, t)
		for k := alo; k <= ahi; k++ {
			for j := blo; j <= bhi; j++ {
				if ma.Path[k] == mb.Path[j] {
					return true
				}
			}
		}
	}
	return false
}

// bruteOptimum finds the least makespan of a legal wormhole schedule by trying every
// horizon H = 1, 2, ... and every choice of increasing crossing times with
// delivery t_d + L - 1 <= H, message by message, keeping only choices that do not
// clash with the messages already placed. Running the worms one after another is
// legal with makespan sum_i (d_i + L_i - 1), so the search ends. Exponential: for
// instances of a few messages with paths of a few edges only.
func bruteOptimum(in *model.Instance) (int, [][]int) {
	serial := 0
	for _, m := range in.Messages {
		serial += len(m.Path) + m.L - 1
	}
	for h := 1; h <= serial; h++ {
		cross := make([][]int, len(in.Messages))
		var place func(i int) bool
		place = func(i int) bool {
			if i == len(in.Messages) {
				return true
			}
			m := &in.Messages[i]
			d := len(m.Path)
			c := make([]int, d)
			var choose func(k, from int) bool
			choose = func(k, from int) bool {
				if k == d {
					for j := range i {
						if clash(in, i, j, c, cross[j], h+1) {
							return false
						}
					}
					cross[i] = append([]int(nil), c...)
					return place(i + 1)
				}
				// t_k >= from, and room for the remaining d-k-1 crossings and the tail.
				for t := from; t+(d-k-1)+m.L-1 <= h; t++ {
					c[k] = t
					if choose(k+1, t+1) {
						return true
					}
				}
				return false
			}
			return choose(0, 1)
		}
		if place(0) {
			return h, cross
		}
	}
	panic("bruteOptimum: the serial schedule was not found")
}

// MODEL.md, lower bounds: every bound LowerBounds reports (d + L - 1, c_L and the
// per-edge Jackson bound of EdgeBound) is at most the makespan of every legal
// wormhole schedule, in particular of an optimal one found by exhaustive search.
// The schedule the search finds is legal by the verifier too.
func TestLowerBoundsBelowBruteOptimum(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		in := genInstance(3, 3, 2).Draw(t, "instance")
		if len(in.Messages) == 0 {
			t.Skip("no messages")
		}
		opt, cross := bruteOptimum(in)
		s := model.NewSchedule(in, model.Wormhole, cross)
		require.Equal(t, opt, s.Makespan)
		require.NoError(t, verify.Schedule(in, s))
		for _, b := range in.LowerBounds() {
			require.LessOrEqual(t, b.Value, opt, "bound %s (%s) above the optimum", b.Name, b.Detail)
		}
		require.LessOrEqual(t, in.LowerBound().Value, opt)
		if len(in.Messages) == 1 {
			m := in.Messages[0]
			require.Equal(t, len(m.Path)+m.L-1, opt, "a lone worm runs unhindered")
			require.Equal(t, opt, in.LowerBound().Value)
		}
	})
}

// The per-edge bound dominates the simple ones edge by edge (bounds.go, EdgeBound's
// proof): EdgeBound(users of e) >= d_i + L_i - 1 for every user i, and >= the flit
// load of e (the c_L bound at e); and LowerBounds reports exactly max_i d_i+L_i-1
// and c_L for the simple bounds, with witnesses that attain them.
func TestEdgeBoundDominates(t *testing.T) {
	check := func(t *rapid.T, in *model.Instance) {
		ms := in.Measure()
		best := 0
		for e, us := range in.Users() {
			if len(us) == 0 {
				continue
			}
			eb := in.EdgeBound(us)
			for _, u := range us {
				m := in.Messages[u.Msg]
				require.GreaterOrEqual(t, eb, len(m.Path)+m.L-1, "edge %d, message %q", e, m.ID)
			}
			require.GreaterOrEqual(t, eb, ms.FlitLoad[e], "edge %d", e)
			best = max(best, eb)
		}
		dil := 0
		for _, m := range in.Messages {
			dil = max(dil, len(m.Path)+m.L-1)
		}
		bs := in.LowerBounds()
		byName := map[string]model.Bound{}
		for _, b := range bs {
			byName[b.Name] = b
		}
		require.Equal(t, dil, byName[model.BoundDilation].Value)
		require.Equal(t, ms.CL, byName[model.BoundFlits].Value)
		require.Equal(t, best, byName[model.BoundEdge].Value)
		if len(in.Messages) > 0 {
			w := in.Messages[byName[model.BoundDilation].Msg]
			require.Equal(t, dil, len(w.Path)+w.L-1)
			require.Equal(t, ms.CL, ms.FlitLoad[byName[model.BoundFlits].Edge])
			require.Equal(t, best, in.EdgeBound(in.Users()[byName[model.BoundEdge].Edge]))
		}
	}
	t.Run("multigraphs", rapid.MakeCheck(func(t *rapid.T) { check(t, genInstance(8, 6, 4).Draw(t, "instance")) }))
	t.Run("generated", rapid.MakeCheck(func(t *rapid.T) { check(t, genGenerated().Draw(t, "instance")) }))
}

// The instance of MODEL.md: its example schedule takes 8 steps, but exhaustive
// search finds 7, which the flit congestion of edge b->c (7 flits) shows optimal.
func TestModelExampleOptimum(t *testing.T) {
	in, err := model.ParseInstance([]byte(exampleJSON))
	require.NoError(t, err)
	opt, cross := bruteOptimum(in)
	require.Equal(t, 7, opt)
	require.NoError(t, verify.Schedule(in, model.NewSchedule(in, model.Wormhole, cross)))
	require.Equal(t, 7, in.LowerBound().Value)
	// bruteOptimum tried horizon 6 first and found nothing; for instance, the
	// natural squeeze of m2 one step earlier collides with m0 on b->c.
	six := model.NewSchedule(in, model.Wormhole, [][]int{{1, 4}, {1}, {4, 5}})
	require.Error(t, verify.Schedule(in, six), "m2 would enter b->c while m0 holds it")
}

// TestJacksonBoundMatchesEdgeBound checks that the exported one-machine bound is the
// one EdgeBound applies to an edge's users (MODEL.md's per-edge bound): release k,
// processing L, tail d - k.
func TestJacksonBoundMatchesEdgeBound(t *testing.T) {
	f, err := os.Open("../instances/mesh6x6-hotspot.json")
	require.NoError(t, err)
	defer f.Close()
	in, err := model.ReadInstance(f)
	require.NoError(t, err)
	for _, us := range in.Users() {
		var jobs []model.Job
		for _, u := range us {
			m := &in.Messages[u.Msg]
			jobs = append(jobs, model.Job{R: u.Pos + 1, P: m.L, Q: len(m.Path) - u.Pos - 1})
		}
		before := append([]model.Job(nil), jobs...)
		require.Equal(t, in.EdgeBound(us), model.JacksonBound(jobs))
		require.Equal(t, before, jobs, "JacksonBound must not reorder its argument")
	}
	// Released at 1 and 2: the job with the long tail preempts (slots 2-3, then 5
	// steps: 8); the other ends at slot 6.
	require.Equal(t, 8, model.JacksonBound([]model.Job{{R: 1, P: 4, Q: 0}, {R: 2, P: 2, Q: 5}}))
	require.Equal(t, 0, model.JacksonBound(nil))
}

// LowerBounds solves only the edges whose upper bound r_max + sum L - 1 + q_max
// reaches the best bound found (bounds.go, bestEdgeBound), in batches: the edge and
// value it reports are those of solving every edge (EdgeBound over Users), the
// first edge in index order on a tie, whatever the batch size.
func TestBestEdgeBoundAsEveryEdge(t *testing.T) {
	check := func(t *rapid.T, in *model.Instance) {
		edge, value := -1, 0
		for e, us := range in.Users() {
			if len(us) == 0 {
				continue
			}
			if v := in.EdgeBound(us); edge < 0 || v > value {
				edge, value = e, v
			}
		}
		minBatch := rapid.IntRange(1, 40).Draw(t, "minBatch")
		gotEdge, gotValue := in.BestEdgeBound(minBatch)
		require.Equal(t, edge, gotEdge)
		require.Equal(t, value, gotValue)
	}
	t.Run("multigraphs", rapid.MakeCheck(func(t *rapid.T) { check(t, genInstance(12, 6, 4).Draw(t, "instance")) }))
	t.Run("generated", rapid.MakeCheck(func(t *rapid.T) { check(t, genGenerated().Draw(t, "instance")) }))
}
