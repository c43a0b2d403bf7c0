package topology

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"
)

// A link latency is kept as an int32 (table.lat): a file's or a dragonfly's
// latency past MaxLatency is refused, one error naming it, where one of 2^31
// cycles became -2^31 (which the simulator reads as no latency: the pipeline's
// link delay) and one of 2^32+1 became 1, both run without a word. MaxLatency
// itself is kept as it is.
func TestLatencyAboveMaxRefused(t *testing.T) {
	for _, l := range []int64{MaxLatency + 1, 1 << 31, 1<<32 + 1} {
		for spec, want := range map[string]string{
			fmt.Sprintf("dragonfly:a=2,p=1,h=1,global=%d", l): "global",
			fmt.Sprintf("dragonfly:a=2,p=1,h=1,local=%d", l):  "local",
		} {
			_, err := Parse(spec)
			require.Error(t, err, spec)
			require.Contains(t, err.Error(), want, spec)
			require.Contains(t, err.Error(), fmt.Sprintf("above %d", MaxLatency), spec)
		}
		_, err := ReadNetworkFile(fmt.Appendf(nil, `{"nodes": ["a", "b"], "edges": [["a", "b"], ["b", "a"]], "latency": [1, %d]}`, l))
		require.ErrorContains(t, err, fmt.Sprintf("latency[1]: %d above %d", l, MaxLatency))
		_, err = ReadAnynet(fmt.Appendf(nil, "router 0 node 0 router 1 %d\nrouter 1 node 1\n", l))
		require.ErrorContains(t, err, fmt.Sprintf("latency %d above %d", l, MaxLatency))
	}
	d, err := Parse(fmt.Sprintf("dragonfly:a=2,p=1,h=1,local=%d,global=%d", MaxLatency, MaxLatency))
	require.NoError(t, err)
	require.Equal(t, MaxLatency, Latency(d, 0, 0))
	f, err := ReadNetworkFile(fmt.Appendf(nil, `{"nodes": ["a", "b"], "edges": [["a", "b"], ["b", "a"]], "latency": [1, %d]}`, MaxLatency))
	require.NoError(t, err)
	require.Equal(t, MaxLatency, Latency(f, 1, 0))
	a, err := ReadAnynet(fmt.Appendf(nil, "router 0 node 0 router 1 %d\nrouter 1 node 1\n", MaxLatency))
	require.NoError(t, err)
	require.Equal(t, MaxLatency, Latency(a, 0, 0))
}
