// Package cputime reads the CPU time of the calling OS thread, for the per-point
// figures of sweeps and simulation grids (a goroutine locked to its thread).
package cputime

import (
	"syscall"
	"time"
)

// rusageThread is RUSAGE_THREAD of getrusage(2) (Linux 2.6.26 and later).
const rusageThread = 1

// Thread is the CPU time (user + system) of the calling OS thread; ok is false
// where the system cannot tell.
func Thread() (time.Duration, bool) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(rusageThread, &ru); err != nil {
		return 0, false
	}
	us := int64(ru.Utime.Sec+ru.Stime.Sec)*1e6 + int64(ru.Utime.Usec+ru.Stime.Usec)
	return time.Duration(us) * time.Microsecond, true
}
