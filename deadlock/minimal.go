package deadlock

// Fewest worms: a lower bound every configuration obeys, and configurations that
// meet it.
//
// The request graph G_V has a vertex per VC of U* and an edge v -> v' when a live
// node holding v reaches, through live nodes, a node blocked by U* (good) that may
// request v'. In every configuration follow, from any worm, one VC its head waits
// for (atomic: any request; non-atomic: its commitment, or any owned request): it
// lies on the chain of a worm whose chain runs from there to its head, an edge of
// G_V; the walk repeats a worm within as many steps as there are worms. So a
// configuration has at least girth(G_V) worms (the length of G_V's shortest
// cycle), and that is the proof of minimality when a configuration of that many
// worms is found: realize a shortest cycle v_0 -> ... -> v_{L-1} -> v_0 by chains
// from a holder of v_i to a good node requesting v_{i+1}, pairwise disjoint. Under
// non-atomic reallocation each head commits to the next chain's tail VC, and the
// configuration is dead; under atomic reallocation every request of every head
// must also lie on a chain, which Validate checks (and when it fails the bound
// stands and the formula of exact.go searches above it).
//
// G_V is computed by one pass over the nodes in reverse topological order (a
// node's class number is above its successors', graph.go's post-order), carrying
// per node the set of VCs reachable heads request, as bitsets over U*, in blocks
// of VCs to bound memory: O(nodes x |U*| / 64) words of work.

import (
	"context"
	"fmt"
	"math/bits"
	"slices"
)

// reqGraph is G_V: vcs lists U*'s VCs, rows[i] the out-neighbours of vcs[i] as a
// bitset over indices into vcs.
type reqGraph struct {
	vcs   []int32
	index []int32 // VC -> index in vcs, -1 outside U*
	words int
	rows  []uint64 // rows[i*words : (i+1)*words]
}

func (r *reqGraph) row(i int) []uint64 { return r.rows[i*r.words : (i+1)*r.words] }

// buildReqGraph computes G_V under atomic, with per-node bitsets of at most
// blockBits bits at a time (a multiple of 64).
func buildReqGraph(ctx context.Context, g *Graph, fp *Fixpoint, blockBits int) (*reqGraph, error) {
	r := &reqGraph{index: make([]int32, g.Channels)}
	for c := range g.Channels {
		r.index[c] = -1
		if fp.Alive[c] {
			r.index[c] = int32(len(r.vcs))
			r.vcs = append(r.vcs, int32(c))
		}
	}
	a := len(r.vcs)
	r.words = (a + 63) / 64
	r.rows = make([]uint64, a*r.words)
	blockBits = max(64, min(blockBits, r.words*64)/64*64)
	bw := blockBits / 64
	n := g.Nodes()
	req := make([]uint64, n*bw)
	for lo := 0; lo < a; lo += blockBits {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		w0 := lo / 64
		ws := min(bw, r.words-w0) // words in this block
		clear(req)
		for m := range n {
			if m&(1<<16-1) == 0 && ctx.Err() != nil {
				return nil, ctx.Err()
			}
			if !fp.Live[m] {
				continue
			}
			dst := req[m*bw : m*bw+ws]
			for _, s := range g.Succ(int32(m)) {
				if fp.Live[s] {
					src := req[int(s)*bw : int(s)*bw+ws]
					for k := range dst {
						dst[k] |= src[k]
					}
				}
			}
			if fp.Good[m] {
				for _, c := range g.Choices(int32(m)) {
					if i := int(r.index[c]); i >= lo && i < lo+blockBits {
						dst[(i-lo)/64] |= 1 << uint((i-lo)%64)
					}
				}
			}
			row := r.row(int(r.index[g.held[m]]))[w0 : w0+ws]
			for k := range row {
				row[k] |= dst[k]
			}
		}
	}
	return r, nil
}

// girth returns a shortest cycle of G_V as indices into vcs (nil when acyclic),
// searching breadth-first from every vertex and cutting each search at the best
// length so far.
func (r *reqGraph) girth(ctx context.Context) ([]int, error) {
	a := len(r.vcs)
	var best []int
	dist := make([]int32, a)
	par := make([]int32, a)
	q := make([]int32, 0, a)
	for s := range a {
		if s&255 == 0 && ctx.Err() != nil {
			return nil, ctx.Err()
		}
		if len(best) == 1 {
			break
		}
		for i := range dist {
			dist[i] = -1
		}
		dist[s] = 0
		q = append(q[:0], int32(s))
		for h := 0; h < len(q); h++ {
			u := q[h]
			if best != nil && int(dist[u])+1 >= len(best) {
				break
			}
			row := r.row(int(u))
			if row[s/64]>>uint(s%64)&1 == 1 {
				cyc := []int{}
				for x := u; ; x = par[x] {
					cyc = append(cyc, int(x))
					if int(x) == s {
						break
					}
				}
				for i, j := 0, len(cyc)-1; i < j; i, j = i+1, j-1 {
					cyc[i], cyc[j] = cyc[j], cyc[i]
				}
				best = cyc
				break
			}
			for w, word := range row {
				for ; word != 0; word &= word - 1 {
					v := w*64 + bits.TrailingZeros64(word)
					if dist[v] < 0 {
						dist[v] = dist[u] + 1
						par[v] = u
						q = append(q, int32(v))
					}
				}
			}
		}
	}
	return best, nil
}

// realize builds worms along a cycle of G_V (VC identifiers): worm i's chain runs
// from a holder of cyc[i] to a good node that may request cyc[i+1], by a shortest
// path through live nodes avoiding the VCs earlier worms took; under non-atomic
// reallocation its head commits to cyc[i+1]. It returns nil when some worm has no
// such chain. The configuration is not validated.
func realize(g *Graph, fp *Fixpoint, cyc []int32, atomic bool) *Config {
	used := map[int32]bool{}
	for _, c := range cyc {
		used[c] = true // each chain keeps to its own tail VC among the cycle's
	}
	cfg := &Config{g: g, Atomic: atomic}
	for i, v := range cyc {
		want := cyc[(i+1)%len(cyc)]
		delete(used, v)
		path := chainTo(g, fp, v, want, used)
		if path == nil {
			return nil
		}
		for _, m := range path {
			used[g.held[m]] = true
		}
		w := Worm{Nodes: path, Commit: -1}
		if !atomic {
			w.Commit = want
		}
		cfg.Worms = append(cfg.Worms, w)
	}
	return cfg
}

// chainTo is a shortest path through live nodes from a holder of v to a good node
// that may request want, holding no VC of avoid.
func chainTo(g *Graph, fp *Fixpoint, v, want int32, avoid map[int32]bool) []int32 {
	par := map[int32]int32{}
	var q []int32
	for _, m := range g.Holders(v) {
		if fp.Live[m] {
			par[m] = -1
			q = append(q, m)
		}
	}
	for h := 0; h < len(q); h++ {
		m := q[h]
		if fp.Good[m] {
			for _, c := range g.Choices(m) {
				if c == want {
					return pathTo(par, m)
				}
			}
		}
		for _, s := range g.Succ(m) {
			if _, seen := par[s]; seen || !fp.Live[s] || avoid[g.held[s]] {
				continue
			}
			par[s] = m
			q = append(q, s)
		}
	}
	return nil
}

// lowerBound computes girth(G_V) and a configuration along a shortest cycle when
// one validates (nil otherwise); blockBits bounds the bitsets' memory.
func lowerBound(ctx context.Context, g *Graph, fp *Fixpoint, atomic bool, blockBits int) (int, *Config, error) {
	r, err := buildReqGraph(ctx, g, fp, blockBits)
	if err != nil {
		return 0, nil, err
	}
	cyc, err := r.girth(ctx)
	if err != nil {
		return 0, nil, err
	}
	if cyc == nil {
		return 0, nil, fmt.Errorf("deadlock: internal error: U* is not empty but G_V has no cycle")
	}
	vcs := make([]int32, len(cyc))
	for i, x := range cyc {
		vcs[i] = r.vcs[x]
	}
	cfg := realize(g, fp, vcs, atomic)
	if cfg != nil && cfg.Validate() != nil {
		if atomic {
			// cover the requests the cycle leaves uncovered with more worms
			cfg = closeConfig(g, fp, cfg)
		} else {
			cfg = nil
		}
	}
	return len(cyc), cfg, nil
}

// closeConfig adds worms to an atomic configuration until every head's requests
// lie on chains: for a request r no chain holds, the shortest chain through live
// nodes from a holder of r, avoiding the VCs taken, to a good node, preferring
// among the nearest such nodes the one with the fewest requests still uncovered.
// nil when some request cannot be covered (the result then decides nothing).
func closeConfig(g *Graph, fp *Fixpoint, cfg *Config) *Config {
	occ := map[int32]bool{}
	for i := range cfg.Worms {
		for _, v := range cfg.VCs(i) {
			occ[v] = true
		}
	}
	var queue []int32
	for _, w := range cfg.Worms {
		queue = append(queue, g.Choices(w.head())...)
	}
	for steps := 0; len(queue) > 0; steps++ {
		if steps > 4*g.Channels {
			return nil
		}
		r := queue[0]
		queue = queue[1:]
		if occ[r] {
			continue
		}
		path := chainFrom(g, fp, r, occ)
		if path == nil {
			return nil
		}
		for _, m := range path {
			occ[g.held[m]] = true
		}
		cfg.Worms = append(cfg.Worms, Worm{Nodes: path, Commit: -1})
		queue = append(queue, g.Choices(path[len(path)-1])...)
	}
	if cfg.Validate() != nil {
		return nil
	}
	return cfg
}

// chainFrom is a shortest path through live nodes from a holder of v, holding no
// VC of occ, to a good node; among the good nodes at the least depth, the one
// with the fewest requests outside occ and the path.
func chainFrom(g *Graph, fp *Fixpoint, v int32, occ map[int32]bool) []int32 {
	par := map[int32]int32{}
	depth := map[int32]int{}
	var q []int32
	for _, m := range g.Holders(v) {
		if fp.Live[m] {
			par[m], depth[m] = -1, 0
			q = append(q, m)
		}
	}
	best, bestMiss, bestDepth := int32(-1), 1<<30, 1<<30
	for h := 0; h < len(q); h++ {
		m := q[h]
		if depth[m] > bestDepth {
			break
		}
		if fp.Good[m] {
			on := map[int32]bool{}
			for _, x := range pathTo(par, m) {
				on[g.held[x]] = true
			}
			miss := 0
			for _, c := range g.Choices(m) {
				if !occ[c] && !on[c] {
					miss++
				}
			}
			if miss < bestMiss {
				best, bestMiss, bestDepth = m, miss, depth[m]
			}
		}
		for _, s := range g.Succ(m) {
			if _, seen := par[s]; seen || !fp.Live[s] || occ[g.held[s]] {
				continue
			}
			par[s], depth[s] = m, depth[m]+1
			q = append(q, s)
		}
	}
	if best < 0 {
		return nil
	}
	return pathTo(par, best)
}

// pathTo is the path of a breadth-first search's parents (par, -1 at a root)
// from its root to m.
func pathTo(par map[int32]int32, m int32) []int32 {
	var p []int32
	for x := m; x >= 0; x = par[x] {
		p = append(p, x)
	}
	slices.Reverse(p)
	return p
}
