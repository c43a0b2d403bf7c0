package optimal

// Phase hints: the CDCL search starts from a known schedule. gini decides a
// variable with its saved phase (the value it last had, its "cache"); a solver
// whose saved phases are those of the best schedule so far, with the horizon
// cut below its makespan, searches first near that schedule and repairs the
// few worms that no longer fit (solution-guided phases, as in the
// solution-based phase saving of Demirović, Chu and Stuckey, "Solution-based
// phase saving for CP: a value-selection heuristic to simulate local search
// behavior in complete solvers", CP 2018).
//
// gini v1.0.4 has no call to set a phase, so hint writes its phase cache
// through reflection (the layout of its internal/xo package, checked: a
// different layout makes hint a no-op that reports false, and
// TestHintReachesGini fails).

import (
	"reflect"
	"unsafe"

	"github.com/go-air/gini"
	"github.com/wormlab/wormlab/model"
)

// hint sets the saved phase of every time variable of f in g to its value in
// sch ("t <= v" true iff the schedule's time is at most v), and keeps gini from
// replacing the saved phases by its clause-count guesses at its first solve.
// The precedence and auxiliary variables keep theirs (they follow by
// propagation once the times are decided). It reports whether gini's layout
// was as expected; it must not be called while g solves.
func hint(g *gini.Gini, f *Formula, sch *model.Schedule) bool {
	cache, phases, max, ok := giniPhases(g)
	if !ok {
		return false
	}
	idx := f.in.Index()
	for _, t := range sch.Messages {
		i, found := idx[t.ID]
		if !found {
			continue
		}
		// the formula's chains of message i: a schedule of another instance
		// cannot reach another message's variables
		hops := min(len(t.Cross), len(f.in.Messages[i].Path))
		if f.Model == model.Bufferless {
			hops = min(hops, 1)
		}
		for k := 1; k <= hops; k++ {
			c := f.chainOf(i, k)
			x := t.Cross[k-1]
			for v := c.lo; v < c.hi; v++ {
				l := f.le(c, v)
				if l <= 0 || l >= len(cache) {
					continue
				}
				if x <= v {
					cache[l] = 1
				} else {
					cache[l] = -1
				}
			}
		}
	}
	*phases = *max // the phases are set: gini's first solve leaves them
	return true
}

// giniPhases returns gini's saved phases (indexed by variable, 1 true, -1
// false), its record of the variables whose phases are set, and its largest
// variable; ok is false if gini's layout is not the expected one.
func giniPhases(g *gini.Gini) (cache []int8, phases, max *uint32, ok bool) {
	defer func() {
		if recover() != nil {
			ok = false
		}
	}()
	s := reflect.ValueOf(g).Elem().FieldByName("xo")
	if !s.IsValid() || s.Kind() != reflect.Pointer || s.IsNil() {
		return nil, nil, nil, false
	}
	s = s.Elem()
	guess, vars, ph := s.FieldByName("Guess"), s.FieldByName("Vars"), s.FieldByName("phases")
	if guess.Kind() != reflect.Pointer || guess.IsNil() || vars.Kind() != reflect.Pointer || vars.IsNil() || ph.Kind() != reflect.Uint32 {
		return nil, nil, nil, false
	}
	c, m := guess.Elem().FieldByName("cache"), vars.Elem().FieldByName("Max")
	if c.Kind() != reflect.Slice || c.Type().Elem().Kind() != reflect.Int8 || m.Kind() != reflect.Uint32 {
		return nil, nil, nil, false
	}
	cache = *(*[]int8)(unsafe.Pointer(c.UnsafeAddr()))
	return cache, (*uint32)(unsafe.Pointer(ph.UnsafeAddr())), (*uint32)(unsafe.Pointer(m.UnsafeAddr())), true
}
