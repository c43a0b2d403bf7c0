package sim

import (
	"math"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/wormlab/wormlab/steady"
	"pgregory.net/rapid"
)

// TestExactQuantilesAdversarial checks the lemma that an exact record's P50, P99
// and Max (record.quantiles, counted by value or sorted) are the nearest-rank
// quantiles steady.Quantile gives of the latencies kept after the warm-up, on the
// sets where counting by value could slip: all latencies equal (0, 1 or large),
// zeros, a single packet, a largest latency exactly at the counting bound
// (4n + 4096, counted) and one past it (sorted), outliers at the uint32 limit
// (latencies above it are kept as the limit), and a warm-up at any boundary,
// chunk ends included.
func TestExactQuantilesAdversarial(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.SampledFrom([]int{1, 2, 3, 99, 100, 101, 199, 200, 201, chunkLen - 1, chunkLen, chunkLen + 1}).Draw(t, "n")
		from := rapid.SampledFrom([]int{0, 1, n / 2, n - 100, n - 2, n - 1, n, chunkLen - 1, chunkLen}).Draw(t, "from")
		from = min(max(from, 0), n)
		kept := n - from
		bound := int64(4*kept + 4096)
		shape := rapid.IntRange(0, 5).Draw(t, "shape")
		base := rapid.SampledFrom([]int64{0, 1, 7, bound, bound + 1, math.MaxUint32, math.MaxUint32 + 5}).Draw(t, "base")
		r := newRecord(1 << 20)
		lat := make([]float64, n)
		for k := range n {
			l := base
			switch shape {
			case 1: // zeros and the base, alternating
				if k%2 == 0 {
					l = 0
				}
			case 2: // a ramp below the bound, the base once at the end
				l = int64(k % 300)
				if k == n-1 {
					l = base
				}
			case 3: // the base at the warm-up's first kept observation only
				l = int64(k % 5)
				if k == from {
					l = base
				}
			case 4: // the base at the bound exactly or just past it, once
				l = int64(k % 3)
				if k == n-1 {
					l = bound + int64(k%2)
				}
			case 5: // the 1% tail at the base, the rest 1
				l = 1
				if k%100 == 99 {
					l = base
				}
			}
			r.add(int64(k), l, 1, 1, 0)
			lat[k] = float64(min(l, math.MaxUint32))
		}
		e := steady.Estimate{Warmup: from}
		r.quantiles(&e)
		for _, c := range []struct {
			q   float64
			got float64
		}{{0.5, e.P50}, {0.99, e.P99}, {1, e.Max}} {
			want := steady.Quantile(lat[from:], c.q)
			if math.IsNaN(want) {
				require.True(t, math.IsNaN(c.got), "q %g of none: %g", c.q, c.got)
				continue
			}
			require.Equal(t, want, c.got, "q %g, shape %d, base %d, %d latencies from %d", c.q, shape, base, n, from)
		}
	})
}
