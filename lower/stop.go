package lower

// stopCheck is the number of units of work (a bitset word or a vertex visited)
// between two looks at a limit's stop outside the search nodes: about a
// millisecond of work, so that Ctrl-C ends a graph's construction or a search of
// any size within a second (one search node of an n-vertex graph costs O(n^2 /
// 64) words or more, the greedy clique and DSATUR's first colouring O(n^3 / 64)),
// while the looks cost nothing measurable.
const stopCheck = 1 << 20

// worked is the work a limit has counted since its stop was last asked, and
// whether stop has said to end (then every later look says so at once).
type worked struct {
	units int
	done  bool
}

// charge counts units of work and reports whether the search must end. Only a
// limit with work (BoundsWithin's) asks stop here, once every stopCheck units;
// without, it never ends a search (over still asks stop at every node).
func (l limit) charge(units int) bool {
	if l.work == nil || l.stop == nil {
		return false
	}
	if l.work.done {
		return true
	}
	l.work.units += units
	if l.work.units < stopCheck {
		return false
	}
	l.work.units = 0
	l.work.done = l.stop()
	return l.work.done
}

// cut reports whether stop has ended the work charged (a graph built by a limit
// that says so is partial and is not to be searched).
func (l limit) cut() bool { return l.work != nil && l.work.done }
