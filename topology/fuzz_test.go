package topology

import (
	"strconv"
	"strings"
	"testing"
)

// FuzzParse reads fuzzed topology specs (issue 26): never a panic; an error is a
// *SpecError naming a part of the spec; a network built has at most MaxNodes
// routers, every link leads to a router's input port and back to where it came
// from (grids, fat-trees and the kinds of the registry alike), and its String is
// a spec that builds the same network. Numbers above 4096 are left out (large
// networks are what MaxNodes and MaxLinks guard, TestParseDigitsOnly).
func FuzzParse(f *testing.F) {
	for _, s := range []string{"torus:8x8", "mesh:4x4x4", "fattree:64", "torus:+8x8", "mesh:2", "torus:", "ring:8",
		"dragonfly:a=4,p=2,h=2", "hyperx:4x4,k=1,t=2", "flatfly:k=4,n=2", "fly:k=2,n=3", "cmesh:4x4,c=4", "torus:08x8", "mesh:0x4"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, spec string) {
		for _, part := range strings.FieldsFunc(spec, func(r rune) bool { return r < '0' || r > '9' }) {
			if v, err := strconv.Atoi(part); err != nil || v > 4096 {
				return
			}
		}
		if strings.HasPrefix(spec, "file:") || strings.HasPrefix(spec, "anynet:") {
			return // networks from files: their own readers' tests
		}
		net, err := Parse(spec)
		if err != nil {
			if _, ok := err.(*SpecError); !ok {
				t.Fatalf("%q: error %T %v, want a *SpecError", spec, err, err)
			}
			return
		}
		if net.Nodes() < 1 || net.Nodes() > MaxNodes {
			t.Fatalf("%q: %d routers", spec, net.Nodes())
		}
		seen := map[[2]int]bool{}
		for v := range net.Nodes() {
			for p := range net.Ports(v) {
				w, in := net.Link(v, p)
				if w < 0 {
					continue
				}
				if w >= net.Nodes() || in < 0 || in >= net.InPorts(w) {
					t.Fatalf("%q: port %d of %d leads to %d input %d", spec, p, v, w, in)
				}
				if seen[[2]int{w, in}] {
					t.Fatalf("%q: two links enter input %d of %d", spec, in, w)
				}
				seen[[2]int{w, in}] = true
			}
		}
		again, err := Parse(net.String())
		if err != nil {
			t.Fatalf("%q prints as %q, which does not parse: %v", spec, net.String(), err)
		}
		if again.Nodes() != net.Nodes() || again.String() != net.String() {
			t.Fatalf("%q prints as %q, which parses to %q", spec, net.String(), again.String())
		}
	})
}
