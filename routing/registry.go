// Package routing holds the routing algorithms of the seeds as values of
// sim.Routing, one file each, and the registry the command line picks them from;
// and those of today's interconnects (issue 25): on the dragonfly minimal routing,
// Valiant's and UGAL-L / UGAL-G (dragonfly.go, df_*.go), on HyperX and the
// flattened butterfly dimension order and DAL (hyperx.go, hx_*.go), on the k-ary
// n-fly destination tags (fly_tag.go), on any network up*/down* and shortest-path
// tables (any*.go). Each file gives the VC classes its algorithm needs and why they
// are enough; package deadlock's tests prove each at that count on two sizes or
// more.
package routing

import (
	"fmt"
	"sort"
	"strings"

	"github.com/wormlab/wormlab/sim"
	"github.com/wormlab/wormlab/topology"
)

// Algorithm describes one routing algorithm for the registry.
type Algorithm struct {
	// Name is the command line's name for it ("dor", "duato", ...).
	Name string
	// Summary is one line for help texts, with the paper it comes from.
	Summary string
	// MinVCs is the number of virtual channels per physical channel the algorithm
	// needs on net to be deadlock-free; an error when it does not apply to net (a
	// mesh-only algorithm on a torus, negative-hop on a torus of odd side).
	MinVCs func(net topology.Network) (int, error)
	// Atomic says the algorithm's deadlock freedom rests on Duato's theorem, which
	// assumes a VC queue never holds flits of two packets: the simulator should
	// then reallocate a VC only once its buffer is empty (sim.Config.AtomicVC).
	Atomic bool
	// Refuted, when it returns a reason for net, says why no VC count makes the
	// algorithm deadlock-free there (a reading of a paper that the checker
	// refutes, kept to be compared): MinVCs is then the count the reading uses,
	// and the simulator runs it on net only when asked to run unsafe
	// configurations. Nil, or "" for net: not refuted on net (RefutedOn).
	Refuted func(net topology.Network) string
	// New builds the routing function for net with vcs virtual channels per
	// physical channel (vcs may be below MinVCs only when the caller asked for an
	// unsafe run; New then still routes, with fewer classes, where it can).
	New func(net topology.Network, vcs int) (sim.Routing, error)
}

// RefutedOn is why the algorithm is not deadlock-free on net with any VC count
// (Refuted), "" where it is not refuted.
func (a Algorithm) RefutedOn(net topology.Network) string {
	if a.Refuted == nil {
		return ""
	}
	return a.Refuted(net)
}

var registry = map[string]Algorithm{}

// Register adds an algorithm; each algorithm's file calls it from init. It panics on
// a name registered twice (a programmer error).
func Register(a Algorithm) {
	if _, dup := registry[a.Name]; dup {
		panic("routing: algorithm registered twice: " + a.Name)
	}
	registry[a.Name] = a
}

// Lookup returns the algorithm of that name; "table:FILE" is the routing table in
// FILE (table.go), read and checked at once.
func Lookup(name string) (Algorithm, error) {
	if file, ok := strings.CutPrefix(name, "table:"); ok {
		return TableAlgorithm(file)
	}
	if canon, ok := aliases[name]; ok {
		name = canon
	}
	a, ok := registry[name]
	if !ok {
		return Algorithm{}, fmt.Errorf("unknown routing %q (want one of %s, or table:FILE; %s)", name, strings.Join(Names(), ", "), aliasText())
	}
	return a, nil
}

// aliases are other names of registered algorithms (docs/cli.md): the command
// line's one vocabulary across commands.
var aliases = map[string]string{}

// RegisterAlias makes alias another name of the algorithm name (from init).
func RegisterAlias(alias, name string) {
	if _, dup := aliases[alias]; dup {
		panic("routing: alias registered twice: " + alias)
	}
	aliases[alias] = name
}

// aliasText lists the aliases, "xy and dimension-order are dor".
func aliasText() string {
	by := map[string][]string{}
	for a, n := range aliases {
		by[n] = append(by[n], a)
	}
	var parts []string
	for _, n := range sortedNames(by) {
		as := by[n]
		sort.Strings(as)
		verb := " is "
		if len(as) > 1 {
			verb = " are "
		}
		parts = append(parts, strings.Join(as, " and ")+verb+n)
	}
	return strings.Join(parts, "; ")
}

func sortedNames(m map[string][]string) []string {
	ns := make([]string, 0, len(m))
	for n := range m {
		ns = append(ns, n)
	}
	sort.Strings(ns)
	return ns
}

// Names lists the registered algorithms in alphabetical order.
func Names() []string {
	ns := make([]string, 0, len(registry))
	for n := range registry {
		ns = append(ns, n)
	}
	sort.Strings(ns)
	return ns
}
