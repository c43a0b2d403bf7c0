package fattree

import (
	"context"
	"testing"
)

func mustStudy(t *testing.T, n int, algo, path, scan, pattern string, runs int) *Summary {
	t.Helper()
	a, err := LookupAlgorithm(algo)
	if err != nil {
		t.Fatal(err)
	}
	p, _ := LookupPath(path)
	s, _ := LookupScan(scan)
	pt, _ := LookupPattern(pattern)
	sum, err := Study(context.Background(), Config{N: n, Algo: a, Path: p, Scan: s, Pattern: pt,
		Flits: 16, Queue: 2, Runs: runs, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	return sum
}

// TestLatencyAtLeastBounds checks every algorithm, path selection and scan against
// the bounds every schedule obeys: the maximum latency is at least c*L' (a link
// carries one packet per packet-step, one flit per flit-step) and at least the
// store-and-forward or wormhole time of the longest packet.
func TestLatencyAtLeastBounds(t *testing.T) {
	for _, algo := range AlgorithmNames() {
		for _, path := range PathNames() {
			for _, scan := range ScanNames() {
				for _, pat := range PatternNames() {
					s := mustStudy(t, 64, algo, path, scan, pat, 2)
					for i, lat := range s.Latencies {
						c := int64(s.Congestions[i])
						if lat < c*16 {
							t.Errorf("%s-%s-%s %s run %d: latency %d below c L = %d", algo, path, scan, pat, i, lat, c*16)
						}
						if lat < 16 {
							t.Errorf("%s-%s-%s %s run %d: latency %d below L", algo, path, scan, pat, i, lat)
						}
					}
				}
			}
		}
	}
}
