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
