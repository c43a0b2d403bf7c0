package adversary

import (
	"fmt"
	"sort"
	"strings"
)

// Strategy drives one chain: it draws neighbours (Chain.Neighbour), measures them
// (Chain.Evaluate) and decides what to keep, until Chain.Done. The chain keeps its
// best candidate itself, so a strategy only decides where to go next. Each
// strategy is a value in its own file (strategy_*.go) registered by name.
type Strategy interface {
	Name() string
	Run(c *Chain)
}

var strategyRegistry = map[string]strategyEntry{}

type strategyEntry struct {
	s     Strategy
	about string
}

// registerStrategy makes a strategy available by name; a name registered twice
// panics (programmer error).
func registerStrategy(s Strategy, about string) {
	if _, dup := strategyRegistry[s.Name()]; dup {
		panic("adversary: strategy registered twice: " + s.Name())
	}
	strategyRegistry[s.Name()] = strategyEntry{s, about}
}

// Strategies lists the registered strategy names, sorted.
func Strategies() []string {
	var names []string
	for n := range strategyRegistry {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// StrategyAbout is the one-line description of a registered strategy.
func StrategyAbout(name string) string { return strategyRegistry[name].about }

// LookupStrategy returns the named strategy with its default parameters.
func LookupStrategy(name string) (Strategy, error) {
	e, ok := strategyRegistry[name]
	if !ok {
		return nil, fmt.Errorf("unknown strategy %q (want one of %s)", name, strings.Join(Strategies(), ", "))
	}
	return e.s, nil
}

// evaluateStart measures the chain's start (floor 0), retrying with random sets
// when it cannot be measured; the invalid candidate when the chain stops first.
func evaluateStart(c *Chain, s *Set) Candidate {
	for !c.Done() {
		if cand, ok := c.Evaluate(s, 0); ok {
			return cand
		}
		s = c.Random()
	}
	return Candidate{}
}
