// Package boundedread reads an input whole within a bound, so that a file
// from /dev/zero or a pipe that never closes is refused once the bound has
// come, not read until the process is killed (docs/cli.md, Memory).
package boundedread

import (
	"bytes"
	"fmt"
	"io"
	"io/fs"
)

// ReadAll reads r whole, refusing more than limit bytes. A regular file (an r
// that can Stat itself) larger than limit is refused before it is read, and one
// within it is read into one buffer of its size. Anything else is read by
// io.ReadAll, which grows by about a quarter at a time, so at most about 1.25
// times limit is held before the refusal. what names the input in the error
// ("a proof": "more than N bytes, the most a proof may have").
func ReadAll(r io.Reader, limit int64, what string) ([]byte, error) {
	if st, ok := r.(interface{ Stat() (fs.FileInfo, error) }); ok {
		if fi, err := st.Stat(); err == nil && fi.Mode().IsRegular() {
			if fi.Size() > limit {
				return nil, fmt.Errorf("%d bytes, more than %d, the most %s may have", fi.Size(), limit, what)
			}
			// bytes.Buffer reads with bytes.MinRead free at the end.
			b := bytes.NewBuffer(make([]byte, 0, fi.Size()+bytes.MinRead))
			if _, err := b.ReadFrom(io.LimitReader(r, limit+1)); err != nil {
				return nil, err
			}
			return within(b.Bytes(), limit, what)
		}
	}
	data, err := io.ReadAll(io.LimitReader(r, limit+1))
	if err != nil {
		return nil, err
	}
	return within(data, limit, what)
}

// within returns data, or the error of more than limit bytes.
func within(data []byte, limit int64, what string) ([]byte, error) {
	if int64(len(data)) > limit {
		return nil, fmt.Errorf("more than %d bytes, the most %s may have", limit, what)
	}
	return data, nil
}
