package study

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// Point is one case of a part over its replications: what a study's report reads,
// and what a study commits (PointsFile) in place of the sweeps' full records.
type Point struct {
	Part   string            `json:"part"`
	Name   string            `json:"point"`
	Params map[string]string `json:"params"`
	Obs    []Obs             `json:"obs"`
}

// Obs is one replication of a point: the numeric values kept (a null or absent
// value is absent), and why it has none (a failure, or a saturated point's reason).
type Obs struct {
	Rep    int                `json:"rep"`
	V      map[string]float64 `json:"v"`
	Failed string             `json:"failed,omitempty"`
	Reason string             `json:"reason,omitempty"`
}

// Get is a replication's value (ok false when absent).
func (o Obs) Get(name string) (float64, bool) {
	v, ok := o.V[name]
	return v, ok
}

// P is a point's parameter as a number (NaN when absent or not a number).
func (p Point) P(name string) float64 {
	return Rec{Params: p.Params}.P(name)
}

// Points groups records into points by part and case (the "point" axis), keeping
// the named values of each replication.
func Points(recs []Rec, fields []string) []Point {
	type key struct{ part, name string }
	idx := map[key]int{}
	var out []Point
	for _, r := range recs {
		k := key{r.Part, r.Params["point"]}
		i, ok := idx[k]
		if !ok {
			params := map[string]string{}
			for n, v := range r.Params {
				if n != "point" {
					params[n] = v
				}
			}
			i = len(out)
			idx[k] = i
			out = append(out, Point{Part: r.Part, Name: k.name, Params: params})
		}
		o := Obs{Rep: r.Rep, V: map[string]float64{}}
		if r.Failed != "" {
			o.Failed = firstLine(r.Failed, 160)
		}
		for _, f := range fields {
			if x, ok := r.Num(f); ok && !math.IsNaN(x) && !math.IsInf(x, 0) {
				o.V[f] = x
			}
		}
		if why, ok := r.Values["reason"].(string); ok {
			o.Reason = firstLine(why, 160)
		}
		out[i].Obs = append(out[i].Obs, o)
	}
	for i := range out {
		sort.Slice(out[i].Obs, func(a, b int) bool { return out[i].Obs[a].Rep < out[i].Obs[b].Rep })
	}
	sort.SliceStable(out, func(a, b int) bool {
		if out[a].Part != out[b].Part {
			return out[a].Part < out[b].Part
		}
		return out[a].Name < out[b].Name
	})
	return out
}

func firstLine(s string, n int) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	if len(s) > n {
		s = s[:n]
	}
	return s
}

// PointsFile is the name of a folder's points: JSON Lines, one point a line,
// compressed with gzip (seed 003's 1,725 points are 1.4 MB as text, 0.26 MB
// compressed; zcat shows them). ReadPoints also reads a folder's plainPoints, the
// earlier uncompressed form.
const (
	PointsFile  = "points.jsonl.gz"
	plainPoints = "points.jsonl"
)

// WritePoints writes points to dir/PointsFile, one a line, and removes an earlier
// dir/points.jsonl. The bytes depend on the points alone (no time or name in the
// gzip header).
func WritePoints(dir string, pts []Point) error {
	var b bytes.Buffer
	zw, err := gzip.NewWriterLevel(&b, gzip.BestCompression)
	if err != nil {
		return err
	}
	enc := json.NewEncoder(zw)
	enc.SetEscapeHTML(false)
	for _, p := range pts {
		if err := enc.Encode(p); err != nil {
			return err
		}
	}
	if err := zw.Close(); err != nil {
		return err
	}
	if err := WriteFile(dir, PointsFile, b.Bytes()); err != nil {
		return err
	}
	if err := os.Remove(filepath.Join(dir, plainPoints)); err != nil && !errors.Is(err, os.ErrNotExist) {
		return err
	}
	return nil
}

// pointsPath is the file that holds dir's points: PointsFile, else the plain form.
func pointsPath(dir string) (string, bool) {
	for _, n := range []string{PointsFile, plainPoints} {
		if _, err := os.Stat(filepath.Join(dir, n)); err == nil {
			return n, true
		}
	}
	return PointsFile, false
}

// ReadPoints reads dir's points (PointsFile, or points.jsonl).
func ReadPoints(dir string) ([]Point, error) {
	name, _ := pointsPath(dir)
	f, err := os.Open(filepath.Join(dir, name))
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var r io.Reader = f
	if name == PointsFile {
		zr, err := gzip.NewReader(f)
		if err != nil {
			return nil, fmt.Errorf("%s: %v", name, err)
		}
		defer zr.Close()
		r = zr
	}
	var out []Point
	sc := bufio.NewScanner(r)
	sc.Buffer(nil, 1<<24)
	for line := 1; sc.Scan(); line++ {
		var p Point
		if err := json.Unmarshal(sc.Bytes(), &p); err != nil {
			return nil, fmt.Errorf("%s: line %d: %v", name, line, err)
		}
		out = append(out, p)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %v", name, err)
	}
	return out, nil
}

// Est is the estimate over the replications of a value (the replications without
// it left out).
func (p Point) Est(name string) Est {
	var xs []float64
	for _, o := range p.Obs {
		if v, ok := o.Get(name); ok {
			xs = append(xs, v)
		}
	}
	return MeanCI(xs)
}

// All reports whether every replication has the value.
func (p Point) All(name string) bool {
	for _, o := range p.Obs {
		if _, ok := o.Get(name); !ok {
			return false
		}
	}
	return len(p.Obs) > 0
}

// SavePoints writes the points of recs to dir (WritePoints), except when there are
// no records and dir already holds points: a committed run keeps its points and not
// its sweeps, and its report is made again from the points it has.
func SavePoints(dir string, recs []Rec, fields []string) error {
	if len(recs) == 0 {
		if _, ok := pointsPath(dir); ok {
			return nil
		}
	}
	return WritePoints(dir, Points(recs, fields))
}
