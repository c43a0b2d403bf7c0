//go:build unix

package atomicfile

import "syscall"

// Umask returns the process's file mode creation mask (reading it means setting
// it, so it is set back at once; wormlab reads it before it starts goroutines that
// create files).
func Umask() int {
	m := syscall.Umask(0)
	syscall.Umask(m)
	return m
}
