//go:build !linux

package sim

// makeHuge is make([]T, n) where madvise is not Linux's (huge_linux.go).
func makeHuge[T any](n int) []T { return make([]T, n) }
