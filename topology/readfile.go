package topology

import (
	"bytes"
	"fmt"
	"io"
	"io/fs"
	"os"
)

// maxNetFileBytes bounds what the file: and anynet: kinds read (1 GiB, the most
// model reads of an instance): a network from /dev/zero or a pipe that never
// closes is refused once that much has come, not read until the process is killed.
const maxNetFileBytes = 1 << 30

// readNetFile reads the file at path whole, at most maxNetFileBytes; errors
// name the file.
func readNetFile(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := readBounded(f, maxNetFileBytes)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	return data, nil
}

// readBounded reads r whole, refusing more than limit bytes: a regular file larger
// is refused before it is read, and read into one buffer of its size.
func readBounded(r io.Reader, limit int64) ([]byte, error) {
	if st, ok := r.(interface{ Stat() (fs.FileInfo, error) }); ok {
		if fi, err := st.Stat(); err == nil && fi.Mode().IsRegular() {
			if fi.Size() > limit {
				return nil, fmt.Errorf("%d bytes, more than %d, the most a network file may have", fi.Size(), limit)
			}
			// One buffer of the file's size (bytes.Buffer reads with
			// bytes.MinRead free at the end).
			b := bytes.NewBuffer(make([]byte, 0, fi.Size()+bytes.MinRead))
			if _, err := b.ReadFrom(io.LimitReader(r, limit+1)); err != nil {
				return nil, err
			}
			return within(b.Bytes(), limit)
		}
	}
	// io.ReadAll grows by a quarter at a time: about 1.25 times the limit at most
	// (a bytes.Buffer doubles, 2 GiB more for the byte past a limit of 1 GiB).
	data, err := io.ReadAll(io.LimitReader(r, limit+1))
	if err != nil {
		return nil, err
	}
	return within(data, limit)
}

// within returns data, or the error of more than limit bytes.
func within(data []byte, limit int64) ([]byte, error) {
	if int64(len(data)) > limit {
		return nil, fmt.Errorf("more than %d bytes, the most a network file may have", limit)
	}
	return data, nil
}
