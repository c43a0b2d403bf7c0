//go:build unix

package offline

import "syscall"

// cpuSeconds returns the user and system CPU time of the process so far; the
// benchmarks report paths per CPU second, which other load on the machine does not
// distort as it distorts wall-clock time.
func cpuSeconds() float64 {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return float64(ru.Utime.Sec+ru.Stime.Sec) + float64(ru.Utime.Usec+ru.Stime.Usec)/1e6
}
