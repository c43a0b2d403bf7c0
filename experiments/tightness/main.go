// Command tightness measures how close each theorem's own upper bound comes to what
// its algorithm does, on the generated families and on the adversary's instances:
//
//   - greedy against seed 002, Lemma 1 (online.GreedyBound: d + |C| L per path-graph
//     component): the worst makespan over the arbitration policies against the
//     largest bound, and the component whose last delivery comes closest to its own
//     bound;
//   - the phased algorithm against seed 002, Theorem 1 (online.PhasedBound), at the
//     default alpha = 1/2 and the paper's 128^2;
//   - Algorithm A against seed 000, Theorem 4 (online.AlgorithmABound, P T) and, with
//     doubling from T0 = d + L - 1, Theorem 5 (online.DoublingBound, the expected
//     makespan);
//   - the offline colorer's constructed makespan against its proven bound
//     (offline.ColorerBound, per part) and, on meshes, the closed form of seed 002,
//     section 4 (offline.MeshBound; on trees and with the generic order the plan has
//     one part and its bound is the closed form, TreeBound or PartBound(d, c, d, L)).
//
// Usage: go run ./experiments/tightness [-quick] [-root DIR] OUTDIR
//
// It writes OUTDIR/results.jsonl (one record per bound, variant, family, size and
// seed: the measured value, the bound and their ratio), one figure per bound
// (OUTDIR/BOUND.svg: ratio against the number of worms, one line per family and
// variant, the mean over seeds with its 95% interval) and OUTDIR/summary.md (per
// family: the smallest, mean and largest ratio and the worms where the largest
// was measured), which docs/tightness.md quotes. -quick runs the smallest sizes
// only (what the test reruns). Instances found by the adversary are read from
// ROOT/lower/testdata/adversary-*.json and the corpus, ROOT/instances/hard/*/instance.json
// (one instance per folder; an instance kept under several objectives counts once).
// Deterministic: the same build writes the same files.
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/wormlab/wormlab/engine"
	"github.com/wormlab/wormlab/figure"
	"github.com/wormlab/wormlab/instances"
	"github.com/wormlab/wormlab/internal/atomicfile"
	"github.com/wormlab/wormlab/lower"
	"github.com/wormlab/wormlab/model"
	"github.com/wormlab/wormlab/offline"
	"github.com/wormlab/wormlab/online"
)

// Record is one measurement: the algorithm's value on one instance against the
// theorem's bound.
type Record struct {
	Bound   string  `json:"bound"`
	Variant string  `json:"variant,omitempty"`
	Family  string  `json:"family"`
	Size    int     `json:"size"`
	Seed    uint64  `json:"seed"`
	Worms   int     `json:"worms"`
	Series  string  `json:"series"`
	Value   float64 `json:"measured"`
	Limit   float64 `json:"bound_value"`
	Ratio   float64 `json:"ratio"`
	// Extra holds a bound's own figures (failure probability, component ratio).
	Extra map[string]float64 `json:"extra,omitempty"`
}

// key identifies a record across runs.
func (r Record) key() string {
	return fmt.Sprintf("%s|%s|%s|%d|%d", r.Bound, r.Variant, r.Family, r.Size, r.Seed)
}

// family is a generated family of instances: a name, its sizes (quick: the first
// one) and a generator.
type family struct {
	name  string
	sizes []int
	seeds int
	gen   func(size int, seed uint64) (*model.Instance, error)
}

// measurer measures one instance for a bound, returning one record per variant
// (Bound, Family, Size, Seed, Worms and Series are filled in by the caller).
type measurer func(ctx context.Context, in *model.Instance, seed uint64) ([]Record, error)

// study is one bound: its name, title, families and measurer.
type study struct {
	name, title string
	families    []family
	measure     measurer
	// legend is the legend's corner (figure.Legends), where the lines are not.
	legend string
}

func main() {
	quick := flag.Bool("quick", false, "the smallest size of each family only")
	root := flag.String("root", ".", "the repository, for the adversary's instances")
	flag.Usage = func() {
		fmt.Fprintln(os.Stderr, "usage: go run ./experiments/tightness [-quick] [-root DIR] OUTDIR")
	}
	flag.Parse()
	if flag.NArg() != 1 {
		flag.Usage()
		os.Exit(2)
	}
	out := flag.Arg(0)
	if err := os.MkdirAll(out, 0o777); err != nil {
		fmt.Fprintln(os.Stderr, "tightness:", err)
		os.Exit(2)
	}
	recs, err := Run(context.Background(), *root, *quick, os.Stderr)
	if err != nil {
		fmt.Fprintln(os.Stderr, "tightness:", err)
		os.Exit(1)
	}
	if err := Write(out, recs); err != nil {
		fmt.Fprintln(os.Stderr, "tightness:", err)
		os.Exit(1)
	}
}

// Run measures every study and returns the records in a fixed order.
func Run(ctx context.Context, root string, quick bool, log io.Writer) ([]Record, error) {
	adv, err := adversaryFamily(root)
	if err != nil {
		return nil, err
	}
	var recs []Record
	for _, s := range studies(adv) {
		for _, f := range s.families {
			sizes := f.sizes
			if quick {
				sizes = sizes[:1]
			}
			for _, size := range sizes {
				for seed := uint64(1); seed <= uint64(f.seeds); seed++ {
					in, err := f.gen(size, seed)
					if err != nil {
						return nil, fmt.Errorf("%s %s size %d seed %d: %v", s.name, f.name, size, seed, err)
					}
					rs, err := s.measure(ctx, in, seed)
					if err != nil {
						return nil, fmt.Errorf("%s %s size %d seed %d: %v", s.name, f.name, size, seed, err)
					}
					for _, r := range rs {
						r.Bound, r.Family, r.Size, r.Seed, r.Worms = s.name, f.name, size, seed, len(in.Messages)
						r.Series = f.name
						if r.Variant != "" {
							r.Series += " " + r.Variant
						}
						r.Ratio = r.Value / r.Limit
						recs = append(recs, r)
					}
				}
				if log != nil {
					fmt.Fprintf(log, "%s %s size %d\n", s.name, f.name, size)
				}
			}
		}
	}
	return recs, nil
}

// Write writes results.jsonl, one figure per study and summary.md into dir.
func Write(dir string, recs []Record) error {
	var all bytes.Buffer
	byStudy := map[string]*bytes.Buffer{}
	var names []string
	for _, r := range recs {
		line, err := json.Marshal(r)
		if err != nil {
			return err
		}
		all.Write(line)
		all.WriteByte('\n')
		if byStudy[r.Bound] == nil {
			byStudy[r.Bound] = &bytes.Buffer{}
			names = append(names, r.Bound)
		}
		byStudy[r.Bound].Write(line)
		byStudy[r.Bound].WriteByte('\n')
	}
	if err := atomicfile.Write(filepath.Join(dir, "results.jsonl"), all.Bytes()); err != nil {
		return err
	}
	titles, legends := map[string]string{}, map[string]string{}
	for _, s := range studies(family{}) {
		titles[s.name], legends[s.name] = s.title, s.legend
	}
	for _, name := range names {
		rows, err := figure.ReadRows(bytes.NewReader(byStudy[name].Bytes()))
		if err != nil {
			return err
		}
		f, err := figure.Build(rows, figure.Options{X: "worms", Y: "ratio", Series: "series", LogX: true, LogY: true, Title: titles[name]})
		if err != nil {
			return fmt.Errorf("%s: %v", name, err)
		}
		f.XLabel, f.YLabel, f.Legend = "worms", "measured / bound", legends[name]
		var svg bytes.Buffer
		if err := figure.Draw(&svg, f, "svg", figure.DefaultWidth, figure.DefaultHeight); err != nil {
			return err
		}
		if err := atomicfile.Write(filepath.Join(dir, name+".svg"), svg.Bytes()); err != nil {
			return err
		}
	}
	return atomicfile.Write(filepath.Join(dir, "summary.md"), []byte(Summary(recs)))
}

// Summary returns one markdown table per study: for each family and variant, the
// number of instances, the worms, and the smallest, mean and largest ratio with
// the worms of the instance where the largest was measured.
func Summary(recs []Record) string {
	type agg struct {
		n                int
		wmin, wmax, wAt  int
		min, max, sum    float64
		bound, fam, vari string
	}
	var order []string
	aggs := map[string]*agg{}
	for _, r := range recs {
		k := r.Bound + "|" + r.Family + "|" + r.Variant
		a := aggs[k]
		if a == nil {
			a = &agg{min: math.Inf(1), max: math.Inf(-1), wmin: r.Worms, wmax: r.Worms, bound: r.Bound, fam: r.Family, vari: r.Variant}
			aggs[k] = a
			order = append(order, k)
		}
		a.n++
		a.sum += r.Ratio
		a.min = math.Min(a.min, r.Ratio)
		if r.Ratio > a.max {
			a.max, a.wAt = r.Ratio, r.Worms
		}
		a.wmin, a.wmax = min(a.wmin, r.Worms), max(a.wmax, r.Worms)
	}
	var b strings.Builder
	last := ""
	for _, k := range order {
		a := aggs[k]
		if a.bound != last {
			if last != "" {
				b.WriteString("\n")
			}
			fmt.Fprintf(&b, "`%s`:\n\n| family | variant | instances | worms | smallest ratio | mean | largest (at worms) |\n| --- | --- | --- | --- | --- | --- | --- |\n", a.bound)
			last = a.bound
		}
		v := a.vari
		if v == "" {
			v = "-"
		}
		fmt.Fprintf(&b, "| %s | %s | %d | %d-%d | %.3g | %.3g | %.3g (%d) |\n", a.fam, v, a.n, a.wmin, a.wmax, a.min, a.sum/float64(a.n), a.max, a.wAt)
	}
	return b.String()
}

// studies returns the five studies; adv is the adversary's family (no sizes when
// there is none).
func studies(adv family) []study {
	levelledFamilies := []family{bundle(), butterflyFamily("light"), butterflyFamily("heavy"), levelled(), primeFamily()}
	var withAdv []family
	if len(adv.sizes) > 0 {
		withAdv = []family{adv}
	}
	return []study{
		{"greedy-lemma1", "greedy / Lemma 1's d + |C| L (seed 002)", append(slices.Clone(levelledFamilies), withAdv...), measureGreedy, "bottom-left"},
		{"phased-theorem1", "phased / Theorem 1's bound (seed 002)", append(slices.Clone(levelledFamilies), withAdv...), measurePhased, "bottom-right"},
		{"delayed-theorem4", "Algorithm A / Theorem 4's P T (seed 000)",
			append([]family{bundle(), butterflyFamily("heavy"), meshFamily(2), levelled(), primeFamily()}, withAdv...), measureTheorem4, "bottom-right"},
		{"delayed-theorem5", "Algorithm A with doubling / Theorem 5's expected bound (seed 000)",
			append([]family{bundle(), butterflyFamily("heavy"), meshFamily(2), levelled()}, withAdv...), measureTheorem5, "top-right"},
		{"colorer", "colorer / its proven bound (seed 002, section 4)",
			append([]family{karyTree(), randomTree(), meshFamily(2), meshFamily(3), butterflyFamily("heavy"), primeFamily()}, withAdv...), measureColorer, "top-right"},
	}
}

// The families.

func bundle() family {
	return family{name: "bundle", sizes: []int{2, 4, 8, 16, 32, 64}, seeds: 1, gen: func(m int, _ uint64) (*model.Instance, error) {
		// m worms of L = 4 on one path of 4 edges: every pair meets everywhere.
		net := &model.Network{}
		for i := range 5 {
			net.AddNode(fmt.Sprintf("v%d", i))
		}
		path := make([]int, 4)
		for i := range 4 {
			path[i] = net.AddEdge(i, i+1)
		}
		net.SetExtra("levels", []int{0, 1, 2, 3, 4})
		in := &model.Instance{Name: fmt.Sprintf("bundle-%d", m), Net: net, Flits: 4}
		for i := range m {
			in.Messages = append(in.Messages, model.Message{ID: fmt.Sprintf("w%d", i), Path: slices.Clone(path), L: 4})
		}
		return in, nil
	}}
}

func butterflyFamily(load string) family {
	return family{name: "butterfly-" + load, sizes: []int{8, 16, 32, 64, 128, 256, 512}, seeds: 5, gen: func(n int, seed uint64) (*model.Instance, error) {
		return instances.Generate(instances.Spec{Kind: "butterfly", Size: n, Traffic: load, Seed: seed})
	}}
}

func levelled() family {
	return family{name: "levelled", sizes: []int{4, 8, 16, 32, 64}, seeds: 5, gen: func(w int, seed uint64) (*model.Instance, error) {
		return instances.Generate(instances.Spec{Kind: "levelled", Size: w, Depth: 6, K: 2, Traffic: "random", Messages: 4 * w, Flits: 6, Seed: seed})
	}}
}

func primeFamily() family {
	return family{name: "prime-repaired", sizes: []int{2, 3, 5, 7}, seeds: 1, gen: func(p int, _ uint64) (*model.Instance, error) {
		return lower.Prime(p, 2*p+2, true)
	}}
}

func meshFamily(k int) family {
	sizes := []int{4, 6, 8, 12}
	if k == 3 {
		sizes = []int{3, 4, 5}
	}
	return family{name: fmt.Sprintf("mesh-%dd", k), sizes: sizes, seeds: 5, gen: func(side int, seed uint64) (*model.Instance, error) {
		sides := make([]int, k)
		nodes := 1
		for i := range sides {
			sides[i] = side
			nodes *= side
		}
		return instances.Generate(instances.Spec{Kind: "mesh", Sides: sides, Traffic: "random", Messages: 2 * nodes, Flits: 4, Seed: seed})
	}}
}

func karyTree() family {
	return family{name: "kary-tree", sizes: []int{3, 4, 5, 6, 7}, seeds: 5, gen: func(depth int, seed uint64) (*model.Instance, error) {
		return instances.Generate(instances.Spec{Kind: "kary-tree", K: 2, Depth: depth, Traffic: "random", Messages: 4 << depth, Flits: 4, Seed: seed})
	}}
}

func randomTree() family {
	return family{name: "tree", sizes: []int{16, 32, 64, 128, 256}, seeds: 5, gen: func(n int, seed uint64) (*model.Instance, error) {
		return instances.Generate(instances.Spec{Kind: "tree", Size: n, Traffic: "random", Messages: 2 * n, Flits: 4, Seed: seed})
	}}
}

// adversaryFamily reads the adversary's instances (sizes index the files).
func adversaryFamily(root string) (family, error) {
	var files []string
	for _, pat := range []string{"lower/testdata/adversary-*.json", "instances/hard/*/instance.json"} {
		m, err := filepath.Glob(filepath.Join(root, pat))
		if err != nil {
			return family{}, err
		}
		files = append(files, m...)
	}
	sort.Strings(files)
	ins := make([]*model.Instance, len(files))
	f := family{name: "adversary", seeds: 1}
	seen := map[string]bool{}
	for i, name := range files {
		data, err := os.ReadFile(name)
		if err != nil {
			return family{}, err
		}
		in, err := model.ParseInstance(data)
		if err != nil {
			return family{}, fmt.Errorf("%s: %v", name, err)
		}
		// The corpus keeps one instance under each objective it is hardest for:
		// the same worms on the same network count once.
		key := instanceKey(in)
		if seen[key] {
			continue
		}
		seen[key] = true
		ins[i] = in
		f.sizes = append(f.sizes, i)
	}
	f.gen = func(i int, _ uint64) (*model.Instance, error) { return ins[i], nil }
	return f, nil
}

// instanceKey names an instance by its network and its worms (paths and lengths),
// not by its name or extras.
func instanceKey(in *model.Instance) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%q;", in.Net.Nodes)
	for _, e := range in.Net.Edges {
		fmt.Fprintf(&b, "%d-%d,", e.From, e.To)
	}
	for _, m := range in.Messages {
		fmt.Fprintf(&b, ";%d:%v", m.L, m.Path)
	}
	return b.String()
}

// The measurements. A bound that does not apply to an instance (not levelled, a
// cycle in the dependencies) gives no record; any other error stops the study.

func measureGreedy(ctx context.Context, in *model.Instance, seed uint64) ([]Record, error) {
	b, err := online.GreedyBound(in)
	if errors.Is(err, online.ErrNotLevelled) {
		return nil, nil
	} else if err != nil {
		return nil, err
	}
	// The makespan against the largest component's bound, and the component
	// closest to its own bound d + |C| L (its last delivery against it), each the
	// worst over the arbitration policies.
	worst := 0
	var comp Record
	for _, arb := range engine.Policies() {
		r, err := online.Run(ctx, in, online.Greedy{}, online.Options{Arb: arb, Seed: seed})
		if err != nil {
			return nil, err
		}
		worst = max(worst, r.Makespan)
		for _, c := range b.Components {
			last := 0
			for _, i := range c.Worms {
				last = max(last, r.Delivered[i])
			}
			if comp.Limit == 0 || float64(last)/float64(c.Bound) > comp.Value/comp.Limit {
				comp = Record{Variant: "worst component", Value: float64(last), Limit: float64(c.Bound),
					Extra: map[string]float64{"component_worms": float64(len(c.Worms))}}
			}
		}
	}
	return []Record{{Variant: "makespan", Value: float64(worst), Limit: float64(b.Bound)}, comp}, nil
}

func measurePhased(ctx context.Context, in *model.Instance, seed uint64) ([]Record, error) {
	var out []Record
	for _, alpha := range []float64{online.DefaultAlpha, online.PaperAlpha} {
		b, err := online.PhasedBound(in, alpha, online.DefaultBeta)
		if errors.Is(err, online.ErrNotLevelled) {
			return nil, nil
		} else if err != nil {
			return nil, err
		}
		r, err := online.Run(ctx, in, online.Phased{Alpha: alpha}, online.Options{Arb: engine.ArbRandom, Seed: seed})
		if err != nil {
			return nil, err
		}
		out = append(out, Record{Variant: fmt.Sprintf("alpha=%g", alpha), Value: float64(r.Makespan), Limit: float64(b.Bound),
			Extra: map[string]float64{"failure": b.Failure, "phase_one": float64(b.PhaseOne), "u0": float64(b.U0)}})
	}
	return out, nil
}

func acyclic(in *model.Instance) bool { return in.Dependencies().Cycle() == nil }

func measureTheorem4(ctx context.Context, in *model.Instance, seed uint64) ([]Record, error) {
	if !acyclic(in) {
		return nil, nil
	}
	b, err := online.AlgorithmABound(in, online.AlgorithmA{})
	if err != nil {
		return nil, err
	}
	r, err := online.Run(ctx, in, online.AlgorithmA{}, online.Options{Arb: engine.ArbRoundRobin, Seed: seed})
	if err != nil {
		return nil, err
	}
	return []Record{{Value: float64(r.Makespan), Limit: float64(b.Bound),
		Extra: map[string]float64{"failure": b.Failure, "proven": b2f(b.Proven), "late": float64(r.Delayed.Late)}}}, nil
}

func measureTheorem5(ctx context.Context, in *model.Instance, seed uint64) ([]Record, error) {
	if !acyclic(in) {
		return nil, nil
	}
	ms := in.Measure()
	a := online.AlgorithmA{T: ms.D + ms.LMax - 1, Doubling: true}
	b, err := online.DoublingBound(in, a)
	if err != nil {
		return nil, err
	}
	r, err := online.Run(ctx, in, a, online.Options{Arb: engine.ArbRoundRobin, Seed: seed})
	if err != nil {
		return nil, err
	}
	return []Record{{Value: float64(r.Makespan), Limit: b.Expected,
		Extra: map[string]float64{"proven": b2f(b.Proven), "rounds": float64(r.Delayed.Rounds)}}}, nil
}

func measureColorer(_ context.Context, in *model.Instance, _ uint64) ([]Record, error) {
	res, err := offline.Color(in, offline.Options{Order: offline.OrderAuto})
	if err != nil {
		return nil, err
	}
	ms := in.Measure()
	closed := offline.PartBound(ms.D, ms.C, ms.D, ms.LMax) // the generic order's (d-entrant)
	switch res.Order {
	case offline.OrderTree:
		closed, err = offline.TreeBound(in)
	case offline.OrderMesh:
		closed, err = offline.MeshBound(in)
	}
	if err != nil {
		return nil, err
	}
	v := float64(res.Constructed)
	out := []Record{{Variant: res.Order + " plan", Value: v, Limit: float64(res.Bound)}}
	if closed != res.Bound {
		// The tree and generic plans have one part: their closed form is the plan's.
		out = append(out, Record{Variant: res.Order + " closed form", Value: v, Limit: float64(closed)})
	}
	return out, nil
}

func b2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
}
