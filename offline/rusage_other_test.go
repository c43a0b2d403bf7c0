//go:build !unix

package offline

// cpuSeconds is not measured here; the benchmarks then omit paths per CPU second.
func cpuSeconds() float64 { return 0 }
