package topology

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/wormlab/wormlab/model"
)

// Network is what a router-level simulator and a channel-dependency checker need of
// a topology.
type Network interface {
	// Nodes is the number of routers.
	Nodes() int
	// Ports and InPorts are the numbers of output and input ports of a router,
	// injection and ejection not counted.
	Ports(node int) int
	InPorts(node int) int
	// Link returns the router behind output port port of node and the input port
	// the link enters there; next is -1 where the port has no link.
	Link(node, port int) (next, inPort int)
	// Terminal reports whether a processor injects and ejects at node.
	Terminal(node int) bool
	// String is the topology's spec, as Parse reads it ("torus:8x8").
	String() string
}

// link is one output port's far end.
type link struct{ next, in int32 }

// table is a Network stored as arrays; every network of the package embeds it.
type table struct {
	out      [][]link
	inPorts  []int32
	terminal []bool
	// terms, when set, attaches terminals otherwise than one per terminal router
	// (TerminalsOf); lat, when set, gives each output port's link latency
	// (Latency).
	terms *TerminalMap
	lat   [][]int32
}

func (t *table) Nodes() int             { return len(t.out) }
func (t *table) Ports(node int) int     { return len(t.out[node]) }
func (t *table) InPorts(node int) int   { return int(t.inPorts[node]) }
func (t *table) Terminal(node int) bool { return t.terminal[node] }
func (t *table) Link(node, port int) (next, inPort int) {
	l := t.out[node][port]
	return int(l.next), int(l.in)
}

// Terminals lists the terminal nodes of n in increasing order.
func Terminals(n Network) []int {
	var ts []int
	for v := range n.Nodes() {
		if n.Terminal(v) {
			ts = append(ts, v)
		}
	}
	return ts
}

// Channels is the number of router-to-router links of n (output ports with a link).
func Channels(n Network) int {
	c := 0
	for v := range n.Nodes() {
		for p := range n.Ports(v) {
			if next, _ := n.Link(v, p); next >= 0 {
				c++
			}
		}
	}
	return c
}

// namer is implemented by networks whose nodes have names of their own.
type namer interface{ NodeName(node int) string }

// NodeName is the name of node v in n: the network's own name for it when it has
// one (coordinates "x,y" on a grid, "l,a" on a fat-tree), else its number.
func NodeName(n Network, v int) string {
	if nm, ok := n.(namer); ok {
		return nm.NodeName(v)
	}
	return strconv.Itoa(v)
}

// Model returns n as a MODEL.md network, one edge per link, and edge[v][p], the
// index of the edge that leaves v by output port p (-1 where the port has no link).
func Model(n Network) (net *model.Network, edge [][]int) {
	net = &model.Network{}
	for v := range n.Nodes() {
		net.AddNode(NodeName(n, v))
	}
	edge = make([][]int, n.Nodes())
	for v := range n.Nodes() {
		edge[v] = make([]int, n.Ports(v))
		for p := range n.Ports(v) {
			edge[v][p] = -1
			if next, _ := n.Link(v, p); next >= 0 {
				edge[v][p] = net.AddEdge(v, next)
			}
		}
	}
	return net, edge
}

// SpecError is a topology spec that cannot be built; Field names the part at fault.
type SpecError struct {
	Spec, Field, Msg string
}

func (e *SpecError) Error() string {
	return fmt.Sprintf("topology %q: %s: %s", e.Spec, e.Field, e.Msg)
}

// Parse builds a network from its spec, KIND:PARAMS: "torus:8x8", "mesh:4x4x4"
// (sides separated by x, each at least 2), "fattree:64" (N processors, a power of
// 4 from 4 up; "fat-tree:64" is read the same), and the kinds each file of the
// package registers (Kinds lists them with their forms).
func Parse(spec string) (Network, error) {
	name, arg, ok := strings.Cut(spec, ":")
	if !ok || arg == "" {
		return nil, &SpecError{spec, "kind", "want KIND:PARAMS, as " + strings.Join(kindForms(), ", ")}
	}
	k, ok := kinds[name]
	if !ok {
		return nil, &SpecError{spec, "kind", fmt.Sprintf("unknown kind %q (want one of %s)", name, strings.Join(KindNames(), ", "))}
	}
	n, err := k.build(arg)
	if err != nil {
		if se, ok := err.(*SpecError); ok {
			se.Spec = spec
			return nil, se
		}
		return nil, &SpecError{spec, "params", err.Error()}
	}
	return n, nil
}

// kind is one family of networks Parse builds.
type kind struct {
	form  string // an example spec, for messages and help
	build func(arg string) (Network, error)
}

var kinds = map[string]kind{}

// registerKind adds a family of networks to Parse (from init).
func registerKind(name, form string, build func(arg string) (Network, error)) {
	if _, dup := kinds[name]; dup {
		panic("topology: kind registered twice: " + name)
	}
	kinds[name] = kind{form, build}
}

// KindNames lists the kinds Parse reads, in alphabetical order.
func KindNames() []string {
	ns := make([]string, 0, len(kinds))
	for n := range kinds {
		ns = append(ns, n)
	}
	sort.Strings(ns)
	return ns
}

// Kinds is one line per kind with an example spec, for help texts.
func Kinds() string { return strings.Join(kindForms(), ", ") }

func kindForms() []string {
	var fs []string
	seen := map[string]bool{}
	for _, n := range KindNames() {
		if f := kinds[n].form; !seen[f] {
			seen[f] = true
			fs = append(fs, f)
		}
	}
	return fs
}

func init() {
	for _, wrap := range []bool{true, false} {
		name := "mesh"
		if wrap {
			name = "torus"
		}
		registerKind(name, name+":8x8", func(arg string) (Network, error) {
			sides, err := parseSides(arg)
			if err != nil {
				return nil, err
			}
			g, err := NewGrid(sides, wrap)
			if err != nil {
				return nil, &SpecError{Field: "sides", Msg: err.Error()}
			}
			return g, nil
		})
	}
	fat := func(arg string) (Network, error) {
		n, err := atoi(arg)
		if err != nil {
			return nil, &SpecError{Field: "size", Msg: fmt.Sprintf("%q is not a whole number", arg)}
		}
		f, err := NewFatTree(n)
		if err != nil {
			return nil, &SpecError{Field: "size", Msg: err.Error()}
		}
		return f, nil
	}
	registerKind("fattree", "fattree:64", fat)
	registerKind("fat-tree", "fattree:64", fat)
}

// parseSides reads "8x8x4".
func parseSides(arg string) ([]int, error) {
	var sides []int
	for _, s := range strings.Split(arg, "x") {
		k, err := atoi(s)
		if err != nil {
			return nil, &SpecError{Field: "sides", Msg: fmt.Sprintf("%q is not a whole number", s)}
		}
		sides = append(sides, k)
	}
	return sides, nil
}

// atoi reads a whole number written in decimal digits alone: strconv.Atoi also
// takes a sign, so "torus:+8x8" was torus:8x8 without a word (issue 26).
func atoi(s string) (int, error) {
	if s == "" || strings.TrimLeft(s, "0123456789") != "" {
		return 0, fmt.Errorf("%q is not a whole number", s)
	}
	return strconv.Atoi(s)
}
