package sweep

import "syscall"

// rusageThread is RUSAGE_THREAD of getrusage(2) (Linux 2.6.26 and later).
const rusageThread = 1

// threadCPU is the CPU time (user + system) of the calling OS thread, in
// milliseconds; ok is false where the system cannot tell.
func threadCPU() (float64, bool) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(rusageThread, &ru); err != nil {
		return 0, false
	}
	us := int64(ru.Utime.Sec+ru.Stime.Sec)*1e6 + int64(ru.Utime.Usec+ru.Stime.Usec)
	return float64(us) / 1e3, true
}
