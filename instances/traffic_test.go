package instances

import (
	"errors"
	"fmt"
	"math/bits"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func mustT(t *testing.T) func(*Topology, error) *Topology {
	return func(tp *Topology, err error) *Topology {
		t.Helper()
		require.NoError(t, err)
		return tp
	}
}

// Complement, transpose and bit-reversal are permutations of the terminals, each
// its own inverse; complement and bit-reversal as on addresses (a -> T-1-a, bits
// reversed), transpose swapping the coordinates of a square mesh.
func TestFixedPermutations(t *testing.T) {
	must := mustT(t)
	for name, tp := range map[string]*Topology{
		"mesh4x4":    must(Mesh(4, 4)),
		"torus2x4x2": must(Torus(2, 4, 2)),
		"butterfly":  must(Butterfly(16)),
		"fat16":      must(FatTree(16)),
	} {
		for _, pattern := range []string{Complement, Transpose, BitReversal} {
			pairs, err := Pairs(tp, Traffic{Pattern: pattern}, Rand(1))
			require.NoError(t, err, "%s %s", name, pattern)
			T := len(tp.Sources)
			require.Len(t, pairs, T)
			src := map[int]int{}
			for i, s := range tp.Sources {
				src[s] = i
			}
			dst := map[int]int{}
			for j, d := range tp.Dests {
				dst[d] = j
			}
			f := make([]int, T)
			seen := map[int]bool{}
			for i, p := range pairs {
				require.Equal(t, tp.Sources[i], p.Src)
				f[i] = dst[p.Dst]
				require.False(t, seen[f[i]], "%s %s: not a permutation", name, pattern)
				seen[f[i]] = true
			}
			for a := range T {
				require.Equal(t, a, f[f[a]], "%s %s: an involution", name, pattern)
			}
			switch pattern {
			case Complement:
				assert.Equal(t, T-1, f[0])
			case BitReversal:
				k := bits.TrailingZeros(uint(T))
				assert.Equal(t, T>>1, f[1], "%s: 1 reversed over %d bits", name, k)
			}
		}
	}
	// A 4x4 mesh: transpose sends (x, y) to (y, x).
	tp := must(Mesh(4, 4))
	pairs, err := Pairs(tp, Traffic{Pattern: Transpose}, Rand(1))
	require.NoError(t, err)
	for _, p := range pairs {
		assert.Equal(t, tp.coords[p.Src][0], tp.coords[p.Dst][1])
		assert.Equal(t, tp.coords[p.Src][1], tp.coords[p.Dst][0])
	}
}

// Many-to-1 (seed 000, B.3): the first half of the terminals send to the last one,
// the second half to terminal 0, N messages in all.
func TestManyToOne(t *testing.T) {
	must := mustT(t)
	tp := must(FatTree(16))
	pairs, err := Pairs(tp, Traffic{Pattern: ManyToOne}, Rand(1))
	require.NoError(t, err)
	require.Len(t, pairs, 16)
	for i, p := range pairs {
		if i < 8 {
			assert.Equal(t, tp.Dests[15], p.Dst)
		} else {
			assert.Equal(t, tp.Dests[0], p.Dst)
		}
	}
}

// Hotspot traffic (seed 003): with fraction 1 every message goes to the hotspot,
// the centre of a mesh; with fraction 0.3 about 30% more than uniform do.
func TestHotspot(t *testing.T) {
	must := mustT(t)
	tp := must(Mesh(5, 5))
	centre, _ := tp.Net.Node("2,2")
	pairs, err := Pairs(tp, Traffic{Pattern: Hotspot, Hotspot: 1, Messages: 100}, Rand(3))
	require.NoError(t, err)
	for _, p := range pairs {
		require.Equal(t, centre, p.Dst)
	}
	pairs, err = Pairs(tp, Traffic{Pattern: Hotspot, Hotspot: 0.3, Messages: 10000}, Rand(3))
	require.NoError(t, err)
	hot := 0
	for _, p := range pairs {
		if p.Dst == centre {
			hot++
		}
	}
	// Expected 10000 * (0.3 + 0.7/25) = 3280; the seed is fixed, the margin wide.
	assert.InDelta(t, 3280, hot, 300)
}

// Local traffic (seed 003): every destination lies within the radius of its source
// (every coordinate, the shorter way round a torus; hop distance on a tree) and is
// not the source.
func TestLocalWithinRadius(t *testing.T) {
	must := mustT(t)
	for _, radius := range []int{1, 2} {
		for name, tp := range map[string]*Topology{
			"mesh6x5":  must(Mesh(6, 5)),
			"torus7x7": must(Torus(7, 7)),
			"tree":     must(RandomTree(20, Rand(2))),
		} {
			pairs, err := Pairs(tp, Traffic{Pattern: Local, Radius: radius, Messages: 500}, Rand(4))
			require.NoError(t, err)
			for _, p := range pairs {
				require.NotEqual(t, p.Src, p.Dst)
				if tp.sides != nil {
					for i, s := range tp.sides {
						dd := tp.coords[p.Src][i] - tp.coords[p.Dst][i]
						dd = max(dd, -dd)
						if tp.wrap[i] {
							dd = min(dd, s-dd)
						}
						require.LessOrEqual(t, dd, radius, "%s", name)
					}
				} else {
					path, err := tp.Path(p.Src, p.Dst, "", nil)
					require.NoError(t, err)
					require.LessOrEqual(t, len(path), radius, "%s", name)
				}
			}
		}
	}
}

// A local radius above the farthest a destination lies from a source (in the
// radius's distance: every coordinate on a mesh or torus, hops on a tree) draws
// as that farthest distance does: it is refused naming radius, and the farthest
// distance itself is accepted. The farthest distance is found here by every pair,
// by coordinates or by the tree's unique path, not by localReach's search.
func TestLocalRadiusAboveReach(t *testing.T) {
	must := mustT(t)
	for name, tp := range map[string]*Topology{
		"mesh6x5":  must(Mesh(6, 5)),
		"mesh4x4":  must(Mesh(4, 4)),
		"torus7x7": must(Torus(7, 7)),
		"torus4x6": must(Torus(4, 6)),
		"tree":     must(RandomTree(20, Rand(2))),
	} {
		R := 0
		for _, a := range tp.Sources {
			for _, b := range tp.Dests {
				if a == b {
					continue
				}
				d := 0
				if tp.sides != nil {
					for i, s := range tp.sides {
						dd := tp.coords[a][i] - tp.coords[b][i]
						dd = max(dd, -dd)
						if tp.wrap[i] {
							dd = min(dd, s-dd)
						}
						d = max(d, dd)
					}
				} else {
					path, err := tp.Path(a, b, "", nil)
					require.NoError(t, err)
					d = len(path)
				}
				R = max(R, d)
			}
		}
		_, err := Pairs(tp, Traffic{Pattern: Local, Radius: R, Messages: 50}, Rand(4))
		require.NoError(t, err, "%s radius %d", name, R)
		for _, radius := range []int{R + 1, 100} {
			_, err = Pairs(tp, Traffic{Pattern: Local, Radius: radius, Messages: 50}, Rand(4))
			var se *SpecError
			require.True(t, errors.As(err, &se), "%s radius %d: want a *SpecError, got %v", name, radius, err)
			require.Equal(t, "radius", se.Field, "%s", name)
			require.ErrorContains(t, err, fmt.Sprintf("%d is above %d,", radius, R), name)
		}
	}
}

// Ranade's problems (seed 002, 2.4): N messages (light) or N log N (heavy) from the
// inputs, log N messages per input, to outputs; default L = log N.
func TestRanadeProblems(t *testing.T) {
	for _, n := range []int{4, 16} {
		logN := bits.TrailingZeros(uint(n))
		for pattern, want := range map[string]int{Light: n, Heavy: n * logN} {
			in, err := Generate(Spec{Kind: "butterfly", Size: n, Traffic: pattern, Seed: 2})
			require.NoError(t, err)
			require.Len(t, in.Messages, want)
			require.Equal(t, logN, in.Flits)
			perInput := map[int]int{}
			for _, m := range in.Messages {
				require.Len(t, m.Path, logN)
				perInput[in.Net.Edges[m.Path[0]].From]++
			}
			require.Len(t, perInput, n)
			for _, c := range perInput {
				require.Equal(t, want/n, c)
			}
		}
	}
	_, err := Generate(Spec{Kind: "butterfly", Size: 8, Traffic: Light, Messages: 3})
	requireSpecError(t, err, "messages")
}

// Random shortest paths are uniform among the monotone paths: from (0,0) to (2,2)
// on a 3x3 mesh there are C(4,2) = 6, each drawn about 1/6 of the time.
func TestRandomShortestUniform(t *testing.T) {
	must := mustT(t)
	tp := must(Mesh(3, 3))
	a, _ := tp.Net.Node("0,0")
	b, _ := tp.Net.Node("2,2")
	r := Rand(5)
	count := map[string]int{}
	for range 6000 {
		p, err := tp.Path(a, b, RandomShortest, r)
		require.NoError(t, err)
		key := ""
		for _, name := range tp.Net.NodesOf(p) {
			key += name + " "
		}
		count[key]++
	}
	require.Len(t, count, 6)
	for k, c := range count {
		assert.InDelta(t, 1000, c, 150, "%s", k)
	}
}

// The complement on the butterfly fat-tree sends every worm through the top level,
// whose 2^(h-1) switches have 4 down-links each: c >= N / (2 sqrt N) = sqrt(N)/2
// (the congestion seed 000, B.3, states for this permutation). Up-links chosen by
// destination bits attain it; random up-links never beat it.
func TestFatTreeComplementCongestion(t *testing.T) {
	for _, n := range []int{16, 64, 256} {
		sqrt := 1 << (bits.TrailingZeros(uint(n)) / 2)
		for _, routing := range []string{Deterministic, RandomShortest} {
			in, err := Generate(Spec{Kind: "fat-tree", Size: n, Traffic: Complement, Routing: routing, Seed: 1})
			require.NoError(t, err)
			c := in.Measure().C
			if routing == Deterministic {
				assert.Equal(t, sqrt/2, c, "n=%d", n)
			} else {
				assert.GreaterOrEqual(t, c, sqrt/2, "n=%d", n)
			}
		}
	}
}

// Meshes and tori have prod(sides) nodes and a link (two edges) per neighbouring
// pair: (side-1) per line of a mesh dimension, side per line of a torus dimension
// of side >= 3.
func TestGridSizes(t *testing.T) {
	must := mustT(t)
	for _, sides := range [][]int{{2}, {5}, {3, 4}, {2, 3, 4}, {1, 6}, {3, 3, 3}} {
		for _, torus := range []bool{false, true} {
			var tp *Topology
			if torus {
				tp = must(Torus(sides...))
			} else {
				tp = must(Mesh(sides...))
			}
			n := 1
			for _, s := range sides {
				n *= s
			}
			links := 0
			for _, s := range sides {
				per := s - 1
				if torus && s >= 3 {
					per = s
				}
				links += per * n / s
			}
			assert.Len(t, tp.Net.Nodes, n, "%v", sides)
			assert.Len(t, tp.Net.Edges, 2*links, "%v torus=%v", sides, torus)
		}
	}
}

func requireSpecError(t *testing.T, err error, field string) {
	t.Helper()
	var se *SpecError
	require.True(t, errors.As(err, &se), "want a *SpecError, got %v", err)
	require.Equal(t, field, se.Field, "%v", err)
}

// Bad parameters are *SpecError naming the parameter (the flag of `wormlab gen`).
func TestSpecErrors(t *testing.T) {
	cases := []struct {
		spec  Spec
		field string
	}{
		{Spec{Kind: "hypercube"}, "kind"},
		{Spec{Kind: "mesh"}, "sides"},
		{Spec{Kind: "mesh", Sides: []int{0, 3}}, "sides"},
		{Spec{Kind: "line", Sides: []int{3}}, "sides"},
		{Spec{Kind: "line"}, "size"},
		{Spec{Kind: "line", Size: 1}, "size"},
		{Spec{Kind: "butterfly", Size: 12}, "size"},
		{Spec{Kind: "fat-tree", Size: 32}, "size"},
		{Spec{Kind: "kary-tree", K: -1}, "k"},
		{Spec{Kind: "kary-tree", Depth: -2}, "depth"},
		{Spec{Kind: "levelled", Size: 3, Depth: 1}, "depth"},
		{Spec{Kind: "line", Size: 4, Traffic: "zigzag"}, "traffic"},
		{Spec{Kind: "tree", Size: 4, Routing: OneBend, Traffic: Complement}, "routing"},
		{Spec{Kind: "mesh", Sides: []int{2, 2, 2}, Routing: OneBend}, "routing"},
		{Spec{Kind: "line", Size: 4, Flits: -1}, "flits"},
		{Spec{Kind: "line", Size: 4, Messages: -1}, "messages"},
		{Spec{Kind: "line", Size: 4, Messages: 1 << 40}, "messages"},
		{Spec{Kind: "levelled", Size: 1 << 32, Depth: 1 << 32}, "size"},
		{Spec{Kind: "mesh", Sides: []int{4, 1 << 62}}, "sides"},
		{Spec{Kind: "line", Size: 4, Flits: 1 << 61}, "flits"},
		{Spec{Kind: "torus", Sides: []int{1 << 32, 1 << 32}}, "sides"},
		{Spec{Kind: "line", Size: 4, Traffic: Local}, "radius"},
		{Spec{Kind: "line", Size: 4, Traffic: Hotspot, Hotspot: 2}, "hotspot"},
		{Spec{Kind: "line", Size: 6, Traffic: BitReversal}, "traffic"},
		{Spec{Kind: "mesh", Sides: []int{2, 3}, Traffic: Transpose}, "traffic"},
		{Spec{Kind: "levelled", Size: 3, Traffic: Complement}, "traffic"},
		{Spec{Kind: "tree", Size: 5, Traffic: Heavy}, "traffic"},
	}
	for _, c := range cases {
		_, err := Generate(c.spec)
		var se *SpecError
		require.True(t, errors.As(err, &se), "%+v: want a *SpecError, got %v", c.spec, err)
		require.Equal(t, c.field, se.Field, "%+v: %v", c.spec, err)
	}
	sides, err := ParseSides("4x3,2")
	require.NoError(t, err)
	require.Equal(t, []int{4, 3, 2}, sides)
	for _, bad := range []string{"", "4x", "x4", "4xx4", "4,"} {
		_, err = ParseSides(bad)
		requireSpecError(t, err, "sides")
	}
	_, err = ParseSides("4x-1")
	requireSpecError(t, err, "sides")
}

// On a levelled network every path between two nodes has the same length, and
// random-shortest draws one uniformly: counted by depth-first search, each of the
// paths from an input to an output appears about equally often.
func TestLevelledPathUniform(t *testing.T) {
	tp, err := Levelled(4, 3, 2, Rand(11))
	require.NoError(t, err)
	src := tp.Sources[0]
	// Count the paths to every output; pick the output with the most.
	var paths map[int]int
	var walk func(u int)
	walk = func(u int) {
		if len(tp.Net.Out(u)) == 0 {
			paths[u]++
			return
		}
		for _, e := range tp.Net.Out(u) {
			walk(tp.Net.Edges[e].To)
		}
	}
	paths = map[int]int{}
	walk(src)
	dst, most := -1, 0
	for d, c := range paths {
		if c > most || (c == most && d < dst) {
			dst, most = d, c
		}
	}
	require.GreaterOrEqual(t, most, 2, "a pair joined by several paths")
	r := Rand(12)
	count := map[string]int{}
	const draws = 3000
	for range draws {
		p, err := tp.Path(src, dst, RandomShortest, r)
		require.NoError(t, err)
		count[fmt.Sprint(p)]++
	}
	require.Len(t, count, most)
	for k, c := range count {
		assert.InDelta(t, draws/most, c, 0.2*float64(draws/most), "%s", k)
	}
}

// ParamReaders is what Generate does: a traffic's parameter changes the instance
// of its reader (and is recorded in its "traffic" extra) and no other pattern's,
// so wormlab gen, which refuses it with the others, refuses only what is ignored.
func TestParamReadersIsWhatGenerateReads(t *testing.T) {
	set := map[string]func(*Spec){
		"radius":  func(s *Spec) { s.Radius = 3 },
		"hotspot": func(s *Spec) { s.Hotspot = 0.9 },
	}
	require.Len(t, ParamReaders, len(set))
	for param, reader := range ParamReaders {
		for _, pattern := range Patterns {
			if pattern == Light || pattern == Heavy { // butterflies only; they read neither
				continue
			}
			base := Spec{Kind: "mesh", Sides: []int{8, 8}, Traffic: pattern, Messages: 40, Seed: 3, Radius: 1, Hotspot: 0.1}
			changed := base
			set[param](&changed)
			a, err := Generate(base)
			require.NoError(t, err, pattern)
			b, err := Generate(changed)
			require.NoError(t, err, pattern)
			_, recorded := b.Extra["traffic"]
			require.True(t, recorded)
			if pattern == reader {
				assert.NotEqual(t, a.Messages, b.Messages, "%s reads --%s", pattern, param)
				assert.Contains(t, string(b.Extra["traffic"]), `"`+param+`"`)
			} else {
				assert.Equal(t, a.Messages, b.Messages, "%s ignores --%s", pattern, param)
				assert.NotContains(t, string(b.Extra["traffic"]), `"`+param+`"`)
			}
		}
	}
}
