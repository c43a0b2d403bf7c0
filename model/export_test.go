package model

// BestEdgeBound exposes bestEdgeBound with a chosen smallest batch, so that the
// tests reach its batches and its pruning on small instances.
func (in *Instance) BestEdgeBound(minBatch int) (edge, value int) {
	return PathsOf(in).bestEdgeBound(in.Measure(), minBatch)
}

// SetEntryBlock sets the number of entries writeEntries formats as a block and
// returns the function that restores it.
func SetEntryBlock(n int) (restore func()) {
	old := entryBlock
	entryBlock = n
	return func() { entryBlock = old }
}

// SetMeasureSplitMin sets the least number of hops Paths.Measure sums on two
// cores and returns the function that restores it.
func SetMeasureSplitMin(n int) (restore func()) {
	old := measureSplitMin
	measureSplitMin = n
	return func() { measureSplitMin = old }
}

// Reaches returns the edges' reaches (r, q) that Measure counts.
func (p *Paths) Reaches() [][2]int32 {
	p.Measure()
	out := make([][2]int32, len(p.reach))
	for e, rq := range p.reach {
		out[e] = [2]int32{rq.r, rq.q}
	}
	return out
}
