//go:build !race && !simbounds

package sim

import "unsafe"

// elem is &s[i] without Go's bounds check, for the few loops every flit-hop runs
// (traverse, writes, the credits, the wheels' puts, switch allocation) at indices
// the engine's own tables give: a VC, port or output VC number, below its array's
// length by construction (newEngine sizes each array for every number its tables
// hold). The checks and the lengths they keep in registers were 16% of a run's
// instructions (torus:8x8 at 0.4: 714.6 instructions a flit-hop, 600.4 with the
// package built with -gcflags=-B). Built with the race detector or the tag
// simbounds (elem_checked.go), elem checks as s[i] does: `go test -race` and
// `go test -tags simbounds` run every test with the checks.
func elem[T any](s []T, i int) *T {
	var z T
	return (*T)(unsafe.Add(unsafe.Pointer(unsafe.SliceData(s)), uintptr(i)*unsafe.Sizeof(z)))
}
