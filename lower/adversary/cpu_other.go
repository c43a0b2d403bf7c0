//go:build !unix

package adversary

import "time"

// processCPU is 0 where getrusage is missing: a CPU budget never runs out there,
// and the traces' cpu column reads 0.
func processCPU() time.Duration { return 0 }
