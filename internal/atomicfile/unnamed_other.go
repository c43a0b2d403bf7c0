//go:build !linux

package atomicfile

import (
	"errors"
	"os"
)

// openUnnamed has no unnamed files to open off Linux: WriteFunc writes a named
// temporary file.
func openUnnamed(dir string) (f *os.File, ok bool) { return nil, false }

// linkUnnamed is never called off Linux.
func linkUnnamed(f *os.File, name string) error { return errors.New("atomicfile: no unnamed files") }
