package adversary

import "github.com/wormlab/wormlab/internal/cputime"

// processCPU is the CPU time (user + system) the process has used; 0 where the
// system cannot tell: a CPU budget never runs out there, and the traces' cpu
// column reads 0.
var processCPU = cputime.Used
