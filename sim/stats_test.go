package sim

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/wormlab/wormlab/steady"
	"pgregory.net/rapid"
)

// feed adds n deliveries of a series with a transient (the first tenth lower) to r
// and returns the latencies, hop counts and sizes it gave.
func feed(r *record, n int, rng *rand.Rand) (lat []int64, hops []int32, size []int32) {
	for k := range n {
		l := int64(40 + rng.IntN(30))
		if k < n/10 {
			l -= 20
		}
		h, s := int32(rng.IntN(9)), int32(1+rng.IntN(16))
		r.add(int64(k/3), l, s, h, waitOf(l))
		lat, hops, size = append(lat, l), append(hops, h), append(size, s)
	}
	return lat, hops, size
}

// waitOf is the source-queue wait feed gives a delivery of latency l.
func waitOf(l int64) int64 { return l % 7 }

// Lemma (network latency): a record's netMean(k), for every block boundary k,
// is the mean of latency less source wait over the observations from k, while
// exact and after streaming has merged its blocks.
func TestRecordNetMean(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(1, 4000).Draw(t, "n")
		r := newRecord(rapid.IntRange(1, 2000).Draw(t, "exact"))
		r.maxBlocks, r.maxSegs = 8, 4
		lat, _, _ := feed(r, n, rand.New(rand.NewPCG(rapid.Uint64().Draw(t, "seed"), 1)))
		for k := 0; k < n; k += r.b {
			var s int64
			for _, l := range lat[k:] {
				s += l - waitOf(l)
			}
			require.InDelta(t, float64(s)/float64(n-k), r.netMean(k), 1e-9, "k %d of %d, block %d", k, n, r.b)
		}
	})
}

// Lemma (exact record): while it keeps every latency, a record's estimate is
// steady.Analyze of the latency series, field for field, and its hop classes and
// accepted flits are those of the observations after the warm-up.
func TestRecordExactIsAnalyze(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(0, 3000).Draw(t, "n")
		r := newRecord(1 << 20)
		lat, hops, size := feed(r, n, rand.New(rand.NewPCG(rapid.Uint64().Draw(t, "seed"), 1)))
		xs := make([]float64, n)
		for i, l := range lat {
			xs[i] = float64(l)
		}
		want := steady.Analyze(xs, 0.95)
		got := r.estimate(0.95)
		r.quantiles(&got)
		if n == 0 || want.Warmup == n {
			// Analyze's percentiles of nothing are NaN, as are ours
			require.True(t, math.IsNaN(got.P50) && math.IsNaN(want.P50))
			got.P50, got.P99, got.Max, want.P50, want.P99, want.Max = 0, 0, 0, 0, 0, 0
		}
		if math.IsNaN(want.Mean) {
			require.True(t, math.IsNaN(got.Mean))
			got.Mean, want.Mean = 0, 0
		}
		require.Equal(t, want, got)
		var flits int64
		sums := map[int32][2]int64{}
		for k := want.Warmup; k < n; k++ {
			flits += int64(size[k])
			s := sums[hops[k]]
			sums[hops[k]] = [2]int64{s[0] + 1, s[1] + lat[k]}
		}
		require.Equal(t, flits, r.flitsFrom(want.Warmup))
		classes := r.hopClasses(want.Warmup)
		require.Len(t, classes, len(sums))
		for _, c := range classes {
			s := sums[int32(c.Hops)]
			require.Equal(t, int(s[0]), c.Packets)
			require.Equal(t, float64(s[1])/float64(s[0]), c.Latency)
		}
	})
}

// Lemma (streaming record): past Exact observations a record holds at most
// maxBlocks blocks of b observations and maxSegs segments, whatever the number of
// observations (made small here, so that blocks and segments merge many times); its warm-up cut is MSER on the means of its blocks (MSER-b), its
// interval batch means over whole blocks after the cut, its percentiles those of the
// segments from the first at or after the cut, within steady.HistRelErr, and its
// accepted flits exact.
func TestRecordStreaming(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		exact := rapid.IntRange(10, 500).Draw(t, "exact")
		n := rapid.IntRange(exact, 20000).Draw(t, "n")
		r := newRecord(exact)
		r.maxBlocks = rapid.IntRange(8, 200).Draw(t, "max blocks")
		r.maxSegs = 2 * rapid.IntRange(2, 10).Draw(t, "max segments/2")
		lat, _, size := feed(r, n, rand.New(rand.NewPCG(rapid.Uint64().Draw(t, "seed"), 2)))
		require.True(t, r.streaming)
		require.LessOrEqual(t, len(r.blocks), r.maxBlocks)
		require.LessOrEqual(t, len(r.segs), r.maxSegs)
		require.Nil(t, r.lat)
		b := r.b
		m := n / b
		z := make([]float64, m)
		for j := range z {
			s := int64(0)
			for _, l := range lat[j*b : (j+1)*b] {
				s += l
			}
			z[j] = float64(s) / float64(b)
		}
		d, atLimit := steady.MSERMeans(z)
		e := r.estimate(0.95)
		require.Equal(t, d*b, e.Warmup)
		require.Equal(t, atLimit, e.WarmupAtLimit)
		k := min(steady.DefaultBatches, m-d)
		require.Equal(t, k, e.Batches)
		if k >= 2 {
			per := (m - d) / k
			// batches of per blocks: their mean is the mean of the blocks' means
			bm := make([]float64, k)
			for j := range bm {
				for _, x := range z[m-per*k+j*per : m-per*k+(j+1)*per] {
					bm[j] += x / float64(per)
				}
			}
			mean, half := steady.MeanInterval(bm, 0.95)
			require.InDelta(t, mean, e.Mean, 1e-9*mean)
			require.InDelta(t, half, e.HalfWidth, 1e-6*half+1e-12)
		}
		var flits int64
		for _, s := range size[e.Warmup:] {
			flits += int64(s)
		}
		require.Equal(t, flits, r.flitsFrom(e.Warmup))
		r.quantiles(&e)
		from := r.firstSeg(e.Warmup) * r.segLen
		require.GreaterOrEqual(t, from, e.Warmup)
		require.Less(t, from, n, "some segment begins after the cut")
		xs := make([]float64, 0, n-from)
		for _, l := range lat[from:] {
			xs = append(xs, float64(l))
		}
		for _, q := range []struct {
			q   float64
			got float64
		}{{0.5, e.P50}, {0.99, e.P99}, {1, e.Max}} {
			want := steady.Quantile(xs, q.q)
			require.LessOrEqual(t, q.got, want)
			require.Greater(t, q.got, want/(1+steady.HistRelErr)-1e-9)
		}
	})
}

// Lemma (exact quantiles): an exact record's P50, P99 and Max of the observations
// from any k on are steady.Quantile's nearest ranks of those latencies, whether
// counted by value (latencies below a few times their count) or sorted (a few far
// larger), across the record's chunks.
func TestExactQuantilesAreNearestRanks(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(0, 3000).Draw(t, "n")
		if rapid.Bool().Draw(t, "chunks") {
			n = rapid.IntRange(chunkLen-5, 2*chunkLen+5).Draw(t, "n across chunks")
		}
		far := rapid.IntRange(0, 3).Draw(t, "far") // latencies past the counting bound
		r := newRecord(1 << 20)
		rng := rand.New(rand.NewPCG(rapid.Uint64().Draw(t, "seed"), 2))
		lat := make([]float64, n)
		for k := range n {
			l := int64(1 + rng.IntN(200))
			if k < far {
				l = int64(1e7 + rng.IntN(1000))
			}
			r.add(int64(k), l, 1, 1, 0)
			lat[k] = float64(l)
		}
		from := rapid.IntRange(0, n).Draw(t, "from")
		p50, p99, most := r.exactQuantiles(from)
		kept := lat[from:]
		for _, c := range []struct {
			q   float64
			got float64
		}{{0.5, p50}, {0.99, p99}, {1, most}} {
			want := steady.Quantile(kept, c.q)
			if math.IsNaN(want) {
				require.True(t, math.IsNaN(c.got), "q %g of none: %g", c.q, c.got)
				continue
			}
			require.Equal(t, want, c.got, "q %g, %d latencies from %d", c.q, n, from)
		}
	})
}

// Lemma (hop classes past 2^16): a record's hop classes count every observation
// under its own hop count, 65,535 hops or more included (a ring of 140,000 routers
// has paths of 70,000), while exact and after the exact observations have gone
// into segments.
func TestRecordHopsPast16Bits(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		exact := rapid.IntRange(2, 40).Draw(t, "exact")
		n := rapid.IntRange(1, 2*exact).Draw(t, "n")
		r := newRecord(exact)
		want := map[int]int{}
		for k := range n {
			h := int32(rapid.SampledFrom([]int{0, 3, math.MaxUint16 - 1, math.MaxUint16, math.MaxUint16 + 1, 70000}).Draw(t, "hops"))
			r.add(int64(k), 10, 1, h, 0)
			want[int(h)]++
		}
		got := map[int]int{}
		for _, c := range r.hopClasses(0) {
			got[c.Hops] += c.Packets
		}
		require.Equal(t, want, got, "%d observations, exact %d (streaming %v)", n, exact, r.streaming)
	})
}
