// Package corpus keeps the hardest instances wormlab knows (instances/hard): one
// folder per entry, keyed by family, size and objective, with the instance, a
// certificate of the optimum behind its ratio (package certify: a closed-form
// bound, an edge-set claim or a DRAT refutation), and entry.json, the index row:
// family, size, objective, ratio with both sides, how the optimum is proven, the
// command that found it and its seed. README.md indexes the entries in a table
// between two markers, regenerated from the entries (Index).
//
// What is checked (Check, run by the corpus test on every entry): the instance is
// valid, the entry's measures are the instance's, the certificate checks
// (certify.Check: the schedule is legal, its makespan meets the proven bound) and
// gives the optimum side, the other side recomputes to the entry's value, and the
// README's table is the one the entries give.
package corpus

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"github.com/wormlab/wormlab/certify"
	"github.com/wormlab/wormlab/internal/atomicfile"
	"github.com/wormlab/wormlab/lower/adversary"
	"github.com/wormlab/wormlab/model"
	"github.com/wormlab/wormlab/offline/optimal"
)

// Files of an entry's folder (besides the certificate's own).
const (
	EntryFile    = "entry.json"
	InstanceFile = certify.InstanceFile
	IndexFile    = "README.md"
)

// Entry is entry.json.
type Entry struct {
	Name      string          `json:"name"`
	Family    string          `json:"family"`
	Size      string          `json:"size"`
	Objective string          `json:"objective"`
	Model     string          `json:"model"`
	Ratio     float64         `json:"ratio"`
	Num       adversary.Value `json:"numerator"`
	Den       adversary.Value `json:"denominator"`
	// Proof names the bound that proves the optimum behind the ratio; Certificate
	// the certificate's kind (certify: "bound", "edge-set", "refutation"), empty
	// when no side is an optimum.
	Proof       string `json:"proof,omitempty"`
	Certificate string `json:"certificate,omitempty"`
	Worms       int    `json:"worms"`
	C           int    `json:"c"`
	CL          int    `json:"c_L"`
	D           int    `json:"d"`
	LMin        int    `json:"l_min"`
	LMax        int    `json:"l_max"`
	Command     string `json:"command"`
	Seed        uint64 `json:"seed"`
}

// Key identifies the entries that compete: family, size and objective.
func (e Entry) Key() string { return e.Family + "|" + e.Size + "|" + e.Objective }

var unsafe = regexp.MustCompile(`[^A-Za-z0-9.+_-]+`)

// FolderName is the entry's folder: family-size-objective, "/" read "over",
// "=" dropped, "," a dash, other unsafe characters "_" (levelled-3x8x3-opt-over-cd,
// prime-p3-repaired-opt-over-cl+d-1).
func FolderName(family, size, objective string) string {
	size = strings.NewReplacer("=", "", ",", "-").Replace(size)
	return unsafe.ReplaceAllString(family+"-"+size+"-"+strings.ReplaceAll(objective, "/", "-over-"), "_")
}

// Load reads every entry of the corpus dir, sorted by family, size, objective.
func Load(dir string) ([]Entry, error) {
	ds, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var es []Entry
	for _, d := range ds {
		if !d.IsDir() || strings.HasPrefix(d.Name(), ".") {
			continue
		}
		data, err := os.ReadFile(filepath.Join(dir, d.Name(), EntryFile))
		if err != nil {
			return nil, err
		}
		var e Entry
		if err := json.Unmarshal(data, &e); err != nil {
			return nil, fmt.Errorf("%s: %v", filepath.Join(d.Name(), EntryFile), err)
		}
		if e.Name != d.Name() {
			return nil, fmt.Errorf("%s: name %q is not its folder's", filepath.Join(d.Name(), EntryFile), e.Name)
		}
		es = append(es, e)
	}
	sort.Slice(es, func(i, j int) bool { return es[i].Key() < es[j].Key() })
	return es, nil
}

// Result is an optimal.Result for a proven optimum, as certify takes it.
func Result(o *adversary.Optimum) *optimal.Result {
	s := o.Schedule
	s.SetBound(s.Makespan, true)
	return &optimal.Result{Schedule: s, Lower: s.Makespan, Optimal: true,
		Stats: optimal.Stats{LowerSource: o.Source}}
}

// Certify writes a certificate of the optimum o of in to dir and returns its
// kind, described ("bound (aligned-clique)", "edge-set", "refutation (cadical)").
func Certify(ctx context.Context, dir string, in *model.Instance, o *adversary.Optimum) (string, error) {
	m, err := certify.WriteOptions(ctx, dir, in, Result(o), certify.Options{})
	if err != nil {
		return "", err
	}
	return Describe(m), nil
}

// Describe names a certificate's kind and its evidence.
func Describe(m *certify.Manifest) string {
	switch {
	case m.Bound != nil:
		return fmt.Sprintf("%s (%s)", m.Kind, m.Bound.Name)
	case m.Refutation != nil:
		return fmt.Sprintf("%s (%s)", m.Kind, m.Refutation.Prover)
	}
	return m.Kind
}

// Offer adds the entry e (instance in, optimum o behind its ratio, nil when no
// side is an optimum) to the corpus dir when no entry of its family, size and
// objective exists or when it beats that entry's ratio (compared exactly), and
// rewrites the index. Only exact ratios are offered. It returns the entry it
// replaced (nil when none) and whether it added e.
func Offer(ctx context.Context, dir string, e Entry, in *model.Instance, o *adversary.Optimum) (old *Entry, added bool, err error) {
	if !e.Num.Exact || !e.Den.Exact {
		return nil, false, nil
	}
	es, err := Load(dir)
	if err != nil {
		return nil, false, err
	}
	for i := range es {
		if es[i].Key() == e.Key() {
			old = &es[i]
		}
	}
	if old != nil && int64(e.Num.V)*int64(old.Den.V) <= int64(old.Num.V)*int64(e.Den.V) {
		return old, false, nil
	}
	e.Name = FolderName(e.Family, e.Size, e.Objective)
	tmp, err := os.MkdirTemp(dir, ".new-")
	if err != nil {
		return old, false, err
	}
	defer os.RemoveAll(tmp)
	if o != nil {
		m, err := certify.WriteOptions(ctx, tmp, in, Result(o), certify.Options{})
		if err != nil {
			return old, false, fmt.Errorf("corpus: certificate: %w", err)
		}
		e.Certificate = Describe(m)
	} else {
		var b strings.Builder
		if err := model.WriteInstance(&b, in); err != nil {
			return old, false, err
		}
		if err := os.WriteFile(filepath.Join(tmp, InstanceFile), []byte(b.String()), 0o644); err != nil {
			return old, false, err
		}
	}
	data, err := json.MarshalIndent(e, "", "  ")
	if err != nil {
		return old, false, err
	}
	if err := os.WriteFile(filepath.Join(tmp, EntryFile), append(data, '\n'), 0o644); err != nil {
		return old, false, err
	}
	if err := os.Chmod(tmp, 0o755); err != nil {
		return old, false, err
	}
	final := filepath.Join(dir, e.Name)
	if old != nil && old.Name != e.Name {
		if err := os.RemoveAll(filepath.Join(dir, old.Name)); err != nil {
			return old, false, err
		}
	}
	if _, err := os.Stat(final); err == nil {
		// Move the old folder aside first: a rename cannot replace a non-empty folder.
		aside := filepath.Join(dir, ".old-"+e.Name)
		os.RemoveAll(aside)
		if err := os.Rename(final, aside); err != nil {
			return old, false, err
		}
		defer os.RemoveAll(aside)
	}
	if err := os.Rename(tmp, final); err != nil {
		return old, false, err
	}
	return old, true, WriteIndex(dir)
}

// Index markers in README.md: the table lies between them.
const (
	BeginIndex = "<!-- index: written by wormlab adversary --corpus; do not edit by hand -->"
	EndIndex   = "<!-- end of index -->"
)

// Table renders the entries as the index's Markdown table.
func Table(es []Entry) string {
	var b strings.Builder
	b.WriteString("| family | size | objective | ratio | numerator | denominator | optimum proven by | certificate | worms | c | c_L | d | L | seed | command |\n")
	b.WriteString("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |\n")
	for _, e := range es {
		l := fmt.Sprint(e.LMin)
		if e.LMax != e.LMin {
			l += ".." + fmt.Sprint(e.LMax)
		}
		proof, cert := e.Proof, e.Certificate
		if proof == "" {
			proof = "-"
		}
		if cert == "" {
			cert = "-"
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %.4f | %d (%s) | %d (%s) | %s | [%s](%s) | %d | %d | %d | %d | %s | %d | `%s` |\n",
			e.Family, e.Size, e.Objective, e.Ratio, e.Num.V, e.Num.How, e.Den.V, e.Den.How, proof, cert, e.Name,
			e.Worms, e.C, e.CL, e.D, l, e.Seed, e.Command)
	}
	return b.String()
}

// WriteIndex rewrites the table of dir/README.md between the markers (appending
// them, with the table, when the file lacks them).
func WriteIndex(dir string) error {
	es, err := Load(dir)
	if err != nil {
		return err
	}
	path := filepath.Join(dir, IndexFile)
	old, err := os.ReadFile(path)
	if err != nil && !os.IsNotExist(err) {
		return err
	}
	return atomicfile.Write(path, []byte(Splice(string(old), Table(es))))
}

// Splice puts table between the markers of readme (or appends both).
func Splice(readme, table string) string {
	block := BeginIndex + "\n\n" + table + "\n" + EndIndex + "\n"
	i := strings.Index(readme, BeginIndex)
	j := strings.Index(readme, EndIndex)
	if i < 0 || j < i {
		if readme != "" && !strings.HasSuffix(readme, "\n") {
			readme += "\n"
		}
		return readme + "\n" + block
	}
	return readme[:i] + block + strings.TrimPrefix(readme[j+len(EndIndex):], "\n")
}
