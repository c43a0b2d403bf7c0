package objective

import (
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/wormlab/wormlab/model"
	"github.com/wormlab/wormlab/online"
)

// entry is a registered objective: its sides built for the solver's model and
// time, and a line on what it measures.
type entry struct {
	about string
	build func(opt Optimum) (num, den Measure)
}

var registry = map[string]entry{
	"opt/lower": {"the optimum / the best lower bound wormlab computes (lower.Best)",
		func(o Optimum) (Measure, Measure) { return o, LowerBound{} }},
	"opt/all-bounds": {"the optimum / the best of every lower bound wormlab computes (lower.Best and the solver's edge-set bound: wormlab lower bounds)",
		func(o Optimum) (Measure, Measure) { return o, AllBounds{EdgeSetTime: 5 * time.Second} }},
	"opt/cd": {"the optimum / max(c_L, d + L - 1), the classical lower bound",
		func(o Optimum) (Measure, Measure) { return o, CD }},
	"opt/cl+d-1": {"the optimum / (c_L + d - 1), the O(c + d) of the offline colourings",
		func(o Optimum) (Measure, Measure) { return o, CPlusD }},
	"opt/cl.d": {"the optimum / (c_L d), the Omega(cd) question of seed 002, section 5",
		func(o Optimum) (Measure, Measure) { return o, CTimesD }},
	"greedy/opt": {"online greedy's makespan / the optimum",
		func(o Optimum) (Measure, Measure) { return Greedy{}, o }},
	"greedy/bound": {"online greedy's makespan / the best lower bound (no solver: for larger networks)",
		func(Optimum) (Measure, Measure) { return Greedy{}, LowerBound{} }},
	"colorer/opt": {"the offline colorer's makespan / the bufferless optimum",
		func(o Optimum) (Measure, Measure) { return Colorer{}, o }},
	"colorer/bound": {"the offline colorer's makespan / the best lower bound (no solver)",
		func(Optimum) (Measure, Measure) { return Colorer{}, LowerBound{} }},
	"greedy/lemma1": {"online greedy's makespan / Lemma 1's d + sum_C L (levelled networks, paths from level 0 to the last)",
		func(Optimum) (Measure, Measure) { return Greedy{}, Lemma1 }},
	"phased/theorem1": {"the phased algorithm's makespan (alpha 1/2, seed 1) / Theorem 1's bound at alpha 1/2 (levelled networks)",
		func(Optimum) (Measure, Measure) { return Online{Algo: online.Phased{}, Seed: 1}, Theorem1 }},
	"delayed/theorem4": {"Algorithm A's makespan (seed 1) / Theorem 4's P T (seed 000)",
		func(Optimum) (Measure, Measure) { return Online{Algo: online.AlgorithmA{}, Seed: 1}, Theorem4 }},
	"colorer/proven": {"the offline colorer's makespan / the bound its plan proves",
		func(Optimum) (Measure, Measure) { return Colorer{}, ColorerPlan }},
}

// fewestFirst are the objectives whose searches rank the fewest worms first at
// equal ratio; the others rank the densest path graphs first (adversary.Rankings).
var fewestFirst = map[string]bool{"opt/cd": true, "opt/cl+d-1": true, "opt/cl.d": true}

// DefaultRanking is the ranking of candidates of equal ratio a search for the
// objective uses unless told otherwise: "fewest" for the ratios over c_L and d,
// which move in steps of L over the congestion (the plateau walk frees room for
// the next step), "densest" for the others, which are 1 on most candidates.
func DefaultRanking(objective string) string {
	if fewestFirst[objective] {
		return "fewest"
	}
	return "densest"
}

// Names lists the objective names, sorted.
func Names() []string {
	var names []string
	for n := range registry {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// About is the one-line description of a named objective.
func About(name string) string { return registry[name].about }

// DefaultModel is the solver's model for an objective: bufferless for the colorer
// objectives (the colorer's schedules are bufferless), else wormhole.
func DefaultModel(objective string) string {
	if strings.HasPrefix(objective, "colorer/") {
		return model.Bufferless
	}
	return model.Wormhole
}

// Lookup returns the named objective with the solver in modelName within timeout
// per candidate.
func Lookup(name, modelName string, timeout time.Duration) (Ratio, error) {
	e, ok := registry[name]
	if !ok {
		return Ratio{}, fmt.Errorf("unknown objective %q (want one of %s)", name, strings.Join(Names(), ", "))
	}
	num, den := e.build(Optimum{Model: modelName, Timeout: timeout})
	return Ratio{Name: name, Num: num, Den: den}, nil
}
