package sim

// The record of an open-loop run's deliveries that RunOpen's statistics read, in
// memory that does not grow with the run: exact while the run is short enough to
// keep every latency (Measure.Exact observations), then in blocks and segments.
// The estimators are those of package steady (MSER-5, batch means, the trend test;
// White 1997, Law and Kelton 9.5.3), applied to block sums once the observations
// are gone.

import (
	"math"
	"slices"

	"github.com/wormlab/wormlab/steady"
)

// DefaultExact is the default of Measure.Exact: the latencies a run keeps one by one
// (6 bytes each, plus 24 bytes a block of five) before its statistics go to blocks.
const DefaultExact = 1 << 20

// Blocks and segments once the run is past Measure.Exact observations: at most
// maxBlocks blocks (two merge when there would be more, doubling the block size)
// and maxSegs segments (likewise).
const (
	maxBlocks = 1 << 16
	maxSegs   = 64
)

// block is b consecutive observations (steady.MSERBatch while exact): the sums of
// their latencies, sizes and source-queue waits before the block (cumulative from
// the first observation), and the delivery cycle of its first.
type block struct {
	cum, flits, at, wait int64
}

// segment is a run of segLen consecutive observations once the record streams: the
// histogram of their latencies and their latency sums by hop count.
type segment struct {
	hist steady.Histogram
	hops []hopSum
}

type hopSum struct{ n, sum int64 }

// record holds the deliveries in delivery order. Observation k is the k-th packet
// delivered; a block holds b of them, the blocks tile the observations from the
// first (the last, partial, one is open). While exact, every latency and hop count
// is kept and b = steady.MSERBatch, so the estimates are those of steady.Analyze on
// the latency series, bit for bit. Past exact observations the record streams: the
// latencies and hop counts go into segments, blocks merge in pairs to stay at most
// maxBlocks (b doubles), and the estimators work on block means (see estimate).
type record struct {
	exact int // observations kept one by one before streaming
	// maxBlocks and maxSegs are the constants (tests make them small)
	maxBlocks, maxSegs int
	n                  int // observations
	b                  int // block size
	// blocks[i] starts at observation i*b; sum and flits are the totals so far
	blocks     []block
	sum, flits int64
	wait       int64 // the source-queue waits' sum
	// exact: per observation (chunks of chunkLen)
	lat  [][]uint32
	hops [][]uint16
	// far is the hop count of an observation of 65,535 hops or more (its hops
	// entry holds math.MaxUint16): a ring of 140,000 routers has paths of 70,000 hops
	far map[int]int32
	// streaming
	streaming bool
	segLen    int
	segs      []segment
}

const chunkLen = 1 << 14

func newRecord(exact int) *record {
	if exact <= 0 {
		exact = DefaultExact
	}
	return &record{exact: exact, b: steady.MSERBatch, maxBlocks: maxBlocks, maxSegs: maxSegs}
}

// add records a delivery in cycle at of a packet of size flits, latency lat and
// hops links, which waited wait cycles in its source queue.
func (r *record) add(at, lat int64, size, hops int32, wait int64) {
	if r.n%r.b == 0 {
		r.blocks = append(r.blocks, block{cum: r.sum, flits: r.flits, at: at, wait: r.wait})
	}
	r.sum += lat
	r.wait += wait
	r.flits += int64(size)
	if !r.streaming {
		k := r.n % chunkLen
		if k == 0 {
			r.lat = append(r.lat, make([]uint32, chunkLen))
			r.hops = append(r.hops, make([]uint16, chunkLen))
		}
		r.lat[len(r.lat)-1][k] = uint32(min(lat, math.MaxUint32))
		if hops >= math.MaxUint16 {
			if r.far == nil {
				r.far = map[int]int32{}
			}
			r.far[r.n] = hops
			hops = math.MaxUint16
		}
		r.hops[len(r.hops)-1][k] = uint16(hops)
	} else {
		r.segment(r.n).add(lat, hops)
	}
	r.n++
	if !r.streaming && r.n >= r.exact {
		r.stream()
	}
	if r.streaming && len(r.blocks) > r.maxBlocks {
		r.mergeBlocks()
	}
}

func (s *segment) add(lat int64, hops int32) {
	s.hist.Add(lat)
	for int(hops) >= len(s.hops) {
		s.hops = append(s.hops, hopSum{})
	}
	s.hops[hops].n++
	s.hops[hops].sum += lat
}

// segment is the segment of observation k (appended if new; merged in pairs when
// there would be more than maxSegs).
func (r *record) segment(k int) *segment {
	for k/r.segLen >= r.maxSegs {
		for i := 0; i < len(r.segs); i += 2 {
			m := r.segs[i]
			if i+1 < len(r.segs) {
				o := &r.segs[i+1]
				m.hist.Merge(&o.hist)
				for h, x := range o.hops {
					for h >= len(m.hops) {
						m.hops = append(m.hops, hopSum{})
					}
					m.hops[h].n += x.n
					m.hops[h].sum += x.sum
				}
			}
			r.segs[i/2] = m
		}
		r.segs = r.segs[:(len(r.segs)+1)/2]
		r.segLen *= 2
	}
	for k/r.segLen >= len(r.segs) {
		r.segs = append(r.segs, segment{})
	}
	return &r.segs[k/r.segLen]
}

// stream turns an exact record into a streaming one: segments of a half
// maxSegs-th of the observations so far, the observations dropped.
func (r *record) stream() {
	r.streaming = true
	half := r.maxSegs / 2
	r.segLen = max(1, (r.n+half-1)/half)
	for k := range r.n {
		r.segment(k).add(int64(r.latAt(k)), r.hopsAt(k))
	}
	r.lat, r.hops, r.far = nil, nil, nil
	for len(r.blocks) > r.maxBlocks {
		r.mergeBlocks()
	}
	// the exact phase's block array is freed
	r.blocks = append(make([]block, 0, r.maxBlocks+1), r.blocks...)
}

// mergeBlocks halves the blocks: block i takes blocks 2i and 2i+1.
func (r *record) mergeBlocks() {
	r.b *= 2
	k := (len(r.blocks) + 1) / 2
	for i := range k {
		r.blocks[i] = r.blocks[2*i]
	}
	r.blocks = r.blocks[:k]
}

func (r *record) latAt(k int) uint32 { return r.lat[k/chunkLen][k%chunkLen] }

// hopsAt is the hop count of exact observation k.
func (r *record) hopsAt(k int) int32 {
	if h := r.hops[k/chunkLen][k%chunkLen]; h < math.MaxUint16 {
		return int32(h)
	}
	return r.far[k]
}

// complete is the number of whole blocks.
func (r *record) complete() int { return r.n / r.b }

// prefix is the latency sum of the first k observations (k a multiple of b, or
// any k while exact).
func (r *record) prefix(k int) int64 {
	j := k / r.b
	if j >= len(r.blocks) {
		return r.sum
	}
	s := r.blocks[j].cum
	for i := j * r.b; i < k; i++ {
		s += int64(r.latAt(i))
	}
	return s
}

// flitsFrom is the flits of observations k.. (k a multiple of b), atOf the
// delivery cycle of observation k (a multiple of b, below n).
func (r *record) flitsFrom(k int) int64 {
	if j := k / r.b; j < len(r.blocks) {
		return r.flits - r.blocks[j].flits
	}
	return 0
}

func (r *record) atOf(k int) int64 { return r.blocks[k/r.b].at }

// netMean is the mean latency less the source-queue wait (the network latency)
// of observations k.. (k a multiple of b, below n).
func (r *record) netMean(k int) float64 {
	b := r.blocks[k/r.b]
	return float64((r.sum-b.cum)-(r.wait-b.wait)) / float64(r.n-k)
}

// meanHead is the mean latency of the first half of the observations from k (a
// multiple of b) on, in whole blocks while streaming; NaN if there are none.
func (r *record) meanHead(k int) float64 {
	h := (r.n - k) / 2
	if r.streaming {
		h -= h % r.b
	}
	if h <= 0 {
		return math.NaN()
	}
	return float64(r.prefix(k+h)-r.prefix(k)) / float64(h)
}

// means is the means of batches of size observations (a multiple of b) from
// observation start on, count batches.
func (r *record) means(start, size, count int) []float64 {
	z := make([]float64, count)
	for j := range z {
		lo := start + j*size
		z[j] = float64(r.prefix(lo+size)-r.prefix(lo)) / float64(size)
	}
	return z
}

// estimate is steady.Analyze on the latency series without its percentiles. While
// exact it equals Analyze bit for bit (sums of integer latencies are exact in
// floating point, in any order). Streaming, it is the same procedure on the
// complete blocks: MSER on block means (MSER-b, the cut a multiple of b), then
// min(DefaultBatches, blocks kept) batches of equal whole numbers of blocks, the
// oldest remainder and the open block unused.
func (r *record) estimate(level float64) steady.Estimate {
	m := r.complete()
	zb := r.means(0, r.b, m)
	d, atLimit := steady.MSERMeans(zb)
	e := steady.Estimate{N: r.n, Warmup: d * r.b, Level: level, WarmupAtLimit: atLimit,
		P50: math.NaN(), P99: math.NaN(), Max: math.NaN()}
	var z []float64
	if !r.streaming {
		kept := r.n - e.Warmup
		e.Batches = min(steady.DefaultBatches, kept/steady.MSERBatch)
		if e.Batches >= 1 {
			e.BatchSize = kept / e.Batches
		}
		if e.Batches >= 2 {
			z = r.means(r.n-e.BatchSize*e.Batches, e.BatchSize, e.Batches)
		}
	} else {
		kept := m - d
		e.Batches = min(steady.DefaultBatches, kept)
		if e.Batches >= 1 {
			e.BatchSize = kept / e.Batches * r.b
		}
		if e.Batches >= 2 {
			z = r.means(m*r.b-e.BatchSize*e.Batches, e.BatchSize, e.Batches)
		}
	}
	if z != nil {
		e.Mean, e.HalfWidth = steady.MeanInterval(z, level)
	} else {
		// BatchMeans with fewer than two batches: the plain mean
		e.Mean, e.HalfWidth = math.NaN(), math.Inf(1)
		if kept := r.n - e.Warmup; kept > 0 {
			e.Mean = float64(r.sum-r.prefix(e.Warmup)) / float64(kept)
		}
	}
	e.Enough = e.Batches >= steady.MinBatches && !atLimit
	return e
}

// quantiles fills e's P50, P99 and Max: exact (nearest rank over the observations
// after the warm-up) while exact; streaming, from the histograms of the segments
// that begin at or after the warm-up's end (within steady.HistRelErr, Max exact).
func (r *record) quantiles(e *steady.Estimate) {
	if !r.streaming {
		e.P50, e.P99, e.Max = r.exactQuantiles(e.Warmup)
		return
	}
	var h steady.Histogram
	for _, s := range r.segs[r.firstSeg(e.Warmup):] {
		h.Merge(&s.hist)
	}
	e.P50, e.P99, e.Max = h.Quantile(0.5), h.Quantile(0.99), h.Quantile(1)
}

// exactQuantiles is the nearest-rank 0.5, 0.99 and 1 quantiles of observations
// from.. of an exact record (steady.Rank's ranks; NaN with none). A
// latency is a whole number of cycles, so where the largest is below a few times
// the count they are counted by value and read off the cumulative counts in
// O(n + largest), instead of sorted in O(n log n): the sort of a run's 160k
// latencies was 6.5% of a 20,000-cycle run on torus:8x8 at 0.4.
func (r *record) exactQuantiles(from int) (p50, p99, most float64) {
	n := r.n - from
	if n <= 0 {
		return math.NaN(), math.NaN(), math.NaN()
	}
	hi := uint32(0)
	r.eachLat(from, func(l uint32) { hi = max(hi, l) })
	if int64(hi) > 4*int64(n)+4096 {
		// sparse: a count per value would outgrow the latencies
		s := make([]float64, 0, n)
		r.eachLat(from, func(l uint32) { s = append(s, float64(l)) })
		slices.Sort(s)
		return steady.QuantileSorted(s, 0.5), steady.QuantileSorted(s, 0.99), float64(hi)
	}
	count := make([]int32, hi+1)
	r.eachLat(from, func(l uint32) { count[l]++ })
	r50, r99 := steady.Rank(0.5, n), steady.Rank(0.99, n)
	p50, p99 = math.NaN(), math.NaN()
	below := 0 // observations below value v
	for v, c := range count {
		if below < r50 && below+int(c) >= r50 {
			p50 = float64(v)
		}
		if below < r99 && below+int(c) >= r99 {
			p99 = float64(v)
			break // (r99 >= r50)
		}
		below += int(c)
	}
	return p50, p99, float64(hi)
}

// eachLat calls f with the latencies of observations from.. in order (exact).
func (r *record) eachLat(from int, f func(uint32)) {
	for k := from; k < r.n; {
		c := r.lat[k/chunkLen][k%chunkLen : min(chunkLen, k%chunkLen+r.n-k)]
		for _, l := range c {
			f(l)
		}
		k += len(c)
	}
}

// firstSeg is the first segment that begins at or after observation k (streaming).
func (r *record) firstSeg(k int) int {
	return min((k+r.segLen-1)/r.segLen, len(r.segs)-1)
}

// trend is steady.Trend over the observations after the warm-up in
// min(DefaultBatches, kept/5) batches (exact), or over whole blocks (streaming).
func (r *record) trend(e steady.Estimate, level float64) (steady.TrendFit, bool) {
	if !r.streaming {
		kept := r.n - e.Warmup
		b := min(steady.DefaultBatches, kept/steady.MSERBatch)
		if b < 3 {
			return steady.TrendFit{}, false
		}
		size := kept / b
		start := kept - size*b
		return steady.TrendMeans(r.means(e.Warmup+start, size, b), size, start, level), true
	}
	kept := r.complete() - e.Warmup/r.b
	b := min(steady.DefaultBatches, kept)
	if b < 3 {
		return steady.TrendFit{}, false
	}
	size := kept / b * r.b
	start := kept*r.b - size*b
	return steady.TrendMeans(r.means(e.Warmup+start, size, b), size, start, level), true
}

// hopClasses is the mean latency by hop count of the observations after the
// warm-up (streaming: of the segments that begin at or after its end).
func (r *record) hopClasses(warmup int) []HopClass {
	var byHops []hopSum
	addTo := func(h int, n, sum int64) {
		for h >= len(byHops) {
			byHops = append(byHops, hopSum{})
		}
		byHops[h].n += n
		byHops[h].sum += sum
	}
	if !r.streaming {
		for k := warmup; k < r.n; k++ {
			addTo(int(r.hopsAt(k)), 1, int64(r.latAt(k)))
		}
	} else {
		for _, s := range r.segs[r.firstSeg(warmup):] {
			for h, x := range s.hops {
				addTo(h, x.n, x.sum)
			}
		}
	}
	var out []HopClass
	for h, x := range byHops {
		if x.n > 0 {
			out = append(out, HopClass{Hops: h, Packets: int(x.n), Latency: float64(x.sum) / float64(x.n)})
		}
	}
	return out
}
