package sim

import (
	"syscall"
	"unsafe"
)

// hugePages asks the kernel to back the whole 2 MB pages inside s's array with
// huge pages (madvise MADV_HUGEPAGE; the kernel's transparent huge pages are
// often given only where asked), for an array of 4 MB or more: the engine's
// largest arrays (rings, VC states and heads, input ports), which a cycle on a
// large network touches all over, so that a few hundred TLB entries map them
// instead of a few thousand 4 kB pages each. Memory advice only: where the kernel
// declines, nothing changes.
func hugePages[T any](s []T) {
	const huge = 2 << 20
	n := uintptr(len(s)) * unsafe.Sizeof(*new(T))
	if n < 2*huge {
		return
	}
	base := unsafe.Pointer(unsafe.SliceData(s))
	p := uintptr(base)
	lo := (p + huge - 1) &^ (huge - 1)
	hi := (p + n) &^ (huge - 1)
	if hi <= lo {
		return
	}
	_ = syscall.Madvise(unsafe.Slice((*byte)(unsafe.Add(base, lo-p)), hi-lo), syscall.MADV_HUGEPAGE)
}
