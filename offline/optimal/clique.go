package optimal

// Aligned cliques: sets of messages that pairwise conflict at positions that agree
// with one potential per message. They serialise like jobs on one machine, which
// gives a lower bound (Jackson's preemptive schedule, as in model.EdgeBound) and the
// cardinality constraints of card.go. The family generalises the single edge of the
// MODEL.md edge bound and the all-pairs-colliding construction of Ranade, Schleimer
// and Wilkerson (FOCS 1994, section 5), where no two worms can be in the network
// together.

import (
	"context"
	"sort"
	"strconv"

	"github.com/wormlab/wormlab/model"
)

// job is one member of an aligned clique seen as a job on one machine: a block J of
// L consecutive steps, J = [start, start+L-1] with start = t_hop + shift, released at
// r (start >= r in every schedule), followed by at least q more steps before the
// makespan. The blocks of a clique are pairwise disjoint in every legal schedule.
type job struct {
	msg, hop, shift int
	r, p, q         int
}

// clique is an aligned clique with its jobs, and its Jackson bound.
type clique struct {
	jobs  []job
	value int
	// edge is true for the users of one edge (the MODEL.md edge bound's case).
	edge bool
}

// cliqueBound returns the aligned clique with the largest Jackson bound found by
// cliques (value 0 when there is none).
func cliqueBound(in *model.Instance, modelName string) clique {
	return cliqueBoundWithin(context.Background(), in, modelName)
}

// cliqueBoundWithin is cliqueBound over the cliques found before ctx ends
// (cliquesWithin).
func cliqueBoundWithin(ctx context.Context, in *model.Instance, modelName string) clique {
	var best clique
	for _, c := range cliquesWithin(ctx, in, modelName) {
		if c.value > best.value {
			best = c
		}
	}
	return best
}

// cliques returns aligned cliques of at least two messages found greedily, one per
// edge (its users) and one grown from every message.
//
// Lemma (aligned clique). Let S be a set of messages with potentials c_i such that
// every two i, j in S share an edge at hops k_i, k_j with k_i - k_j = c_i - c_j.
//   - Bufferless: the blocks J_i = [s_i + c_i, s_i + c_i + L_i - 1] are pairwise
//     disjoint, start at or after c_i, and D_i = end(J_i) + (d_i - c_i).
//     Proof: i before j on their shared edge means s_j + k_j >= s_i + k_i + L_i, so
//     s_j + c_j >= s_i + c_i + L_i.
//   - Wormhole, when in addition L_i >= d_i - k_i and L_j >= d_j - k_j at that edge
//     (the tail is still on the edge when the head arrives): the blocks
//     J_i = [D_i - (d_i - c_i) - L_i + 1, D_i - (d_i - c_i)] are pairwise disjoint and
//     start at or after c_i. Proof: i before j on e means t^j_{k_j} >= M_i(k_i + L_i)
//     = t^i_{d_i} + k_i + L_i - d_i, hence D_j >= D_i + L_j + (d_j - k_j) - (d_i - k_i),
//     which is start(J_j) >= end(J_i) + 1 by the potential condition. Without the
//     condition the leader may wait after the shared edge and the bound fails
//     (testdata/clique-wormhole-condition.json).
//   - Wormhole, users of one edge (c_i = k_i): J_i = [t_{k_i}, t_{k_i} + L_i - 1] lies
//     in i's holding of the edge.
//
// In each case the makespan is at least the optimum of one machine with release c_i,
// processing L_i and tail d_i - c_i.
func cliques(in *model.Instance, modelName string) []clique {
	return cliquesWithin(context.Background(), in, modelName)
}

// cliqueCheck is the number of pair visits between two looks of cliquesWithin at
// its context: about a millisecond of work.
const cliqueCheck = 1 << 18

// jacksonUnits is the work of a user of an edge in cliquesWithin's one-edge
// cliques (Jackson's rule, a sort and a heap), counted in pair visits: about
// 160 ns a user on gen mesh:50x50 --messages 20000 --flits 4, against the 4 ns
// of a pair visit (cliqueCheck).
const jacksonUnits = 40

// cliquesWithin is cliques returning the cliques found so far once ctx ends,
// looked at every cliqueCheck pair visits (on n worms sharing one edge the
// offsets take n^2 / 2 visits and growing a clique from every message n^3 / 2:
// 2000 such worms ran 7 CPU-seconds past solve --timeout 5s). Each clique it
// returns is a whole aligned clique, so a bound from them is valid.
func cliquesWithin(ctx context.Context, in *model.Instance, modelName string) []clique {
	if ctx.Err() != nil {
		return nil
	}
	stop := stopEvery(ctx, cliqueCheck)
	n := len(in.Messages)
	users := in.Users()
	var out []clique
	add := func(js []job, edge bool) {
		if len(js) >= 2 {
			out = append(out, clique{jobs: js, value: jackson(js), edge: edge})
		}
	}
	// Single edges: Jackson's rule on each edge's users costs about as much a
	// user as jacksonUnits pair visits.
	for _, us := range users {
		if len(us) < 2 {
			continue
		}
		if stop(jacksonUnits * len(us)) {
			return out
		}
		js := make([]job, 0, len(us))
		for _, u := range us {
			m := &in.Messages[u.Msg]
			k := u.Pos + 1
			js = append(js, makeJob(modelName, m, u.Msg, k, k, true))
		}
		add(js, true)
	}
	// Grown cliques: offsets[i][j] lists k_i - k_j over the usable shared edges.
	offsets := make([]map[int][]int, n)
	for i := range offsets {
		offsets[i] = map[int][]int{}
	}
	for _, us := range users {
		for x, a := range us {
			if stop(len(us) - x) {
				return out
			}
			for _, b := range us[x+1:] {
				i, j := a.Msg, b.Msg
				ki, kj := a.Pos+1, b.Pos+1
				if modelName == model.Wormhole && (in.Messages[i].L < len(in.Messages[i].Path)-ki || in.Messages[j].L < len(in.Messages[j].Path)-kj) {
					continue
				}
				offsets[i][j] = append(offsets[i][j], ki-kj)
				offsets[j][i] = append(offsets[j][i], kj-ki)
			}
		}
	}
	order := make([]int, n)
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return len(offsets[order[a]]) > len(offsets[order[b]]) })
	rank := make([]int, n)
	for x, i := range order {
		rank[i] = x
	}
	seen := map[string]bool{}
	var cands []int
	for _, seed := range order {
		if len(offsets[seed]) == 0 {
			continue
		}
		members := []int{seed}
		pot := map[int]int{seed: 0}
		// A member conflicts with the seed, so only the seed's neighbours
		// are tried, in the order of order (the messages that share no edge
		// with it had no offset to try: scanning all of order for each seed
		// was n^2 map reads, 118 s of CPU on 2 * 10^4 worms, before any
		// look at the context).
		cands = cands[:0]
		for m := range offsets[seed] {
			cands = append(cands, m)
		}
		sort.Slice(cands, func(a, b int) bool { return rank[cands[a]] < rank[cands[b]] })
		for _, m := range cands {
			if stop(len(members)) {
				return out
			}
			if _, in := pot[m]; in {
				continue
			}
			first := members[0]
			for _, a := range offsets[m][first] {
				c := pot[first] + a // c_m - c_first = k_m - k_first
				ok := true
				for _, i := range members[1:] {
					if !hasOffset(offsets[m][i], c-pot[i]) {
						ok = false
						break
					}
				}
				if ok {
					members = append(members, m)
					pot[m] = c
					break
				}
			}
		}
		if len(members) < 3 {
			continue
		}
		sort.Ints(members)
		var kb []byte // the members' indices (a rune per index would map the surrogates to one)
		for _, m := range members {
			kb = strconv.AppendInt(kb, int64(m), 10)
			kb = append(kb, ',')
		}
		key := string(kb)
		if seen[key] {
			continue
		}
		seen[key] = true
		// Normalise the potentials so that the smallest is 1.
		lo := pot[members[0]]
		for _, m := range members {
			lo = min(lo, pot[m])
		}
		js := make([]job, 0, len(members))
		for _, m := range members {
			js = append(js, makeJob(modelName, &in.Messages[m], m, pot[m]-lo+1, 0, false))
		}
		add(js, false)
	}
	return out
}

func hasOffset(as []int, a int) bool {
	for _, x := range as {
		if x == a {
			return true
		}
	}
	return false
}

// makeJob builds the job of message i with potential c; edge is true for the
// single-edge form, with the edge at hop k.
func makeJob(modelName string, m *model.Message, i, c, k int, edge bool) job {
	d := len(m.Path)
	j := job{msg: i, r: c, p: m.L, q: d - c}
	switch {
	case modelName == model.Bufferless:
		j.hop, j.shift = 1, c-1 // start = s_i + c = t_1 - 1 + c
	case edge:
		j.hop, j.shift = k, 0 // start = t_k
	default:
		j.hop, j.shift = d, c-d // start = D - (d - c) - L + 1 = t_d - d + c
	}
	return j
}

// jackson returns the optimum of the preemptive one-machine problem "minimise
// max (C + q)" for the jobs (release r, processing p, tail q): model.JacksonBound,
// the rule behind MODEL.md's edge bound.
func jackson(js []job) int {
	mj := make([]model.Job, len(js))
	for i, j := range js {
		mj[i] = model.Job{R: j.r, P: j.p, Q: j.q}
	}
	return model.JacksonBound(mj)
}
