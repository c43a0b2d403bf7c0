package fattree

import (
	"os"
	"testing"
	"time"
)

// TestTableILong reruns Table I (STORE-RP-RR and WORM-RP-RR, three patterns, N =
// 16 .. 4096, 10 runs each, L = 16; issue 13 asks for it under ten minutes on two
// cores) and checks seed 000's claim for it: WORM's mean maximum latency is below
// STORE's in every case. Gated: WORMLAB_LONG=1.
func TestTableILong(t *testing.T) {
	if os.Getenv("WORMLAB_LONG") == "" {
		t.Skip("set WORMLAB_LONG=1")
	}
	start := time.Now()
	for _, n := range []int{16, 64, 256, 1024, 4096} {
		for _, pat := range PatternNames() {
			n, pat := n, pat
			t.Run(pat, func(t *testing.T) {
				t.Parallel()
				s := mustStudyRuns(t, n, "store", pat, 10)
				w := mustStudyRuns(t, n, "worm", pat, 10)
				t.Logf("N %d %s: STORE %.1f ± %.1f, WORM %.1f ± %.1f", n, pat, s.MaxLatency, s.MaxLatencyCI, w.MaxLatency, w.MaxLatencyCI)
				if w.MaxLatency >= s.MaxLatency {
					t.Errorf("N %d %s: WORM %.1f not below STORE %.1f", n, pat, w.MaxLatency, s.MaxLatency)
				}
			})
		}
	}
	t.Cleanup(func() { t.Logf("Table I in %v", time.Since(start)) })
}

func mustStudyRuns(t *testing.T, n int, algo, pattern string, runs int) *Summary {
	return mustStudy(t, n, algo, "rp", "rr", pattern, runs)
}
