package lower

import "github.com/wormlab/wormlab/model"

// AlignedConflicts returns the aligned conflict graph of the instance: vertex i is
// message i, and i ~ j when the two paths share an edge e at which both have the
// same number r of hops left after e (r_i(e) = d_i - k_i = d_j - k_j = r_j(e), with
// e the k-th edge of the path) and r <= min(L_i, L_j) - 1. On a levelled network
// whose paths all end on the last level, r depends on e alone, so the graph is the
// path graph minus the pairs that meet only on edges farther than L - 1 hops from
// the end (for L >= d: exactly the path graph).
//
// Separation lemma. If i ~ j, every legal wormhole schedule has D_j >= D_i + L_j or
// D_i >= D_j + L_i, where D is the delivery time t_d + L - 1.
//
// Proof. By MODEL.md rule 2 the two messages hold e at disjoint times; let i be the
// first. Its tail crosses e with its (k_i + L_i - 1)-th move, in some step tau, and
// i holds e up to time tau, so the head of j crosses e in a step >= tau + 1. As
// k_i + L_i - 1 >= d_i (that is r <= L_i - 1), the head of i has reached its
// destination by then and i drains one move per step, so its last move (number
// d_i + L_i - 1) comes exactly d_i - k_i = r steps later: D_i = tau + r. The head
// of j still has r hops to make after e and then L_j - 1 drain moves, one step each
// at least: D_j >= tau + 1 + r + L_j - 1 = D_i + L_j. The bufferless model is a
// special case, so the lemma holds there too.
//
// Cost O(sum over edges of min(c_e^2, c_e M / 64)) plus O(M^2 / 64) words for
// the graph.
func AlignedConflicts(in *model.Instance) *Graph {
	return alignedConflicts(in, limit{})
}

// alignedConflicts is AlignedConflicts ending once lim's work says so (lim.cut():
// the graph is then partial).
func alignedConflicts(in *model.Instance, lim limit) *Graph {
	g := NewGraph(len(in.Messages))
	words := (len(in.Messages) + 63) / 64
	var mask bitset
	for _, us := range in.Users() {
		if len(us) <= 2*words {
			// pair by pair: O(c_e^2) bits, fewer than a row per user.
			for a := 0; a < len(us); a++ {
				if lim.charge(len(us) - a) {
					return g
				}
				ma := &in.Messages[us[a].Msg]
				ra := len(ma.Path) - us[a].Pos - 1
				for b := a + 1; b < len(us); b++ {
					mb := &in.Messages[us[b].Msg]
					rb := len(mb.Path) - us[b].Pos - 1
					if ra == rb && ra <= min(ma.L, mb.L)-1 {
						g.AddEdge(us[a].Msg, us[b].Msg)
					}
				}
			}
			continue
		}
		// Many users: those with r hops left after the edge and r <= L - 1 are
		// pairwise joined, the others to none; each group's set is or-ed into
		// its members' rows, O(c_e * M / 64) words rather than O(c_e^2) bits:
		// the same graph.
		byR := map[int][]int{}
		for _, u := range us {
			m := &in.Messages[u.Msg]
			if r := len(m.Path) - u.Pos - 1; r <= m.L-1 {
				byR[r] = append(byR[r], u.Msg)
			}
		}
		for _, group := range byR {
			if mask == nil {
				mask = newBitset(len(in.Messages))
			}
			clear(mask)
			for _, v := range group {
				mask.set(v)
			}
			for _, v := range group {
				if lim.charge(words) {
					return g
				}
				row := g.adj[v]
				for i := range row {
					row[i] |= mask[i]
				}
			}
			for _, v := range group {
				g.adj[v][v>>6] &^= 1 << uint(v&63)
			}
		}
	}
	return g
}

// PathGraph returns the instance's path graph (seed 002, Definition 1;
// model.Instance.PathGraph) as a Graph.
func PathGraph(in *model.Instance) *Graph {
	g := NewGraph(len(in.Messages))
	for u, vs := range in.PathGraph().Adj {
		for _, v := range vs {
			g.AddEdge(u, v)
		}
	}
	return g
}
