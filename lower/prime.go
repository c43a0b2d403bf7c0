package lower

// The Omega(cd) construction of seed 002 (Ranade, Schleimer, Wilkerson, FOCS 1994),
// section 5, as the paper states it, and a repaired version.
//
// Reading of the paper. The network has levels 0..2p of p nodes; a copy of K_{p,p}
// joins each even level 2k to level 2k+1 and single edges x -> x join each odd level
// to the next. Worm w_i, i = p i_a + i_b, follows the vector
//
//	v_{i,0} = i_a,   v_{i,k} = i_b + k i_a (mod p) for k = 1..p-1,
//
// and the paper relies on "v_{i,k} = v_{j,k} implies a shared edge". Taken
// literally ("v_{i,k} is the position on levels 2k and 2k+1") the path cannot be
// drawn: the single edge out of level 2k+1 keeps the row, so the rows on levels 2k+1
// and 2k+2 are equal, not those on levels 2k and 2k+1. We put the coordinate where
// the network holds it fixed: w_i is in row v_{i,k} on levels 2k+1 and 2k+2 and in
// row v_{i,0} = i_a on level 0, so equal coordinates give exactly a shared single
// edge (2k+1 -> 2k+2), as the paper's argument wants. Every claim is then checked on
// the built instance.
//
// What fails, and why no reading of that network can work. Two worms with
// i_b = j_b and i_a != j_a agree in no coordinate: at k = 0 the vector holds the
// slope (i_a != j_a), and i_b + k i_a = j_b + k j_a only at k = 0 — the paper's
// k_0 = (j_b - i_b)/(i_a - j_a) is 0 for them, and coordinate 0 is not i_b. These
// p * C(p, 2) pairs never meet. More: on the paper's network any set of paths
// meets only on the p single-edge layers (a shared K_{p,p} edge implies a shared
// single edge next to it), each layer has p edges of load <= c, so at most
// p * p * C(c, 2) pairs meet; with c = p that is p^3 (p-1)/2 < C(p^2, 2). The
// shortfall p^2 (p-1)/2 is exactly what the paper's paths miss.
//
// Repaired construction (repaired = true). The worms are the p^2 lines y = b + a x
// of the affine plane over Z_p; two of them meet in exactly one point, at x in Z_p
// or, when parallel, at the point at infinity of slope a. Give each of the p + 1
// points on a line its own single-edge layer: levels 0..2p+1 of p nodes, single
// edges x -> x from each even level 2k to 2k+1 (k = 0..p), K_{p,p} from each odd
// level 2k+1 to 2k+2 (k = 0..p-1). Worm (a, b) is in row a on levels 0 and 1 and in
// row b + k a on levels 2k+2 and 2k+3. Then: p^2 worms, c = p, c_L = p L,
// d = 2p + 1 (so the paper's L >= 2p + 1 is exactly L >= d), every pair shares
// exactly one single edge, and the aligned-clique bound gives
// makespan >= p^2 L + d - 1 = p^2 L + 2p, which sending the worms one after
// another L steps apart attains: the optimum is p^2 L + 2p in both models, against
// c_L + d = p L + 2p + 1 and c_L d = p L (2p + 1).

import (
	"fmt"

	"github.com/wormlab/wormlab/model"
)

// IsPrime reports whether p is a prime.
func IsPrime(p int) bool {
	if p < 2 {
		return false
	}
	for q := 2; q <= p/q; q++ { // q*q <= p would overflow near the range of int
		if p%q == 0 {
			return false
		}
	}
	return true
}

// MaxPrime is the largest p Prime builds: p^2 = 961 worms, whose claims (path
// graph, cliques, colourings) take a few seconds to check.
const MaxPrime = 31

// Prime builds the Omega(cd) instance of seed 002, section 5, for a prime p and
// messages of L >= 2p + 1 flits, as the paper states it (repaired = false, see the
// reading above) or repaired (p + 1 single-edge layers, 2p + 2 levels). Nodes are
// named "l<level>.<row>", worms "w<i>" with i = p a + b; the network carries its
// "levels" and the instance a "topology" object {"kind": "prime", "p", "repaired"}.
func Prime(p, L int, repaired bool) (*model.Instance, error) {
	// The limit first: trial division of a p near the range of int takes seconds.
	if p > MaxPrime {
		return nil, fmt.Errorf("prime construction: p = %d is above the limit %d", p, MaxPrime)
	}
	if !IsPrime(p) {
		return nil, fmt.Errorf("prime construction: p = %d is not a prime", p)
	}
	if L < 2*p+1 {
		return nil, fmt.Errorf("prime construction: L = %d is below 2p + 1 = %d", L, 2*p+1)
	}
	if L > model.MaxTotalFlits/(p*p) {
		return nil, fmt.Errorf("prime construction: L = %d: the p^2 = %d worms' lengths sum to more than %d (at most L = %d)", L, p*p, model.MaxTotalFlits, model.MaxTotalFlits/(p*p))
	}
	top := 2 * p // the last level
	if repaired {
		top = 2*p + 1
	}
	net := &model.Network{}
	node := make([][]int, top+1)
	var levels []int
	for l := 0; l <= top; l++ {
		node[l] = make([]int, p)
		for x := 0; x < p; x++ {
			node[l][x] = net.AddNode(fmt.Sprintf("l%d.%d", l, x))
			levels = append(levels, l)
		}
	}
	// complete[l]: the layer from level l to l+1 is a K_{p,p}, else single edges.
	complete := func(l int) bool { return (l%2 == 0) != repaired }
	for l := 0; l < top; l++ {
		for x := 0; x < p; x++ {
			if complete(l) {
				for y := 0; y < p; y++ {
					net.AddEdge(node[l][x], node[l+1][y])
				}
			} else {
				net.AddEdge(node[l][x], node[l+1][x])
			}
		}
	}
	net.SetExtra("levels", levels)
	in := &model.Instance{Name: fmt.Sprintf("prime-p%d-L%d", p, L), Net: net, Flits: L}
	if repaired {
		in.Name += "-repaired"
	}
	for i := 0; i < p*p; i++ {
		rows := PrimeRows(p, i, repaired)
		path := make([]int, top)
		for l := 0; l < top; l++ {
			path[l] = net.EdgesBetween(node[l][rows[l]], node[l+1][rows[l+1]])[0]
		}
		in.Messages = append(in.Messages, model.Message{ID: fmt.Sprintf("w%d", i), Path: path, L: L})
	}
	in.SetExtra("topology", map[string]any{"kind": "prime", "p": p, "repaired": repaired})
	return in, nil
}

// PrimeRows returns the row of worm w_i (i = p a + b) on each level of the
// construction (2p + 1 levels, or 2p + 2 when repaired).
func PrimeRows(p, i int, repaired bool) []int {
	a, b := i/p, i%p
	if !repaired {
		rows := make([]int, 2*p+1)
		rows[0] = a
		for k := 0; k < p; k++ {
			v := a // v_{i,0}
			if k > 0 {
				v = (b + k*a) % p
			}
			rows[2*k+1], rows[2*k+2] = v, v
		}
		return rows
	}
	rows := make([]int, 2*p+2)
	rows[0], rows[1] = a, a
	for k := 0; k < p; k++ {
		v := (b + k*a) % p
		rows[2*k+2], rows[2*k+3] = v, v
	}
	return rows
}
