package sim_test

import (
	"syscall"
	"unsafe"
)

// threadNanos is the CPU time of the calling thread, to the nanosecond
// (CLOCK_THREAD_CPUTIME_ID: getrusage's per-thread times move by scheduler
// ticks, longer than a small network's block).
func threadNanos() int64 {
	const clockThreadCPUTime = 3
	var ts syscall.Timespec
	if _, _, errno := syscall.Syscall(syscall.SYS_CLOCK_GETTIME, clockThreadCPUTime, uintptr(unsafe.Pointer(&ts)), 0); errno != 0 {
		return 0
	}
	return ts.Nano()
}
