package model

import (
	"io"
	"os"
	"syscall"
)

// mapText maps a regular file of at least mapMin bytes (and under maxInputBytes)
// read-only into memory, its pages populated at once (MAP_POPULATE), when the
// file's offset is at its start, leaving it at its end as a read would, and
// returns the text with the function that unmaps it; ok is false, nothing read,
// for anything else (a pipe, a small file, a file read from elsewhere than its
// start, a failed map), which the caller reads with readAll. A read copies the text into
// a heap buffer the kernel first fills with zeros, page by page as it is touched:
// at 10^6 paths (170-200 MB of text) the read and its page faults were 6-9% of
// wormlab color's CPU. Nothing read from the text may point into it once it is
// unmapped: the readers copy what they keep (strings, json.RawMessage clones).
func mapText(r io.Reader) (text []byte, unmap func(), ok bool) {
	f, isFile := r.(*os.File)
	if !isFile {
		return nil, nil, false
	}
	fi, err := f.Stat()
	if err != nil || !fi.Mode().IsRegular() {
		return nil, nil, false
	}
	at, err := f.Seek(0, io.SeekCurrent)
	if err != nil || at != 0 { // a file read from elsewhere than its start: read it
		return nil, nil, false
	}
	size := fi.Size()
	if size < int64(mapMin) || size >= maxInputBytes {
		return nil, nil, false
	}
	b, err := syscall.Mmap(int(f.Fd()), 0, int(size), syscall.PROT_READ, syscall.MAP_SHARED|syscall.MAP_POPULATE)
	if err != nil {
		return nil, nil, false
	}
	if _, err := f.Seek(size, io.SeekStart); err != nil { // as a read to the end leaves it
		syscall.Munmap(b)
		return nil, nil, false
	}
	return b, func() { syscall.Munmap(b) }, true
}
