//go:build race || simbounds

package sim

// elem is &s[i], checked (elem.go's is not): the build of `go test -race` and of
// the tag simbounds.
func elem[T any](s []T, i int) *T { return &s[i] }
