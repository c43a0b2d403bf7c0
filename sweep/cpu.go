package sweep

import "github.com/wormlab/wormlab/internal/cputime"

// threadCPU is the CPU time (user + system) of the calling OS thread, in
// milliseconds; ok is false where the system cannot tell.
func threadCPU() (float64, bool) {
	d, ok := cputime.Thread()
	return float64(d.Microseconds()) / 1e3, ok
}
