package adversary

import (
	"time"

	"github.com/wormlab/wormlab/internal/cputime"
)

// processCPU is the CPU time (user + system) the process has used
// (cputime.Process); 0 where the system cannot tell: a CPU budget never runs
// out there, and the traces' cpu column reads 0.
func processCPU() time.Duration {
	d, _ := cputime.Process()
	return d
}
