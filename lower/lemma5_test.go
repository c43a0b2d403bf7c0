package lower_test

// Seed 002 (Ranade, Schleimer, Wilkerson), section 3, Lemma 5: "if a multi-set of
// B >= 2N / log N paths are chosen uniformly and independently at random in the
// truncated N-input butterfly then the probability that they are independent is at
// most exp(-l B^2 / (4 N log log N))". Its proof bounds the probability that no two
// paths meet at a node of level j log n (n = log N, j = 1 .. l / log n); but
// independence (no edge of the path graph) only forbids sharing an edge, and two
// paths that enter a node by its two in-edges and leave it by its two out-edges (or
// end there) share none. The lemma fails: exactly at N = 4, B = 4, and by Monte Carlo
// with one path per input at N = 16, B = 16. The proof's own event stays under the
// bound in every case here.

import (
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/wormlab/wormlab/instances"
	"github.com/wormlab/wormlab/internal/stattest"
)

// truncatedButterfly holds the paths of the truncated N-input butterfly (its first
// l levels) as wormlab's butterfly routes them: paths[r][x] is the path from input r
// to the node of level l whose row is r with its low l bits replaced by x.
type truncatedButterfly struct {
	N, l, logN int
	paths      [][][]int
	// nodes[e] is the head node of edge e, level[v] the level of node v.
	head  []int
	level []int
	// judge's scratch: stamps per edge and node, the level step log2 n.
	edgeSeen, nodeSeen []int
	stamp, step        int
}

func newTruncated(t *testing.T, N, l int) *truncatedButterfly {
	top, err := instances.Butterfly(N)
	require.NoError(t, err)
	b := &truncatedButterfly{N: N, l: l}
	for 1<<b.logN < N {
		b.logN++
	}
	lv, ok, err := top.Net.Levels()
	require.NoError(t, err)
	require.True(t, ok)
	b.level = lv
	for _, ed := range top.Net.Edges {
		b.head = append(b.head, ed.To)
	}
	for r := range N {
		var ps [][]int
		for x := range 1 << l {
			row := r&^(1<<l-1) | x
			p, err := top.Path(r, l*N+row, "", nil)
			require.NoError(t, err)
			require.Len(t, p, l)
			ps = append(ps, p)
		}
		b.paths = append(b.paths, ps)
	}
	return b
}

// bound is Lemma 5's exp(-l B^2 / (4 N log2 log2 N)).
func (b *truncatedButterfly) bound(B int) float64 {
	return math.Exp(-float64(b.l*B*B) / (4 * float64(b.N) * math.Log2(float64(b.logN))))
}

// judge reports whether the chosen paths are independent (pairwise edge-disjoint)
// and whether they avoid the proof's collisions (no two at one node of a level
// j log2 n, j >= 1).
func (b *truncatedButterfly) judge(paths [][]int) (independent, nodeFree bool) {
	if b.edgeSeen == nil {
		b.edgeSeen = make([]int, len(b.head))
		b.nodeSeen = make([]int, len(b.level))
		b.step = int(math.Round(math.Log2(float64(b.logN))))
	}
	b.stamp++
	independent, nodeFree = true, true
	for _, p := range paths {
		for _, e := range p {
			if b.edgeSeen[e] == b.stamp {
				independent = false
			}
			b.edgeSeen[e] = b.stamp
			v := b.head[e]
			if b.level[v]%b.step == 0 {
				if b.nodeSeen[v] == b.stamp {
					nodeFree = false
				}
				b.nodeSeen[v] = b.stamp
			}
		}
	}
	return independent, nodeFree
}

// exact enumerates every choice: B paths uniform over all N 2^l paths (sources
// random), or one path per input with a random destination (B = N).
func (b *truncatedButterfly) exact(B int, perInput bool) (indep, nodeFree, total int) {
	var all [][]int
	for _, ps := range b.paths {
		all = append(all, ps...)
	}
	choice := make([][]int, B)
	var rec func(i int)
	rec = func(i int) {
		if i == B {
			total++
			a, n := b.judge(choice)
			if a {
				indep++
			}
			if n {
				nodeFree++
			}
			return
		}
		opts := all
		if perInput {
			opts = b.paths[i]
		}
		for _, p := range opts {
			choice[i] = p
			rec(i + 1)
		}
	}
	rec(0)
	return indep, nodeFree, total
}

// The smallest cases: N = 4 (the smallest N with log log N > 0), B = 4 = 2N / log N,
// l = 1 (L = 1) and l = 2 (L >= log N), every choice enumerated.
func TestLemma5SmallestCase(t *testing.T) {
	var lines, readme []string
	perInputP := map[int]float64{}
	for _, l := range []int{1, 2} {
		b := newTruncated(t, 4, l)
		bound := b.bound(4)
		for _, perInput := range []bool{false, true} {
			indep, nodeFree, total := b.exact(4, perInput)
			p, q := float64(indep)/float64(total), float64(nodeFree)/float64(total)
			how := "random sources"
			if perInput {
				how = "one path per input"
			}
			require.Greater(t, p, bound, "N = 4, l = %d, %s", l, how)
			require.LessOrEqual(t, q, bound, "the proof's event (no shared node)")
			lines = append(lines, fmt.Sprintf("| 4 | %d | 4 | %s | %d/%d = %.3f | %d/%d = %.3f | %.3f |", l, how, indep, total, p, nodeFree, total, q, bound))
			if perInput {
				perInputP[l] = p
			} else {
				readme = append(readme, fmt.Sprintf("%.3f > e^-%d", p, l))
			}
		}
		if l == 1 {
			// Every 4 distinct level-0 edges are independent paths: 8 7 6 5 of 8^4.
			indep, _, total := b.exact(4, false)
			require.Equal(t, []int{8 * 7 * 6 * 5, 8 * 8 * 8 * 8}, []int{indep, total})
		}
	}
	checkTightnessDoc(t, lines)
	readme = append(readme, fmt.Sprintf("one path per input with %g and %.3f", perInputP[1], perInputP[2]))
	doc, err := os.ReadFile("../README.md")
	require.NoError(t, err)
	text := strings.Join(strings.Fields(string(doc)), " ")
	for _, r := range readme {
		require.True(t, strings.Contains(text, r), "README.md does not quote %q", r)
	}
}

// Monte Carlo at N = 16, B = 16, l = 4 (L >= log N), 2^20 draws each with a fixed
// seed: one path per input with random destinations is independent more often than
// the bound allows (exact binomial test of P <= bound, level 1e-6), while the proof's
// event stays under it; with random sources the lemma holds here (P is far below
// the bound: P[Bin(draws, bound) <= hits] < 1e-6).
func TestLemma5MonteCarlo(t *testing.T) {
	if testing.Short() {
		t.Skip("2^21 draws of 16 paths")
	}
	b := newTruncated(t, 16, 4)
	const draws = 1 << 20
	bound := b.bound(16)
	var lines []string
	for _, perInput := range []bool{true, false} {
		r := rand.New(rand.NewPCG(5, 16))
		indep, nodeFree := 0, 0
		choice := make([][]int, 16)
		for range draws {
			for i := range choice {
				src := i
				if !perInput {
					src = r.IntN(16)
				}
				choice[i] = b.paths[src][r.IntN(16)]
			}
			a, n := b.judge(choice)
			if a {
				indep++
			}
			if n {
				nodeFree++
			}
		}
		how := "one path per input"
		if !perInput {
			how = "random sources"
		}
		test := stattest.EventAtMost(draws, indep, bound)
		node := stattest.EventAtMost(draws, nodeFree, bound)
		require.Greater(t, node.PValue, 1e-6, "%s: the proof's event above the bound: %v", how, node)
		if perInput {
			require.Less(t, test.PValue, 1e-6, "%s: independence not above the bound: %v", how, test)
		} else {
			below := 1 - stattest.BinomialUpper(draws, indep+1, bound)
			require.Less(t, below, 1e-6, "%s: independence not below the bound", how)
		}
		lines = append(lines, fmt.Sprintf("| 16 | 4 | 16 | %s | %d/%d = %.2e | %d/%d = %.2e | %.2e |", how, indep, draws, float64(indep)/draws, nodeFree, draws, float64(nodeFree)/draws, bound))
	}
	checkTightnessDoc(t, lines)
}

// checkTightnessDoc fails unless docs/tightness.md holds every line (the figures a
// test computed, as the doc quotes them).
func checkTightnessDoc(t *testing.T, lines []string) {
	for _, l := range lines {
		t.Log(l)
	}
	doc, err := os.ReadFile("../docs/tightness.md")
	require.NoError(t, err)
	for _, l := range lines {
		require.True(t, strings.Contains(string(doc), l), "docs/tightness.md does not quote:\n%s", l)
	}
}
