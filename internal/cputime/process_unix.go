//go:build unix

package cputime

import (
	"syscall"
	"time"
)

// Process is the CPU time (user + system) of the whole process, every thread and
// the garbage collector's included; ok is false where the system cannot tell. The
// benchmarks of whole commands report work per CPU-second with it, a figure other
// load on the machine distorts far less than wall-clock time.
func Process() (time.Duration, bool) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0, false
	}
	us := int64(ru.Utime.Sec+ru.Stime.Sec)*1e6 + int64(ru.Utime.Usec+ru.Stime.Usec)
	return time.Duration(us) * time.Microsecond, true
}
