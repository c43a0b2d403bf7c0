//go:build !linux

package sim_test

// threadNanos is the CPU time of the calling thread: not read here (0), so a
// run's crit-ns/flit-hop is its CPU time.
func threadNanos() int64 { return 0 }
