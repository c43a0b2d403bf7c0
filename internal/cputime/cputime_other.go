//go:build !linux

// Package cputime reads the CPU time of the calling OS thread, for the per-point
// figures of sweeps and simulation grids (a goroutine locked to its thread), and
// of the whole process, for benchmarks of whole commands.
package cputime

import "time"

// Thread is not measured outside Linux: ok is false.
func Thread() (time.Duration, bool) { return 0, false }

// Waited is not measured outside Linux: ok is false.
func Waited() (time.Duration, bool) { return 0, false }
