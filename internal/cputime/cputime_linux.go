// Package cputime reads the CPU time of the calling OS thread, for the per-point
// figures of sweeps and simulation grids (a goroutine locked to its thread), and
// of the whole process, for benchmarks of whole commands.
package cputime

import (
	"os"
	"strconv"
	"strings"
	"syscall"
	"time"
	"unsafe"
)

// clockThreadCPUTime is CLOCK_THREAD_CPUTIME_ID of clock_gettime(2).
const clockThreadCPUTime = 3

// Thread is the CPU time (user + system) of the calling OS thread, to the
// nanosecond; ok is false where the system cannot tell. (getrusage's
// RUSAGE_THREAD moves by scheduler ticks, 4 ms here: longer than what the
// simulator's blocks of cycles on a small network take, BenchmarkThreads.)
func Thread() (time.Duration, bool) {
	var ts syscall.Timespec
	if _, _, errno := syscall.Syscall(syscall.SYS_CLOCK_GETTIME, clockThreadCPUTime, uintptr(unsafe.Pointer(&ts)), 0); errno != 0 {
		return 0, false
	}
	return time.Duration(ts.Nano()), true
}

// Waited is the time the calling OS thread has spent runnable but waiting for a
// core (the second field of /proc/thread-self/schedstat: the run queue's wait,
// which other processes' load makes grow); ok is false where the kernel does not
// say.
func Waited() (time.Duration, bool) {
	b, err := os.ReadFile("/proc/thread-self/schedstat")
	if err != nil {
		return 0, false
	}
	f := strings.Fields(string(b))
	if len(f) < 2 {
		return 0, false
	}
	ns, err := strconv.ParseInt(f[1], 10, 64)
	if err != nil {
		return 0, false
	}
	return time.Duration(ns), true
}
