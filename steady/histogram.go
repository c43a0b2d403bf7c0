package steady

// A log-linear histogram of non-negative integers in the manner of HdrHistogram
// (G. Tene, "HdrHistogram: a high dynamic range histogram"): exact bins for small
// values, then a fixed number of equal bins per power of two, so that a bin's width
// is a fixed fraction of the values it holds and a quantile read from the bins is
// within that fraction of the exact one, in memory that grows with the logarithm
// of the largest value, not with the number of observations.

import (
	"math"
	"math/bits"
)

// HistExact and HistBits fix a Histogram's resolution: every value below
// 2^HistExact has a bin of its own; a value v >= 2^HistExact lies in a bin of
// width 2^(e-HistBits) where 2^e <= v < 2^(e+1), at most v / 2^HistBits.
const (
	HistExact = 10
	HistBits  = 9
)

// HistRelErr bounds the relative error of a Histogram quantile: it is the lower end
// of the bin holding the exact value v, in (v / (1 + HistRelErr), v], and v itself
// below 2^HistExact.
const HistRelErr = 1.0 / (1 << HistBits)

// Histogram counts non-negative integer observations in log-linear bins. The zero
// value is empty. Memory: 8 bytes a bin up to the largest value's, at most
// 2^HistExact + (63 - HistExact) 2^HistBits bins (about 28,000), 24,000 bytes for
// values below 2^13.
type Histogram struct {
	bins []uint64
	n    int64
	max  int64
}

// histBin is the bin of v >= 0.
func histBin(v int64) int {
	if v < 1<<HistExact {
		return int(v)
	}
	e := bits.Len64(uint64(v)) - 1 // 2^e <= v < 2^(e+1), e >= HistExact
	return 1<<HistExact + (e-HistExact)<<HistBits + int(v>>uint(e-HistBits)) - 1<<HistBits
}

// histLow is the least value of bin i.
func histLow(i int) int64 {
	if i < 1<<HistExact {
		return int64(i)
	}
	i -= 1 << HistExact
	e := i>>HistBits + HistExact
	return int64(i&(1<<HistBits-1)+1<<HistBits) << uint(e-HistBits)
}

// Add counts v (negative values count as 0).
func (h *Histogram) Add(v int64) {
	v = max(v, 0)
	i := histBin(v)
	if i >= len(h.bins) {
		h.bins = append(h.bins, make([]uint64, i+1-len(h.bins))...)
	}
	h.bins[i]++
	h.n++
	h.max = max(h.max, v)
}

// Merge adds o's counts to h.
func (h *Histogram) Merge(o *Histogram) {
	if len(o.bins) > len(h.bins) {
		h.bins = append(h.bins, make([]uint64, len(o.bins)-len(h.bins))...)
	}
	for i, c := range o.bins {
		h.bins[i] += c
	}
	h.n += o.n
	h.max = max(h.max, o.max)
}

// N is the number of observations.
func (h *Histogram) N() int64 { return h.n }

// Quantile is the nearest-rank q-quantile as Quantile defines it, read from the
// bins: the lower end of the bin holding the ceil(q n)-th smallest observation,
// within HistRelErr below it and exact below 2^HistExact; Quantile(1) is the
// maximum, exact. NaN when empty or q is outside [0, 1].
func (h *Histogram) Quantile(q float64) float64 {
	if h.n == 0 || math.IsNaN(q) || q < 0 || q > 1 {
		return math.NaN()
	}
	if q == 1 {
		return float64(h.max)
	}
	r := int64(Rank(q, int(h.n)))
	var seen int64
	for i, c := range h.bins {
		if seen += int64(c); seen >= r {
			return float64(histLow(i))
		}
	}
	return float64(h.max)
}
