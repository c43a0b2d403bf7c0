//go:build !linux

package sweep

// threadCPU is not measured outside Linux: records carry cpu_ms 0.
func threadCPU() (float64, bool) { return 0, false }
