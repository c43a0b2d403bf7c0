package cputime

import "time"

// Used is Process's CPU time, 0 where the system cannot tell: for the callers
// that read it as a clock (CPU limits and budgets, which then never run out;
// benchmarks' CPU-seconds).
func Used() time.Duration {
	d, _ := Process()
	return d
}
