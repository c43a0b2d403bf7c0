//go:build !unix

package cputime

import "time"

// Process is not measured outside Unix: ok is false.
func Process() (time.Duration, bool) { return 0, false }
