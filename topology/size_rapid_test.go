package topology

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"
)

// genSpec draws a spec of one of the kinds SizeOf counts, with parameters
// around and past each kind's bounds of validity (sides of 1, a dragonfly whose
// a*h does not divide among its g-1 other groups, multiplicities of a count
// other than the dimensions'), small enough to build.
func genSpec(t *rapid.T) string {
	sides := func(most, dims int) string {
		s := make([]string, rapid.IntRange(1, dims).Draw(t, "dims"))
		for i := range s {
			s[i] = fmt.Sprint(rapid.IntRange(1, most).Draw(t, "side"))
		}
		return strings.Join(s, "x")
	}
	opt := func(key string, lo, hi int) string {
		if rapid.Bool().Draw(t, "has "+key) {
			return fmt.Sprintf(",%s=%d", key, rapid.IntRange(lo, hi).Draw(t, key))
		}
		return ""
	}
	switch kind := rapid.SampledFrom([]string{"torus", "mesh", "cmesh", "fattree", "fat-tree", "dragonfly", "fly", "hyperx", "flatfly"}).Draw(t, "kind"); kind {
	case "torus", "mesh":
		return kind + ":" + sides(9, 3)
	case "cmesh":
		return "cmesh:" + sides(7, 3) + opt("c", 1, 5)
	case "fattree", "fat-tree":
		return fmt.Sprintf("%s:%d", kind, rapid.SampledFrom([]int{2, 4, 8, 16, 32, 64, 256, 1024}).Draw(t, "n"))
	case "dragonfly":
		spec := fmt.Sprintf("dragonfly:p=%d", rapid.IntRange(1, 3).Draw(t, "p")) + opt("a", 1, 6) + opt("h", 1, 3) + opt("g", 2, 10)
		if rapid.Bool().Draw(t, "arranged") {
			spec += ",arrangement=" + rapid.SampledFrom(ArrangementNames()).Draw(t, "arrangement")
		}
		return spec + opt("local", 1, 5) + opt("global", 1, 20)
	case "fly":
		return fmt.Sprintf("fly:k=%d,n=%d", rapid.IntRange(2, 4).Draw(t, "k"), rapid.IntRange(1, 4).Draw(t, "n"))
	case "hyperx":
		spec := "hyperx:" + sides(5, 3)
		if rapid.Bool().Draw(t, "has k") {
			ks := make([]string, rapid.IntRange(1, 3).Draw(t, "ks"))
			for i := range ks {
				ks[i] = fmt.Sprint(rapid.IntRange(1, 3).Draw(t, "k"))
			}
			spec += ",k=" + strings.Join(ks, "x")
		}
		return spec + opt("t", 1, 3)
	default:
		return fmt.Sprintf("flatfly:k=%d,n=%d", rapid.IntRange(2, 5).Draw(t, "k"), rapid.IntRange(2, 3).Draw(t, "n")) + opt("c", 1, 4)
	}
}

// Lemma (SizeOf is Parse's count): for every spec of a counted kind, SizeOf(spec)
// has a size iff Parse(spec) builds a network, and that size is the built
// network's routers, ports, input ports, terminals, sources and sinks. (The
// callers refuse a run by the floor made of the size before building: a size
// larger than the built network's would refuse runs that fit, a size for a spec
// Parse refuses would answer its error with a memory refusal.)
func TestSizeOfIsParsesCount(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		spec := genSpec(t)
		net, err := Parse(spec)
		sz, ok := SizeOf(spec)
		if (err == nil) != ok {
			t.Fatalf("%s: Parse error %v, SizeOf ok %v", spec, err, ok)
		}
		if err == nil {
			if got := countOf(net); got != sz {
				t.Fatalf("%s: built %+v, SizeOf %+v", spec, got, sz)
			}
		}
	})
}

// A parameter of any size is refused, one error, before anything is allocated:
// every bound is checked without a product that could overflow (a cmesh's c, a
// HyperX's t or multiplicity, a dragonfly's p, a fly's or a flattened
// butterfly's n of 2^62 panicked or ran out of memory in Parse), and SizeOf has no
// size for them either.
func TestHugeParametersRefused(t *testing.T) {
	for _, big := range []string{"4611686018427387904", "9223372036854775807"} {
		for _, spec := range []string{"hyperx:3,k=" + big, "hyperx:3x3,k=" + big, "hyperx:4,t=" + big, "hyperx:2048x" + big, "hyperx:" + big,
			"cmesh:4x4,c=" + big, "dragonfly:p=" + big, "dragonfly:a=2,p=" + big + ",h=1", "dragonfly:a=4,p=1,h=" + big,
			"dragonfly:a=" + big + ",p=1,h=1", "dragonfly:a=4,p=1,h=2,g=" + big, "fly:k=" + big + ",n=2", "fly:k=2,n=" + big,
			"flatfly:k=" + big + ",n=2", "flatfly:k=4,n=" + big, "flatfly:k=4,n=2,c=" + big, "torus:" + big, "mesh:" + big + "x2", "fattree:" + big} {
			_, err := Parse(spec)
			require.Error(t, err, spec)
			require.NotContains(t, err.Error(), "\n", spec)
			_, ok := SizeOf(spec)
			require.False(t, ok, spec)
		}
	}
}
