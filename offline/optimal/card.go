package optimal

// Cardinality constraints on aligned cliques (clique.go): resolution alone needs
// exponential proofs to show that too many pairwise conflicting worms do not fit, as
// for the pigeonhole principle; a counter makes it a matter of propagation.

import "sort"

// cardBudget bounds the auxiliary variables the cardinality constraints may add to
// one formula, so that they never dominate it.
const cardBudget = 200000

// cardinality adds, for every aligned clique grown across several edges (not the
// users of a single edge: the edge bound covers them, and their counters made
// satisfiable horizons 3 to 25 times slower in our measurements), every release r
// in it, and every threshold b:
//
//	#{ i in S_r : start_i <= b } <= (b - r + Lmax) / Lmin   (integer division)
//
// where S_r are the clique's jobs released at r or later. Proof: their blocks are
// pairwise disjoint, of L_i >= Lmin steps each, and lie in [r, b + Lmax - 1]. The
// constraint does not mention the horizon, so it stays valid when a shorter horizon
// is imposed by assumptions. Each is a sequential counter (Sinz 2005) with
// n*K auxiliary variables and about 2nK clauses for n literals and bound K.
func (f *Formula) cardinality() {
	used := 0
	for ci, c := range cliques(f.in, f.Model) {
		if len(c.jobs) < 3 || c.edge {
			continue
		}
		rels := map[int]bool{}
		for _, j := range c.jobs {
			rels[j.r] = true
		}
		var rs []int
		for r := range rels {
			rs = append(rs, r)
		}
		sort.Ints(rs)
		for _, r := range rs {
			var js []job
			lmin, lmax, bmax := 0, 0, 0
			for _, j := range c.jobs {
				if j.r < r {
					continue
				}
				js = append(js, j)
				if lmin == 0 || j.p < lmin {
					lmin = j.p
				}
				lmax = max(lmax, j.p)
				bmax = max(bmax, f.chainOf(j.msg, j.hop).hi+j.shift)
			}
			if len(js) < 3 {
				continue
			}
			added := false
			for b := r; b < bmax; b++ {
				K := (b - r + lmax) / lmin
				if K >= len(js) {
					break
				}
				lits := make([]int, len(js))
				for x, j := range js {
					lits[x] = f.le(f.chainOf(j.msg, j.hop), b-j.shift)
				}
				if used+len(js)*K > cardBudget {
					return
				}
				used += f.atMost(lits, K)
				added = true
			}
			if added {
				f.Cards++
				f.comment("cards: clique %d (%d messages from release %d): at most (b - %d + %d)/%d blocks start by b", ci, len(js), r, r, lmax, lmin)
			}
		}
	}
}

// atMost adds "at most K of lits are true" and returns the auxiliary variables used.
func (f *Formula) atMost(lits []int, K int) int {
	var xs []int
	for _, l := range lits {
		switch l {
		case litTrue:
			K--
		case litFalse:
		default:
			xs = append(xs, l)
		}
	}
	n := len(xs)
	switch {
	case K < 0:
		f.clause()
		return 0
	case n <= K:
		return 0
	case K == 0:
		for _, x := range xs {
			f.clause(-x)
		}
		return 0
	}
	// s[i][j] (i < n-1, j < K): at least j+1 of xs[0..i] are true.
	s := make([][]int, n-1)
	for i := range s {
		s[i] = make([]int, K)
		for j := range s[i] {
			s[i][j] = f.newVar()
		}
	}
	f.clause(-xs[0], s[0][0])
	for j := 1; j < K; j++ {
		f.clause(-s[0][j])
	}
	for i := 1; i < n-1; i++ {
		f.clause(-xs[i], s[i][0])
		f.clause(-s[i-1][0], s[i][0])
		for j := 1; j < K; j++ {
			f.clause(-xs[i], -s[i-1][j-1], s[i][j])
			f.clause(-s[i-1][j], s[i][j])
		}
		f.clause(-xs[i], -s[i-1][K-1])
	}
	f.clause(-xs[n-1], -s[n-2][K-1])
	return (n - 1) * K
}
