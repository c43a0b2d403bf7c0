package topology

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"
)

// countOf counts a built network as SizeOf does from its spec.
func countOf(net Network) Size {
	var sz Size
	sz.Routers = int64(net.Nodes())
	for r := range net.Nodes() {
		sz.Ports += int64(net.Ports(r))
		sz.InPorts += int64(net.InPorts(r))
	}
	sz.Terminals = int64(TerminalsOf(net).Len())
	sz.Sources, sz.Sinks = int64(len(Sources(net))), int64(len(Sinks(net)))
	return sz
}

// SizeOf counts, from the parameters alone, what Parse builds: routers, output and
// input ports, terminals, sources and sinks agree with the built network's for every kind whose
// size follows from its spec, over small sizes of each (defaults, concentration,
// multiplicities and every dimension count up to three or four); a file's kinds and
// a spec Parse refuses have no size.
func TestSizeOfCountsWhatParseBuilds(t *testing.T) {
	var specs []string
	for _, kind := range []string{"torus", "mesh"} {
		for _, sides := range []string{"2", "5", "2x3", "4x4", "3x2x4", "2x2x2x3"} {
			specs = append(specs, kind+":"+sides)
		}
	}
	specs = append(specs, "cmesh:4x4", "cmesh:3x5,c=2", "cmesh:2x2x3,c=1")
	for n := 4; n <= 1024; n *= 4 {
		specs = append(specs, fmt.Sprintf("fattree:%d", n), fmt.Sprintf("fat-tree:%d", n))
	}
	specs = append(specs, "dragonfly:p=1", "dragonfly:p=2", "dragonfly:a=4,p=2,h=2", "dragonfly:a=4,p=3,h=2,g=5",
		"dragonfly:a=2,p=1,h=1,g=3,arrangement=palmtree", "dragonfly:a=8,p=4,h=4,local=3,global=7")
	for k := 2; k <= 4; k++ {
		for n := 1; n <= 4; n++ {
			specs = append(specs, fmt.Sprintf("fly:k=%d,n=%d", k, n))
		}
		for n := 2; n <= 4; n++ {
			specs = append(specs, fmt.Sprintf("flatfly:k=%d,n=%d", k, n), fmt.Sprintf("flatfly:k=%d,n=%d,c=1", k, n))
		}
	}
	specs = append(specs, "hyperx:4x4", "hyperx:4x4,k=1,t=4", "hyperx:3x4,k=2x1,t=2", "hyperx:2x3x4,k=2", "hyperx:5,t=3")
	for _, spec := range specs {
		net, err := Parse(spec)
		require.NoError(t, err, spec)
		sz, ok := SizeOf(spec)
		require.True(t, ok, spec)
		require.Equal(t, countOf(net), sz, spec)
	}
	for _, spec := range []string{"file:net.json", "anynet:net.txt", "torus:1x4", "fattree:8", "torus:4000x4000", "dragonfly:a=4", "nosuch:4",
		"mesh:2x2x2x2x2x2x2x2x2x2x2x2x2x2x2x2x2x2x2x2x2x2", "cmesh:1024x1024,c=8", "fly:k=2,n=22", "hyperx:2048x2048,t=2", "fattree:16777216"} {
		_, err := Parse(spec)
		require.Error(t, err, spec)
		_, ok := SizeOf(spec)
		require.False(t, ok, spec)
	}
	// the largest of their kinds, counted without building them
	for spec, routers := range map[string]int64{"torus:2048x2048": 1 << 22, "fattree:4194304": 1<<22 + 1<<21 - 1<<10, "fly:k=2,n=18": 18 << 17} {
		sz, ok := SizeOf(spec)
		require.True(t, ok, spec)
		require.Equal(t, routers, sz.Routers, spec)
	}
}
