package sim

import (
	"syscall"
	"unsafe"
)

// makeHuge is make([]T, n) for the engine's largest arrays (rings, VC states and
// heads, input and output ports and VCs), which a cycle on a large network
// touches all over: from hugeSize on, the array starts on a huge page's boundary
// and is advised huge (madvise MADV_HUGEPAGE; the kernel's transparent huge pages
// are often given only where asked) before anything is written to it, so that a
// few hundred TLB entries map it instead of a few thousand 4 kB pages. Advising
// only the whole huge pages that happened to fall inside an array left the
// arrays of 2-4 MB without any (a 128x128 torus's output ports and output VCs,
// 2.6 MB each). The slice is cut from an array hugePad bytes longer (EngineBytes
// counts them): the aligned start, and where it fits the tail up to a page's
// end. Memory advice only: where the kernel declines, nothing changes.
func makeHuge[T any](n int) []T {
	size := unsafe.Sizeof(*new(T))
	if hugePad(int64(n)*int64(size)) == 0 || hugeSize%size != 0 {
		return make([]T, n)
	}
	all := make([]T, n+int(hugeSize/size))
	base := unsafe.Pointer(unsafe.SliceData(all))
	p := uintptr(base)
	lo := (p + hugeSize - 1) &^ (hugeSize - 1)
	hi := (p + uintptr(len(all))*size) &^ (hugeSize - 1)
	_ = syscall.Madvise(unsafe.Slice((*byte)(unsafe.Add(base, lo-p)), hi-lo), syscall.MADV_HUGEPAGE)
	k := int((lo - p) / size) // (a large array starts on a page: lo-p is whole elements)
	return all[k : k+n : k+n]
}
