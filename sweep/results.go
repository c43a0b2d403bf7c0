package sweep

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"sort"
	"time"
)

// LineError names the line of a results file at fault.
type LineError struct {
	File string
	Line int
	Msg  string
}

func (e *LineError) Error() string { return fmt.Sprintf("%s: line %d: %s", e.File, e.Line, e.Msg) }

// Contents is what a results file holds.
type Contents struct {
	Records []*Record
	// Good is the length in bytes of the whole lines; Torn is set when the file
	// ends in a part of a line (a write cut short by a crash) after them.
	Good int64
	Torn bool
}

// ReadResults reads a results file. Every line must be a record; the last one may be
// torn (no newline, or not JSON, at the end of the file), which is reported, not an
// error. spec, when not empty, is the hash every record must carry.
func ReadResults(name string, r io.Reader, spec string) (*Contents, error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, err
	}
	c := &Contents{}
	line := 0
	for off := 0; off < len(data); {
		line++
		end := bytes.IndexByte(data[off:], '\n')
		if end < 0 || bytes.IndexByte(data[off:off+end], 0) >= 0 {
			// No newline (or NUL bytes a crash left in place of the data): the write
			// never finished. Only what can be the start of a record counts as torn.
			rest := bytes.TrimRight(data[off:], "\x00")
			if end >= 0 && off+end+1 < len(data) {
				return nil, &LineError{name, line, "NUL bytes in a line that is not the last"}
			}
			if !looksLikeRecordStart(rest) {
				return nil, &LineError{name, line, "not a sweep record (a line of JSON with \"key\" first)"}
			}
			c.Torn = true
			break
		}
		rec, err := parseRecord(data[off : off+end])
		if err != nil {
			return nil, &LineError{name, line, "not a sweep record: " + err.Error()}
		}
		if spec != "" && rec.Spec != spec {
			return nil, &LineError{name, line, fmt.Sprintf("belongs to another spec (spec %s, this spec %s)", rec.Spec, spec)}
		}
		c.Records = append(c.Records, rec)
		off += end + 1
		c.Good = int64(off)
	}
	return c, nil
}

// recordStart is how every line Record.Line writes begins.
const recordStart = `{"key":"`

func looksLikeRecordStart(b []byte) bool {
	if len(b) <= len(recordStart) {
		return bytes.HasPrefix([]byte(recordStart), b)
	}
	return bytes.HasPrefix(b, []byte(recordStart))
}

// Results is a results file open for appending.
type Results struct {
	f        *os.File
	lastSync time.Time
}

// SyncEvery bounds how long an appended record may wait for fsync.
const SyncEvery = time.Second

// OpenResults opens (creating) a results file for spec: it reads the records already
// there, cuts a torn last line off (torn is then true), and positions for appending.
func OpenResults(path, spec string) (res *Results, have []*Record, torn bool, err error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, nil, false, err
	}
	c, err := ReadResults(path, f, spec)
	if err != nil {
		f.Close()
		return nil, nil, false, err
	}
	if c.Torn {
		if err := f.Truncate(c.Good); err != nil {
			f.Close()
			return nil, nil, false, err
		}
	}
	if _, err := f.Seek(c.Good, io.SeekStart); err != nil {
		f.Close()
		return nil, nil, false, err
	}
	return &Results{f: f, lastSync: time.Now()}, c.Records, c.Torn, nil
}

// Append writes one record with a single write call, so that a crash leaves the
// record whole or cut (and then dropped by the next OpenResults), never interleaved.
// The file is synced to disk at most SyncEvery after the write.
func (r *Results) Append(rec *Record) error {
	line, err := rec.Line()
	if err != nil {
		return err
	}
	if _, err := r.f.Write(line); err != nil {
		return err
	}
	if time.Since(r.lastSync) >= SyncEvery {
		r.lastSync = time.Now()
		return r.f.Sync()
	}
	return nil
}

// Close syncs and closes the file.
func (r *Results) Close() error {
	err := r.f.Sync()
	if cerr := r.f.Close(); err == nil {
		err = cerr
	}
	return err
}

// Rewrite replaces the results file with the records kept, atomically (a temporary
// file renamed over it). It is how --retry-failed drops failed records before a rerun.
func Rewrite(path string, recs []*Record) error {
	tmp, err := os.CreateTemp(dirOf(path), ".sweep-*.jsonl")
	if err != nil {
		return err
	}
	for _, r := range recs {
		line, err := r.Line()
		if err == nil {
			_, err = tmp.Write(line)
		}
		if err != nil {
			tmp.Close()
			os.Remove(tmp.Name())
			return err
		}
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		os.Remove(tmp.Name())
		return err
	}
	if err := tmp.Close(); err != nil {
		os.Remove(tmp.Name())
		return err
	}
	return os.Rename(tmp.Name(), path)
}

func dirOf(path string) string {
	for i := len(path) - 1; i >= 0; i-- {
		if path[i] == '/' {
			return path[:i+1]
		}
	}
	return "."
}

// ConflictError is two records of one key that disagree.
type ConflictError struct {
	Key        string
	FileA      string
	LineA      int
	FileB      string
	LineB      int
	Difference string
}

func (e *ConflictError) Error() string {
	return fmt.Sprintf("key %s: %s line %d and %s line %d disagree (%s)", e.Key, e.FileA, e.LineA, e.FileB, e.LineB, e.Difference)
}

// Input is one results file to merge.
type Input struct {
	Name string
	R    io.Reader
}

// Merge reads results files (shards of one spec) and returns their records sorted
// by key. Two records of one key must agree apart from timings (then the first is
// kept); otherwise Merge fails with a ConflictError. Records of different specs
// are an error naming the line.
func Merge(inputs []Input) ([]*Record, error) {
	type at struct {
		rec  *Record
		file string
		line int
	}
	byKey := map[string]at{}
	spec := ""
	for _, in := range inputs {
		c, err := ReadResults(in.Name, in.R, spec)
		if err != nil {
			return nil, err
		}
		if c.Torn {
			return nil, &LineError{in.Name, len(c.Records) + 1, "torn last line (rerun the sweep on this file to drop it and finish its points)"}
		}
		for i, r := range c.Records {
			if spec == "" {
				spec = r.Spec
			}
			if r.Spec != spec {
				return nil, &LineError{in.Name, i + 1, fmt.Sprintf("belongs to another spec (spec %s, first file's %s)", r.Spec, spec)}
			}
			prev, dup := byKey[r.Key]
			if !dup {
				byKey[r.Key] = at{r, in.Name, i + 1}
				continue
			}
			if d := differ(prev.rec, r); d != "" {
				return nil, &ConflictError{r.Key, prev.file, prev.line, in.Name, i + 1, d}
			}
		}
	}
	out := make([]*Record, 0, len(byKey))
	for _, a := range byKey {
		out = append(out, a.rec)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Key < out[j].Key })
	return out, nil
}

// differ names the first field in which two records disagree, timings aside.
func differ(a, b *Record) string {
	la, _ := a.WithoutTimings().withoutVersion().Line()
	lb, _ := b.WithoutTimings().withoutVersion().Line()
	if bytes.Equal(la, lb) {
		return ""
	}
	switch {
	case a.Status != b.Status:
		return fmt.Sprintf("status %s and %s", a.Status, b.Status)
	case a.Message != b.Message:
		return "messages differ"
	case a.Seed != b.Seed:
		return "seeds differ"
	}
	return "values differ"
}

func (r Record) withoutVersion() Record {
	r.Version = ""
	return r
}
