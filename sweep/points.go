package sweep

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"sort"
	"strconv"
	"strings"
)

// Point is one run of the command: every parameter set, a replication number and the
// seed derived from the spec's seed and the point's key.
type Point struct {
	Key         string
	Command     string
	Params      map[string]Value
	Replication int
	Seed        uint64
}

// Points lists the spec's points sorted by key: the product of the axes (in the
// order of the axis names) times the replications.
//
// The key is a hash of the command, every parameter and the replication, so it does
// not change when the spec is reformatted, its axes reordered, or an axis value is
// written 0.10 instead of 0.1. The seed hashes the spec's seed with the key: a
// point's seed, and so its result, does not depend on which worker or shard runs it.
func (s *Spec) Points() []Point {
	// Every axis, scalar or case, is a list of parameter sets; the points are their
	// product (a mixed-radix counter over the axes in name order).
	type axis []map[string]Value
	var axes []axis
	for _, n := range sortedKeys(s.Axes) {
		a := make(axis, len(s.Axes[n]))
		for i, v := range s.Axes[n] {
			a[i] = map[string]Value{n: v}
		}
		axes = append(axes, a)
	}
	for _, n := range sortedKeys(s.Cases) {
		a := make(axis, len(s.Cases[n]))
		for i, c := range s.Cases[n] {
			m := map[string]Value{n: {'l', c.Name}}
			for k, v := range c.Params {
				m[k] = v
			}
			a[i] = m
		}
		axes = append(axes, a)
	}
	total := s.Replications
	for _, a := range axes {
		total *= len(a)
	}
	pts := make([]Point, 0, total)
	idx := make([]int, len(axes))
	for {
		params := make(map[string]Value, len(s.Params)+len(axes))
		for k, v := range s.Params {
			params[k] = v
		}
		for i, a := range axes {
			for k, v := range a[idx[i]] {
				params[k] = v
			}
		}
		for r := 0; r < s.Replications; r++ {
			key := pointKey(s.Command, params, r)
			pts = append(pts, Point{Key: key, Command: s.Command, Params: params, Replication: r, Seed: pointSeed(s.Seed, key)})
		}
		i := len(axes) - 1
		for ; i >= 0; i-- {
			idx[i]++
			if idx[i] < len(axes[i]) {
				break
			}
			idx[i] = 0
		}
		if i < 0 {
			break
		}
	}
	sort.Slice(pts, func(i, j int) bool { return pts[i].Key < pts[j].Key })
	return pts
}

func pointKey(command string, params map[string]Value, rep int) string {
	h := sha256.New()
	fmt.Fprintf(h, "%q", command)
	for _, k := range sortedKeys(params) {
		fmt.Fprintf(h, " %q=%c%q", k, params[k].Kind, params[k].Text)
	}
	fmt.Fprintf(h, " #%d", rep)
	sum := h.Sum(nil)
	return hex.EncodeToString(sum[:8])
}

// pointSeed is below 2^63 so that commands reading it as a signed integer accept it.
func pointSeed(seed uint64, key string) uint64 {
	sum := sha256.Sum256([]byte(strconv.FormatUint(seed, 10) + "/" + key))
	return binary.BigEndian.Uint64(sum[:8]) >> 1
}

// Shard is the part I of N (0 <= I < N) of a sweep's points.
type Shard struct{ I, N int }

// All is the whole sweep.
var All = Shard{0, 1}

// ParseShard reads "I/N".
func ParseShard(s string) (Shard, error) {
	a, b, ok := strings.Cut(s, "/")
	i, errI := strconv.Atoi(a)
	n, errN := strconv.Atoi(b)
	switch {
	case !ok || errI != nil || errN != nil:
		return Shard{}, fmt.Errorf("--shard %q: want I/N, e.g. 0/4", s)
	case n < 1:
		return Shard{}, fmt.Errorf("--shard %s: N must be at least 1", s)
	case i < 0 || i >= n:
		return Shard{}, fmt.Errorf("--shard %s: I must be in 0..%d", s, n-1)
	}
	return Shard{i, n}, nil
}

func (s Shard) String() string { return fmt.Sprintf("%d/%d", s.I, s.N) }

// Select keeps the points of the shard: every N-th point in key order, starting at
// the I-th. The shards of one N partition the points and differ in size by at most one.
func (s Shard) Select(pts []Point) []Point {
	if s.N <= 1 {
		return pts
	}
	var out []Point
	for j := s.I; j < len(pts); j += s.N {
		out = append(out, pts[j])
	}
	return out
}
