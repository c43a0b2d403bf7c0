package deadlock

// The greatest fixpoint that bounds every deadlock configuration from above: the
// fast first pass of the exact decision, and its certificate when it is empty.
//
// Every deadlock configuration (config.go) occupies a set U of VCs in which every
// VC is held by a worm whose later states hold VCs of U and whose head is blocked
// by U: atomic reallocation, every VC the head may request lies in U; non-atomic,
// at least one does (the VC it has committed to, or any of them when all are
// owned). So U is contained in the greatest set U* such that every VC of U* is held
// by a node that reaches, through nodes holding VCs of U*, a node whose choices
// meet that condition with U*. The pass computes U* by deleting VCs, in
// O(nodes + successors + choices): a node dies when its VC has died, or when it is
// no longer blocked by what is left and has no live successor; a VC dies with its
// last live holder, and its death makes its requesters less blocked.
//
// When U* is empty no configuration exists: the routing is deadlock-free, and the
// order in which the VCs died is the certificate (certify's deadlock checker
// re-enumerates the states and checks, by one pass over their DAG, that no state
// holding the r-th VC to die reaches, through VCs dying at r or later, a state
// blocked by those VCs). Dally and Seitz's acyclic channel dependency graph and
// Duato's condition each empty U* (docs/deadlock.md), so the pass decides every
// routing either theorem proves.
//
// The pass is wormlab's own, on its states. It follows the static view of Verbeek
// and Schmaltz (IEEE TPDS 22(12), 2011: a condition that needs no analysis of
// network states), but not their text, which was not read here (only the
// abstracts of their 2011 and 2014 papers and of their ACL2 2011 workshop paper
// on a verified deadlock detection algorithm, EPTCS 70). It is an upper bound
// only: it asks of each VC separately whether a packet holding it can be
// blocked, not whether the packets can hold their VCs at once
// (deadlock.TestFreeBySAT is a routing it cannot prove and the formula can).

// Fixpoint is the result of the pass.
type Fixpoint struct {
	// Alive[c] reports whether VC c is in U*; Live[n] whether node n may be part
	// of a configuration (its VC alive, and blocked or with a live successor).
	Alive []bool
	Live  []bool
	// Good[n]: node n, as a head, is blocked by U* (all its choices alive when
	// atomic, one when not).
	Good []bool
	// Order lists the VCs that some node holds, in the order they died (those
	// still alive are not in it).
	Order []int32
	// AliveVCs and LiveNodes count U* and the live nodes.
	AliveVCs, LiveNodes int
}

// fixpoint runs the pass on g under the reallocation rule atomic.
func fixpoint(g *Graph, atomic bool) *Fixpoint {
	n := g.Nodes()
	nc := g.Channels
	fp := &Fixpoint{Alive: make([]bool, nc), Live: make([]bool, n), Good: make([]bool, n)}
	holders := make([]int32, nc) // live holders per VC
	for _, c := range g.held {
		holders[c]++
	}
	for c := range nc {
		fp.Alive[c] = holders[c] > 0
	}
	// reverse edges: the predecessors of each node, the requesters of each VC
	predOff, pred := reverse(n, func(m int32) []int32 { return g.Succ(m) }, n)
	reqOff, req := reverse(nc, func(m int32) []int32 { return g.Choices(m) }, n)
	deadCh := make([]int32, n)   // choices of n that are dead
	liveSucc := make([]int32, n) // successors of n that are live
	for m := range n {
		for _, c := range g.Choices(int32(m)) {
			if !fp.Alive[c] {
				deadCh[m]++
			}
		}
		liveSucc[m] = int32(len(g.Succ(int32(m))))
	}
	good := func(m int32) bool {
		k := int32(g.chOff[m+1] - g.chOff[m])
		if atomic {
			return deadCh[m] == 0
		}
		return deadCh[m] < k
	}
	var work []int32
	for m := range n {
		fp.Live[m] = true
	}
	for m := range n {
		if !good(int32(m)) && liveSucc[m] == 0 {
			fp.Live[m] = false
			work = append(work, int32(m))
		}
	}
	check := func(m int32) {
		if fp.Live[m] && !good(m) && liveSucc[m] == 0 {
			fp.Live[m] = false
			work = append(work, m)
		}
	}
	for len(work) > 0 {
		m := work[len(work)-1]
		work = work[:len(work)-1]
		for _, p := range pred[predOff[m]:predOff[m+1]] {
			liveSucc[p]--
			check(p)
		}
		c := g.held[m]
		if holders[c]--; holders[c] > 0 {
			continue
		}
		fp.Alive[c] = false
		fp.Order = append(fp.Order, c)
		for _, r := range req[reqOff[c]:reqOff[c+1]] {
			deadCh[r]++
			check(r)
		}
	}
	for m := range n {
		fp.Good[m] = fp.Live[m] && good(int32(m))
		if fp.Live[m] {
			fp.LiveNodes++
		}
	}
	for c := range nc {
		if fp.Alive[c] {
			fp.AliveVCs++
		}
	}
	return fp
}

// reverse builds the reverse of a relation from 0..n-1 to 0..size-1 given by
// out, as CSR arrays (offsets of length size+1, sources).
func reverse(size int, out func(int32) []int32, n int) ([]int32, []int32) {
	off := make([]int32, size+1)
	for m := range n {
		for _, x := range out(int32(m)) {
			off[x+1]++
		}
	}
	for i := range size {
		off[i+1] += off[i]
	}
	rev := make([]int32, off[size])
	fill := make([]int32, size)
	copy(fill, off[:size])
	for m := range n {
		for _, x := range out(int32(m)) {
			rev[fill[x]] = int32(m)
			fill[x]++
		}
	}
	return off, rev
}
