package sim

import (
	"fmt"
	"math/rand/v2"
	"strings"
)

// Process is an injection process: the time of a source's next packet after one
// at now, for rate packets per node per cycle (0 < rate <= its MaxRate). Times are
// real; a packet whose time is x is generated in cycle floor(x). A source's first
// packet comes at Next(-1, ...).
type Process interface {
	Next(now, rate float64, r *rand.Rand) float64
	// MaxRate is the largest rate in packets per node per cycle it can make.
	MaxRate() float64
}

var processes = map[string]Process{}

// RegisterProcess adds an injection process to the registry (from init).
func RegisterProcess(name string, p Process) {
	if _, dup := processes[name]; dup {
		panic("sim: process registered twice: " + name)
	}
	processes[name] = p
}

// ProcessNames lists the registered injection processes.
func ProcessNames() []string { return names(processes) }

// LookupProcess returns the named injection process.
func LookupProcess(name string) (Process, error) {
	p, ok := processes[name]
	if !ok {
		return nil, fmt.Errorf("unknown process %q (want one of %s)", name, strings.Join(ProcessNames(), ", "))
	}
	return p, nil
}
