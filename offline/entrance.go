package offline

// Entrance sets: Definition 3 of Ranade, Schleimer and Wilkerson (seed 002, section
// 4.2). A total order <* on the paths is k-entrant when every path q has a set
// entrance(q) of at most k of its edges such that every path p <* q that shares an
// edge with q uses some edge of entrance(q). Lemma 6 turns a k-entrant order into a
// colouring with starts at most k(c-1) (L = 1), section 4.5 into (2L-1) k (c-1).

import (
	"fmt"
	"slices"

	"github.com/wormlab/wormlab/model"
)

// Entrances is the entrance data of one total order on the messages.
type Entrances struct {
	// Sets[i] lists the entrance edges of message i (edge indices, in path order).
	Sets [][]int
	// K is the largest set: the order is K-entrant.
	K int
	// Exact is true when every set is as small as possible, so that K is the
	// smallest k for which the order is k-entrant.
	Exact bool
}

// hitSearchLimit bounds the branch-and-bound search for a smallest hitting set when
// the shared edges of two paths are not contiguous on the later path.
const hitSearchLimit = 1 << 16

// MinEntrances computes, for a total order given in parts, a smallest entrance set
// for every message: a smallest set of edges of q meeting every earlier path of q's
// part that shares an edge with q. Each part lists message indices, smallest first;
// paths of different parts do not constrain each other (the mesh colorer schedules
// its classes apart in time), so one part holding all messages is the plain case.
// Messages in no part get no set.
//
// For each message q the earlier paths meeting it give sets of positions on q. When
// each such set is an interval of positions (always so on trees and within a mesh
// class, where two paths share one contiguous piece), the smallest hitting set is
// found exactly by stabbing the intervals at their right ends, in order of right
// ends. Otherwise a branch-and-bound search is tried, and if it exceeds its budget
// the greedy answer is kept and Exact is false.
//
// Cost: O(sum over q of sum_{e in q} c_e) to collect the intersections, plus the
// sorting; the fallback search is exponential but bounded.
func MinEntrances(in *model.Instance, parts [][]int) (*Entrances, error) {
	part := make([]int, len(in.Messages))
	rank := make([]int, len(in.Messages))
	for i := range part {
		part[i] = -1
	}
	for pi, order := range parts {
		if err := checkOrderPart(in, order); err != nil {
			return nil, err
		}
		for r, i := range order {
			if part[i] >= 0 {
				return nil, fmt.Errorf("offline: message index %d is in two parts", i)
			}
			part[i], rank[i] = pi, r
		}
	}
	users := in.Users()
	res := &Entrances{Sets: make([][]int, len(in.Messages)), Exact: true}
	first := make(map[int]int) // earlier message -> index into sets
	for q := range in.Messages {
		if part[q] < 0 {
			continue
		}
		path := in.Messages[q].Path
		clear(first)
		var sets [][]int // positions on q, ascending
		for pos, e := range path {
			for _, u := range users[e] {
				if part[u.Msg] != part[q] || rank[u.Msg] >= rank[q] {
					continue
				}
				j, ok := first[u.Msg]
				if !ok {
					j = len(sets)
					first[u.Msg] = j
					sets = append(sets, nil)
				}
				sets[j] = append(sets[j], pos)
			}
		}
		hit, exact := minHittingSet(sets)
		if !exact {
			res.Exact = false
		}
		es := make([]int, len(hit))
		for j, pos := range hit {
			es[j] = path[pos]
		}
		res.Sets[q] = es
		res.K = max(res.K, len(es))
	}
	return res, nil
}

// minHittingSet returns a smallest set of positions meeting every set (each sorted
// ascending), sorted, and whether it is certainly smallest.
func minHittingSet(sets [][]int) ([]int, bool) {
	intervals := true
	for _, s := range sets {
		if s[len(s)-1]-s[0]+1 != len(s) {
			intervals = false
			break
		}
	}
	if intervals {
		return stab(sets), true
	}
	best := greedyHit(sets)
	budget := hitSearchLimit
	var chosen []int
	var search func(open [][]int) bool
	search = func(open [][]int) bool {
		if budget--; budget < 0 {
			return false
		}
		if len(open) == 0 {
			if len(chosen) < len(best) {
				best = slices.Clone(chosen)
			}
			return true
		}
		if len(chosen)+1 >= len(best) {
			return true // cannot improve on best
		}
		// Branch on the elements of the smallest open set.
		small := open[0]
		for _, s := range open[1:] {
			if len(s) < len(small) {
				small = s
			}
		}
		for _, pos := range small {
			var rest [][]int
			for _, s := range open {
				if _, hit := slices.BinarySearch(s, pos); !hit {
					rest = append(rest, s)
				}
			}
			chosen = append(chosen, pos)
			ok := search(rest)
			chosen = chosen[:len(chosen)-1]
			if !ok {
				return false
			}
		}
		return true
	}
	exact := search(sets)
	slices.Sort(best)
	return best, exact
}

// stab returns a smallest set of points meeting every interval (given as the sorted
// list of its positions): sort by right end, take a right end whenever an interval
// is not yet met. The classical exchange argument makes this optimal.
func stab(sets [][]int) []int {
	type iv struct{ lo, hi int }
	ivs := make([]iv, len(sets))
	for j, s := range sets {
		ivs[j] = iv{s[0], s[len(s)-1]}
	}
	slices.SortFunc(ivs, func(a, b iv) int { return a.hi - b.hi })
	var pts []int
	last := -1
	for _, v := range ivs {
		if len(pts) > 0 && v.lo <= last {
			continue
		}
		last = v.hi
		pts = append(pts, last)
	}
	return pts
}

// greedyHit repeatedly takes the position met by most open sets.
func greedyHit(sets [][]int) []int {
	open := slices.Clone(sets)
	var pts []int
	for len(open) > 0 {
		count := map[int]int{}
		bestPos, bestN := -1, 0
		for _, s := range open {
			for _, p := range s {
				count[p]++
				if n := count[p]; n > bestN || (n == bestN && p < bestPos) {
					bestPos, bestN = p, n
				}
			}
		}
		pts = append(pts, bestPos)
		open = slices.DeleteFunc(open, func(s []int) bool {
			_, hit := slices.BinarySearch(s, bestPos)
			return hit
		})
	}
	slices.Sort(pts)
	return pts
}

// CheckEntrances checks that sets (indexed like in.Messages) are entrance sets for
// the order given in parts, as for MinEntrances (Definition 3): every set lies on its path, and every earlier path that
// shares an edge with a later one uses an edge of the later one's set. It returns
// the largest set size k, or an error naming the first pair of messages at fault.
func CheckEntrances(in *model.Instance, parts [][]int, sets [][]int) (int, error) {
	k := 0
	for _, part := range parts {
		if err := checkOrderPart(in, part); err != nil {
			return 0, err
		}
	}
	users := in.Users()
	for _, part := range parts {
		rank := make(map[int]int, len(part))
		for r, i := range part {
			rank[i] = r
		}
		for _, q := range part {
			mq := &in.Messages[q]
			set := sets[q]
			k = max(k, len(set))
			for _, e := range set {
				if !slices.Contains(mq.Path, e) {
					return 0, fmt.Errorf("offline: message %q: entrance edge %d is not on its path", mq.ID, e)
				}
			}
			met := map[int]bool{}
			for _, e := range set {
				for _, u := range users[e] {
					met[u.Msg] = true
				}
			}
			for _, e := range mq.Path {
				for _, u := range users[e] {
					if r, ok := rank[u.Msg]; ok && r < rank[q] && !met[u.Msg] {
						return 0, fmt.Errorf("offline: message %q comes before %q and shares edge %d with it, but uses no entrance edge of %q",
							in.Messages[u.Msg].ID, mq.ID, e, mq.ID)
					}
				}
			}
		}
	}
	return k, nil
}

// checkOrderPart reports an error unless part lists distinct message indices.
func checkOrderPart(in *model.Instance, part []int) error {
	seen := make(map[int]bool, len(part))
	for _, i := range part {
		if i < 0 || i >= len(in.Messages) || seen[i] {
			return fmt.Errorf("offline: order lists message index %d twice or out of range", i)
		}
		seen[i] = true
	}
	return nil
}
