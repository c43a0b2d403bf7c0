//go:build !linux

package sim

// hugePages does nothing where madvise is not Linux's (huge_linux.go).
func hugePages[T any](s []T) {}
