package sim

import (
	"runtime"
	"testing"
	"unsafe"
)

// makeHuge gives an array of n elements, all zero, of length and capacity n;
// from hugeSize on it starts on a huge page's boundary and takes at most
// hugePad bytes more than its own (what EngineBytes counts), below it it is
// make's.
func TestMakeHuge(t *testing.T) {
	check := func(t *testing.T, bytes int, got []uint64, extra int64) {
		n := bytes / 8
		if len(got) != n || cap(got) != n {
			t.Fatalf("%d bytes: len %d cap %d, want %d", bytes, len(got), cap(got), n)
		}
		for i, x := range got {
			if x != 0 {
				t.Fatalf("%d bytes: element %d is %d, want 0", bytes, i, x)
			}
		}
		p := uintptr(unsafe.Pointer(unsafe.SliceData(got)))
		if huge := hugePad(int64(bytes)) > 0; huge && p%hugeSize != 0 {
			t.Errorf("%d bytes: the array starts at %#x, not on a huge page", bytes, p)
		}
		// (make rounds a large array up to whole 8 kB pages, and the runtime
		// may allocate a little of its own meanwhile)
		if extra > hugePad(int64(bytes))+64<<10 {
			t.Errorf("%d bytes: %d bytes allocated beyond the array, hugePad counts %d", bytes, extra, hugePad(int64(bytes)))
		}
	}
	for _, bytes := range []int{64, 1 << 20, hugeSize - 8, hugeSize, hugeSize + 8, 2600 << 10, 3 * hugeSize, 5<<20 + 24} {
		var a, b runtime.MemStats
		runtime.ReadMemStats(&a)
		got := makeHuge[uint64](bytes / 8)
		runtime.ReadMemStats(&b)
		check(t, bytes, got, int64(b.TotalAlloc-a.TotalAlloc)-int64(bytes))
		got[len(got)-1] = 1 // writable to its end
		runtime.KeepAlive(got)
	}
}
