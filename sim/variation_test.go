package sim_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/wormlab/wormlab/sim"
	"github.com/wormlab/wormlab/topology"
)

// Each traffic pattern's defining property on the 8x8 torus (64 terminals).
func TestPatterns(t *testing.T) {
	net := mustNet(t, "torus:8x8")
	g := net.(*topology.Grid)
	r := rand.New(rand.NewPCG(1, 2))
	mk := func(name string, p sim.PatternParams) sim.Pattern {
		p.Net = net
		pat, err := sim.NewPattern(name, p)
		require.NoError(t, err, name)
		return pat
	}
	tr := mk("transpose", sim.PatternParams{})
	for s := range 64 {
		d := tr.Dest(s, r)
		require.Equal(t, []int{g.Coord(s, 1), g.Coord(s, 0)}, g.Coords(d), "transpose (x,y)->(y,x)")
	}
	require.Equal(t, 0b100110, mk("bitrev", sim.PatternParams{}).Dest(0b011001, r))
	require.Equal(t, 0b100110, mk("bitcomp", sim.PatternParams{}).Dest(0b011001, r))
	require.Equal(t, 0b110010, mk("shuffle", sim.PatternParams{}).Dest(0b011001, r))
	for s := range 64 {
		require.Equal(t, 6, g.Distance(s, mk("tornado", sim.PatternParams{}).Dest(s, r)), "tornado: 3 hops per dimension")
		require.Equal(t, 2, g.Distance(s, mk("neighbor", sim.PatternParams{}).Dest(s, r)))
	}
	perm := mk("randperm", sim.PatternParams{Seed: 5})
	seen := map[int]bool{}
	for s := range 64 {
		seen[perm.Dest(s, r)] = true
	}
	require.Len(t, seen, 64, "randperm is a permutation")
	loc := mk("local", sim.PatternParams{Radius: 2})
	hot := mk("hotspot", sim.PatternParams{Hot: []int{9, 10}, HotFraction: 0.5})
	hits := 0
	const n = 20000
	for i := range n {
		h := g.Distance(i%64, loc.Dest(i%64, r))
		require.True(t, h >= 1 && h <= 2, "local radius 2: %d", h)
		if d := hot.Dest(i%64, r); d == 9 || d == 10 {
			hits++
		}
	}
	// 0.5 + 0.5 * 2/64 of the packets hit a hot node
	require.InDelta(t, 0.5+0.5*2.0/64, float64(hits)/n, 0.02)
	u := mk("uniform", sim.PatternParams{})
	counts := make([]int, 64)
	for range n {
		counts[u.Dest(0, r)]++
	}
	for _, c := range counts {
		require.InDelta(t, n/64, c, 100)
	}
	_, err := sim.NewPattern("transpose", sim.PatternParams{Net: mustNet(t, "torus:8x4")})
	require.Error(t, err, "32 terminals: an odd power of two")
	_, err = sim.NewPattern("tornado", sim.PatternParams{Net: mustNet(t, "fattree:16")})
	require.Error(t, err)
}

// Both injection processes make rate packets per cycle on average; Bernoulli at
// most one per cycle, Poisson sometimes more (its count per cycle is Poisson).
func TestProcesses(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for _, p := range []sim.Process{sim.Bernoulli{}, sim.Poisson{}} {
		for _, rate := range []float64{0.01, 0.3, 0.9} {
			x, n := p.Next(-1, rate, r), 0
			multi := false
			last := -1.0
			for x < 200000 {
				if math.Floor(x) == last {
					multi = true
				}
				last = math.Floor(x)
				n++
				x = p.Next(x, rate, r)
			}
			require.InDelta(t, rate, float64(n)/200000, 0.05*rate+0.001, "%T %g", p, rate)
			_, bern := p.(sim.Bernoulli)
			if bern {
				require.False(t, multi, "Bernoulli: one per cycle")
			} else if rate >= 0.3 {
				require.True(t, multi, "Poisson: sometimes several")
			}
		}
	}
}

// Selection functions pick as documented among the candidates they are given.
func TestSelectors(t *testing.T) {
	c := []sim.Candidate{{Port: 1, VC: 0, Credits: 2}, {Port: 2, VC: 1, Credits: 5}, {Port: 3, VC: 0, Credits: 5}}
	require.Equal(t, 0, sim.FirstFree{}.Select(c, nil))
	require.Equal(t, 1, sim.MostCredits{}.Select(c, nil))
	r := rand.New(rand.NewPCG(1, 1))
	seen := map[int]bool{}
	for range 100 {
		seen[sim.RandomFree{}.Select(c, r)] = true
	}
	require.Len(t, seen, 3)
}

// Round-robin serves every persistent requester within n grants; fixed order
// always the lowest ID.
func TestArbiters(t *testing.T) {
	reqs := []sim.Request{{ID: 0}, {ID: 2}, {ID: 3}}
	rr := sim.RoundRobin{}.NewArbiter(4, nil)
	var got []int32
	for range 6 {
		w := reqs[rr.Pick(reqs)].ID
		rr.Granted(w)
		got = append(got, w)
	}
	require.Equal(t, []int32{0, 2, 3, 0, 2, 3}, got)
	fx := sim.FixedOrder{}.NewArbiter(4, nil)
	require.Equal(t, 0, fx.Pick(reqs))
	ra := sim.Random{}.NewArbiter(4, rand.New(rand.NewPCG(1, 1)))
	seen := map[int]bool{}
	for range 100 {
		seen[ra.Pick(reqs)] = true
	}
	require.Len(t, seen, 3)
}

// Packet size mixes: parsing, weights and the mean.
func TestSizesParse(t *testing.T) {
	z, err := sim.ParseSizes("1:0.8,16:0.2")
	require.NoError(t, err)
	require.InDelta(t, 4.0, z.Mean(), 1e-9)
	for _, bad := range []string{"0", "a", "4:0", "4:-1", ""} {
		_, err := sim.ParseSizes(bad)
		require.Error(t, err, bad)
	}
}
