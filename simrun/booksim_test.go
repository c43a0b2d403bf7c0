package simrun

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/wormlab/wormlab/topology"
)

func parseBS(t *testing.T, text string, overrides ...string) []Assignment {
	t.Helper()
	as, err := ParseBookSim(strings.NewReader(text), "t.cfg")
	require.NoError(t, err)
	for _, o := range overrides {
		a, err := ParseBookSimArg(o)
		require.NoError(t, err)
		as = append(as, a)
	}
	return as
}

func TestParseBookSim(t *testing.T) {
	as := parseBS(t, "// a comment\ntopology = torus; // trailing\n  k=8;\nn = 2 ;\ninjection_rate = .15;\npacket_size = {{1,16}};\ntraffic = hotspot({0,5},{1,1});\nwatch_out = -;\nburst_r1 = -1.0;\n", "k=4")
	require.Len(t, as, 9)
	require.Equal(t, Assignment{"topology", "torus", 's', "t.cfg:2"}, as[0])
	require.Equal(t, Assignment{"injection_rate", ".15", 'f', "t.cfg:5"}, as[3])
	require.Equal(t, Assignment{"packet_size", "{{1,16}}", 'l', "t.cfg:6"}, as[4])
	require.Equal(t, []string{"1", "{2,3}", "4"}, bsList("{1,{2,3},4}"))
	require.Equal(t, []string{"{1,16}"}, bsList("{{1,16}}"))
	require.Equal(t, "hotspot({0,5},{1,1})", as[5].Value)
	require.Equal(t, Assignment{"watch_out", "-", 's', "t.cfg:8"}, as[6])
	require.Equal(t, Assignment{"burst_r1", "-1.0", 'f', "t.cfg:9"}, as[7])
	require.Equal(t, Assignment{"k", "4", 'i', "command line"}, as[8])
	for text, msg := range map[string]string{
		"k = 8":             "t.cfg:1: k = 8: want ; after the value",
		"k 8;":              "t.cfg:1: k: want = after the key",
		"\n\n= 8;":          `t.cfg:3: want KEY = VALUE;, found "="`,
		"packet_size = {1;": "t.cfg:1: packet_size: the list { has no }",
	} {
		_, err := ParseBookSim(strings.NewReader(text), "t.cfg")
		require.EqualError(t, err, msg, text)
	}
}

// BookSim2's 8x8 torus of docs/booksim.md maps onto wormlab's run of the same
// meaning: dim_order on a torus is dor-booksim, the rate in flits, the booksim
// pipeline, separable_input_first BookSim2's own arbiters (--select rotate,
// --switch-input output); keys not given take BookSim2's defaults (16 VCs,
// packets of 1 flit, injection in packets, islip run as separable_input_first).
func TestFromBookSim(t *testing.T) {
	run, origin, notes, err := FromBookSim(parseBS(t, `topology = torus; k = 8; n = 2; routing_function = dim_order;
num_vcs = 4; vc_buf_size = 8; packet_size = 16; injection_rate_uses_flits = 1; injection_rate = 0.3;
traffic = uniform; vc_allocator = separable_input_first; sw_allocator = separable_input_first;`), false)
	require.NoError(t, err)
	require.Empty(t, notes)
	want := Default()
	want.Routing = "dor-booksim"
	want.Rate = 0.3
	want.AtomicVC = "off"
	want.Select, want.SwitchInput = "rotate", "output"
	require.Equal(t, want, run)
	require.Equal(t, "num_vcs (t.cfg:2)", origin["vcs"])
	require.Equal(t, "vc_allocator (t.cfg:3)", origin["select"])
	require.Equal(t, "sw_allocator (t.cfg:3)", origin["switch-input"])

	run, _, notes, err = FromBookSim(parseBS(t, "topology = mesh; k = 4; routing_function = dor; wait_for_tail_credit = 1; credit_delay = 2; routing_delay = 0; watch_out = -;"), false)
	require.NoError(t, err)
	require.Equal(t, "mesh:4x4", run.Topology)
	require.Equal(t, "dor", run.Routing)
	require.Equal(t, 16, run.VCs)
	require.Equal(t, "1", run.Flits)
	require.Equal(t, 0.1, run.MsgRate)
	require.Zero(t, run.Rate)
	require.Equal(t, "on", run.AtomicVC)
	require.Equal(t, 3, run.CreditDelay, "the mesh's credit channel (1) and credit_delay (2)")
	require.Equal(t, 0, run.RouteDelay)
	require.Equal(t, "rotate", run.Select, "BookSim2's default islip, run as separable_input_first")
	require.Equal(t, "output", run.SwitchInput, "BookSim2's default islip, run as separable_input_first")
	require.Equal(t, []string{"ignored (output only, or read only by features wormlab refuses, which this configuration does not use): watch_out"}, notes)

	// packet_size lists one entry per class: {1,16} is class 0's 1 flit (BookSim2
	// with one class reads no more), {{1,16}} a mix within class 0
	run, _, notes, err = FromBookSim(parseBS(t, "topology = mesh; k = 4; routing_function = dor; packet_size = {1,16};"), false)
	require.NoError(t, err)
	require.Equal(t, "1", run.Flits)
	require.Len(t, notes, 1)
	run, _, _, err = FromBookSim(parseBS(t, "topology = mesh; k = 4; routing_function = dor; packet_size = {{1,16}}; packet_size_rate = {{4,1}};"), false)
	require.NoError(t, err)
	require.Equal(t, "1:4,16:1", run.Flits)
}

// BookSim2's dragonfly (its src/examples/dragonflyconfig without the internal
// speedup wormlab does not have) is wormlab's balanced dragonfly of the same
// p, with df-min for min on 2 VCs and worstcase for bad_dragon; n > 1, ugal and
// min on other VC counts are refused naming the key.
func TestFromBookSimDragonfly(t *testing.T) {
	const df = `vc_buf_size = 256; wait_for_tail_credit = 0; vc_allocator = separable_input_first;
sw_allocator = separable_input_first; alloc_iters = 1; credit_delay = 2; routing_delay = 0;
vc_alloc_delay = 1; sw_alloc_delay = 1; st_final_delay = 1; warmup_periods = 3; sample_period = 10000;
routing_function = min; num_vcs = 2; traffic = uniform; injection_rate = 0.8; packet_size = 10;
injection_rate_uses_flits = 1; topology = dragonflynew; k = 4; n = 1; watch_out = -;`
	run, origin, _, err := FromBookSim(parseBS(t, df), false)
	require.NoError(t, err)
	require.Equal(t, "dragonfly:p=4", run.Topology)
	require.Equal(t, "df-min", run.Routing)
	require.Equal(t, 2, run.VCs)
	require.Equal(t, 256, run.Buf)
	require.Equal(t, "10", run.Flits)
	require.Equal(t, 0.8, run.Rate)
	require.Equal(t, "uniform", run.Traffic)
	require.Equal(t, 0, run.RouteDelay)
	require.Equal(t, 3, run.CreditDelay, "the terminal's credit channel (1) and credit_delay (2); the dragonfly's channels add their own 10 and 100")
	require.Equal(t, "routing_function (t.cfg:4)", origin["routing"])
	b, err := run.Build()
	require.NoError(t, err)
	d, ok := b.Net.(*topology.Dragonfly)
	require.True(t, ok)
	require.Equal(t, []int{4, 8, 4, 33}, []int{d.P(), d.A(), d.H(), d.G()}, "p, a = 2p, h = p, g = a h + 1, as BookSim2 prints for k = 4")

	run, _, _, err = FromBookSim(parseBS(t, df, "traffic=bad_dragon", "k=2"), false)
	require.NoError(t, err)
	require.Equal(t, "worstcase", run.Traffic)
	require.Equal(t, "dragonfly:p=2", run.Topology)
	for override, msg := range map[string]string{
		"n=2":                   "booksim key n: k = 4, n = 2: BookSim2's dragonflynew has n = 1",
		"routing_function=ugal": "booksim key routing_function: = ugal on a dragonflynew: BookSim2's ugal_dragonflynew is not wormlab's df-ugal-l",
		"num_vcs=3":             "booksim key num_vcs: = 3 with min on dragonflynew",
	} {
		_, _, _, err := FromBookSim(parseBS(t, df, override), false)
		require.ErrorContains(t, err, msg, override)
	}
}

// A key wormlab cannot honour is an error naming it and where it was set; with
// lenient every such key is a note and the run goes on.
func TestFromBookSimRefuses(t *testing.T) {
	base := "topology = mesh; k = 4; routing_function = dor;"
	for text, msg := range map[string]string{
		"num_vcs = four;":                        `t.cfg:1: booksim key num_vcs: "four" is not an integer`,
		"routing_function = xy_yx;":              "t.cfg:1: booksim key routing_function: = xy_yx on a mesh: no wormlab routing has its meaning",
		"input_speedup = 2;":                     "t.cfg:1: booksim key input_speedup: = 2: wormlab has no crossbar input speedup (only input_speedup = 1 runs)",
		"topology = flatfly;":                    "t.cfg:1: booksim key topology: = flatfly: wormlab reads BookSim2's torus, mesh, fly and dragonflynew",
		"limit = 64;":                            "t.cfg:1: booksim key limit: not a key wormlab knows",
		"traffic = diagonal;":                    "t.cfg:1: booksim key traffic: = diagonal: no wormlab traffic pattern has its meaning",
		"injection_rate = {0.1,0.2};":            "t.cfg:1: booksim key injection_rate: = {0.1,0.2}: one rate per traffic class",
		"sim_type = batch;":                      "t.cfg:1: booksim key sim_type: = batch",
		"num_vcs = 0;":                           "booksim key num_vcs (t.cfg:1): 0 outside 1..64",
		"vc_allocator = wavefront;":              "t.cfg:1: booksim key vc_allocator: = wavefront: wormlab runs separable_input_first (and islip with one iteration as it) only",
		"sw_allocator = separable_output_first;": "t.cfg:1: booksim key sw_allocator: = separable_output_first: wormlab runs",
		"seed = time;":                           "t.cfg:1: booksim key seed: = time",
		"traffic = hotspot({{0,5},{1,3}});":      "unequal rates",
		"topology = torus; routing_function = dim_order; num_vcs = 3;": "t.cfg:1: booksim key num_vcs: = 3 with dim_order on a torus",
	} {
		_, _, _, err := FromBookSim(parseBS(t, base+text), false)
		var be *BookSimError
		require.True(t, errors.As(err, &be), "%s: %v", text, err)
		require.ErrorContains(t, err, msg, text)
	}
	run, _, notes, err := FromBookSim(parseBS(t, base+"input_speedup = 2; alloc_iters = 2;"), true)
	require.NoError(t, err)
	require.Equal(t, "mesh:4x4", run.Topology)
	require.Contains(t, notes, "not honoured: t.cfg:1: booksim key input_speedup: = 2: wormlab has no crossbar input speedup (only input_speedup = 1 runs)")
	require.Contains(t, notes, "not honoured: t.cfg:1: booksim key alloc_iters: = 2: wormlab has no iterative allocation (wormlab's allocators make one pass) (only alloc_iters = 1 runs)")
}

// Allocator names with a parameter, as BookSim2's allocator factory reads them
// (allocators/allocator.cpp: the name before '(', the parameter up to the last
// ')'): islip's is its iteration count, which replaces alloc_iters, and islip
// with one iteration runs as the unparameterised islip does (as
// separable_input_first, with the note); a separable allocator's is its arbiter,
// which replaces arb_type, and round-robin runs. Other counts and arbiters are
// refused naming the key and the value; alloc_iters and arb_type are refused
// only when an allocator reads them (BookSim2 ignores them otherwise).
func TestFromBookSimAllocatorParameters(t *testing.T) {
	base := "topology = torus; k = 4; routing_function = dim_order;"
	for _, text := range []string{
		"vc_allocator = islip(1); sw_allocator = islip(1);",
		"vc_allocator = islip(1); sw_allocator = islip(1); alloc_iters = 2;",
		"vc_allocator = islip(); sw_allocator = islip(1;",
		"vc_allocator = separable_input_first(round_robin); sw_allocator = islip(1); arb_type = matrix;",
		"vc_allocator = separable_input_first; sw_allocator = separable_input_first(round_robin); alloc_iters = 4;",
	} {
		run, _, notes, err := FromBookSim(parseBS(t, base+text), false)
		require.NoError(t, err, text)
		require.Equal(t, "rotate", run.Select, text)
		require.Equal(t, "output", run.SwitchInput, text)
		if strings.Contains(text, "islip(1)") {
			require.Contains(t, strings.Join(notes, "\n"), "islip(1) runs as separable_input_first", text)
		}
		if strings.Contains(text, "alloc_iters") || strings.Contains(text, "arb_type") {
			require.Contains(t, strings.Join(notes, "\n"), "ignored (", text)
		}
	}
	for text, msg := range map[string]string{
		"vc_allocator = islip(2);":                                 `t.cfg:1: booksim key vc_allocator: = islip(2): an iteration count of "2": wormlab's allocators make one pass`,
		"sw_allocator = islip(0);":                                 `t.cfg:1: booksim key sw_allocator: = islip(0): an iteration count of "0"`,
		"sw_allocator = islip(one);":                               `t.cfg:1: booksim key sw_allocator: = islip(one): an iteration count of "one"`,
		"vc_allocator = islip(); alloc_iters = 2;":                 "t.cfg:1: booksim key alloc_iters: = 2: wormlab has no iterative allocation",
		"vc_allocator = separable_input_first(matrix);":            `t.cfg:1: booksim key vc_allocator: = separable_input_first(matrix): the arbiter "matrix": wormlab's separable allocators arbitrate round-robin`,
		"sw_allocator = separable_input_first; arb_type = matrix;": "t.cfg:1: booksim key arb_type: = matrix: wormlab's separable allocators arbitrate round-robin",
		"sw_allocator = pim(1);":                                   "t.cfg:1: booksim key sw_allocator: = pim(1): wormlab runs separable_input_first",
	} {
		_, _, _, err := FromBookSim(parseBS(t, base+text), false)
		var be *BookSimError
		require.True(t, errors.As(err, &be), "%s: %v", text, err)
		require.ErrorContains(t, err, msg, text)
	}
}

// min_adapt runs as BookSim2 runs it (minadapt-booksim: the adaptive VCs of
// the lowest dimension still to correct alone) and as its VC allocator runs it:
// under its default islip, which reads no priorities, as minadapt-booksim-islip
// (no preference of the adaptive VC over the escape), with a note; under
// separable_input_first, whose arbiters take the highest priority first, as
// minadapt-booksim.
func TestFromBookSimMinAdaptAllocator(t *testing.T) {
	note := "routing_function = min_adapt runs as minadapt-booksim-islip"
	for _, topo := range []string{"torus", "mesh"} {
		base := "topology = " + topo + "; k = 4; routing_function = min_adapt;"
		for text, want := range map[string]string{
			"":                                      "minadapt-booksim-islip",
			"vc_allocator = islip(1);":              "minadapt-booksim-islip",
			"sw_allocator = separable_input_first;": "minadapt-booksim-islip",
			"vc_allocator = separable_input_first;": "minadapt-booksim",
		} {
			run, origin, notes, err := FromBookSim(parseBS(t, base+text), false)
			require.NoError(t, err, text)
			require.Equal(t, want, run.Routing, text)
			require.Contains(t, origin["routing"], "routing_function", text)
			if want == "minadapt-booksim" {
				require.NotContains(t, strings.Join(notes, "\n"), note, text)
			} else {
				require.Contains(t, notes, note+": BookSim2's islip VC allocator reads no priorities, so the adaptive VC is not preferred to the escape", text)
			}
		}
	}
}

// ToBookSim writes what FromBookSim reads back as the same run, for runs with a
// BookSim2 counterpart; runs without one are refused naming the flag.
func TestToBookSimRoundTrip(t *testing.T) {
	for _, set := range []map[string]string{
		{"routing": "dor-booksim"},
		{"topology": "mesh:8x8", "routing": "dor", "vcs": "2", "buf": "4", "rate": "0.05", "flits": "1:4,16:1"},
		{"topology": "torus:4x4x4", "routing": "minadapt-booksim", "msg-rate": "0.01", "atomic-vc": "on", "route-delay": "0", "credit-delay": "3"},
		{"topology": "mesh:8x8", "routing": "minadapt-booksim", "flits": "4"},
		{"topology": "mesh:4x4", "routing": "valiant", "vcs": "2", "traffic": "hotspot", "hot": "0,5", "hot-fraction": "1", "seed": "7"},
		{"topology": "mesh:4x4", "routing": "dor", "process": "onoff", "burst-alpha": "0.1", "burst-beta": "0.3", "rate": "0.05"},
		{"routing": "dor-booksim", "link-delay": "1", "credit-delay": "1"},
		{"topology": "dragonfly:p=2", "routing": "df-min", "vcs": "2", "buf": "256", "flits": "4", "rate": "0.3"},
		{"topology": "dragonfly:p=3", "routing": "df-min", "vcs": "2", "traffic": "worstcase", "route-delay": "0", "credit-delay": "3"},
	} {
		r := Default()
		r.Select, r.SwitchInput = "rotate", "output"
		for k, v := range set {
			require.NoError(t, r.Set(k, v), "%s=%s", k, v)
		}
		if r.AtomicVC == "auto" {
			r.AtomicVC = "off"
		}
		text, err := ToBookSim(r)
		require.NoError(t, err, "%v", set)
		back, _, notes, err := FromBookSim(parseBS(t, text), false)
		require.NoError(t, err, "%v:\n%s", set, text)
		require.Empty(t, notes)
		r.MaxCycles, r.MinCycles = back.MaxCycles, back.MinCycles
		b1, err := r.Build()
		require.NoError(t, err)
		b2, err := back.Build()
		require.NoError(t, err)
		require.Equal(t, b1.Config.Pipeline, b2.Config.Pipeline, "%v", set)
		for _, p := range []string{"topology", "routing", "vcs", "buf", "traffic", "process", "seed", "hot", "burst-alpha", "burst-beta", "select", "switch-input"} {
			require.Equal(t, r.Get(p), back.Get(p), "%s in %v", p, set)
		}
		require.Equal(t, b1.Sizes, b2.Sizes)
		require.Equal(t, r.Offered(), back.Offered())
		require.Equal(t, b1.Config.AtomicVC, b2.Config.AtomicVC)
	}
	for set, param := range map[string]string{
		"routing=dor": "routing",
		// BookSim2's min_adapt is minadapt-booksim: no BookSim2 routing function
		// offers the adaptive VCs of every dimension still to correct
		"routing=minadapt":       "routing",
		"routing=minadapt-islip": "routing",
		"pipeline=ideal":         "pipeline",
		"process=poisson":        "process",
		"topology=torus:4x8":     "topology",
		"arb=fixed":              "arb",
		"traffic=local":          "traffic",
		"inject-delay=0":         "inject-delay",
		"select=first":           "select",
		"switch-input=vc":        "switch-input",
		"vcs=3":                  "vcs",
		"vcs=5":                  "vcs",
	} {
		r := Default()
		r.Routing, r.Select, r.SwitchInput = "dor-booksim", "rotate", "output"
		k, v, _ := strings.Cut(set, "=")
		require.NoError(t, r.Set(k, v))
		_, err := ToBookSim(r)
		var e *Error
		require.True(t, errors.As(err, &e), "%s: %v", set, err)
		require.Equal(t, param, e.Param, set)
	}
	// a dragonfly other than BookSim2's, or min on other than 2 VCs, has no
	// counterpart; nor has a fat-tree
	for spec, param := range map[string]string{
		"dragonfly:p=2,arrangement=palmtree": "topology",
		"dragonfly:a=6,p=2,h=2":              "topology",
		"dragonfly:p=2,local=5,global=50":    "topology",
		"dragonfly:p=2 4":                    "routing",
		"fattree:16":                         "topology",
	} {
		r := Default()
		r.Routing, r.VCs, r.Select, r.SwitchInput = "df-min", 2, "rotate", "output"
		r.Topology, _, _ = strings.Cut(spec, " ")
		if strings.HasSuffix(spec, " 4") {
			r.VCs = 4
		}
		if r.Topology == "fattree:16" {
			r.Routing = "updown"
		}
		_, err := ToBookSim(r)
		var e *Error
		require.True(t, errors.As(err, &e), "%s: %v", spec, err)
		require.Equal(t, param, e.Param, "%s: %v", spec, err)
	}
}

// Every configuration BookSim2 ships (read from a checkout named by BOOKSIM_SRC or
// at /work/booksim2; none is in this repository) either maps onto a run that
// validates or is refused naming a key: the counts are docs/booksim.md's.
func TestBookSimExamples(t *testing.T) {
	root := os.Getenv("BOOKSIM_SRC")
	if root == "" {
		root = "/work/booksim2"
	}
	files, _ := filepath.Glob(filepath.Join(root, "src/examples/*"))
	more, _ := filepath.Glob(filepath.Join(root, "src/examples/anynet/*config*"))
	runfiles, _ := filepath.Glob(filepath.Join(root, "runfiles/*"))
	files = append(append(files, more...), runfiles...)
	ran, refused := 0, 0
	for _, f := range files {
		if fi, err := os.Stat(f); err != nil || fi.IsDir() {
			continue
		}
		data, err := os.ReadFile(f)
		require.NoError(t, err)
		as, err := ParseBookSim(strings.NewReader(string(data)), f)
		require.NoError(t, err, f)
		_, _, _, err = FromBookSim(as, false)
		rel, _ := filepath.Rel(root, f)
		if err == nil {
			ran++
			t.Logf("runs:    %s", rel)
			continue
		}
		refused++
		var be *BookSimError
		require.True(t, errors.As(err, &be), "%s: %v", f, err)
		require.NotEmpty(t, be.Key, f)
		_, _, notes, _ := FromBookSim(as, true)
		var keys []string
		for _, n := range notes {
			if rest, ok := strings.CutPrefix(n, "not honoured: "); ok {
				_, after, _ := strings.Cut(rest, "booksim key ")
				key, _, _ := strings.Cut(after, ":")
				keys = append(keys, key)
			}
		}
		t.Logf("refused: %s: %v (every key not honoured: %s)", rel, err, strings.Join(keys, ", "))
	}
	if ran+refused == 0 {
		t.Skip("no BookSim2 checkout at " + root)
	}
	t.Logf("%d run, %d refused", ran, refused)
	// docs/booksim.md quotes the counts
	doc, err := os.ReadFile("../docs/booksim.md")
	require.NoError(t, err)
	text := strings.Join(strings.Fields(string(doc)), " ")
	for _, quote := range []string{fmt.Sprintf("Of the %d: **%d run**", ran+refused, ran), fmt.Sprintf("**%d are refused**", refused)} {
		require.True(t, strings.Contains(text, quote), "docs/booksim.md should say %q", quote)
	}
}

// minadapt-booksim-islip on a torus or mesh is BookSim2's min_adapt under its
// islip VC allocator (which reads no priorities): ToBookSim writes that, and
// FromBookSim reads it back as minadapt-booksim-islip with BookSim2's pointers,
// saying so.
func TestToBookSimMinAdaptISLIP(t *testing.T) {
	for _, topo := range []string{"torus:4x4", "mesh:4x4"} {
		r := Default()
		r.Select, r.SwitchInput = "rotate", "output"
		require.NoError(t, r.Set("topology", topo))
		require.NoError(t, r.Set("routing", "minadapt-booksim-islip"))
		text, err := ToBookSim(r)
		require.NoError(t, err, topo)
		require.Contains(t, text, "routing_function = min_adapt;")
		require.Contains(t, text, "vc_allocator = islip;")
		back, _, notes, err := FromBookSim(parseBS(t, text), false)
		require.NoError(t, err, "%s:\n%s", topo, text)
		for _, p := range []string{"topology", "routing", "vcs", "buf", "select", "switch-input"} {
			require.Equal(t, r.Get(p), back.Get(p), "%s in %s", p, topo)
		}
		require.Contains(t, strings.Join(notes, "\n"), "runs as minadapt-booksim-islip")
	}
}

// BookSim2's lexer (src/config.l) reads a real number only as -?[0-9]*\.[0-9]+:
// an integer literal given to a real key is its "Unknown integer field" and
// exits, and it has no exponents. So every real key ToBookSim writes has a
// point and no exponent, whatever its value: a rate of 1, the on/off process's
// derived burst_r1 of -1, a rate of 10^-5 (BookSim2 refused the files
// --emit-config wrote for the first two: "Parse error : Unknown integer field:
// injection_rate", "... burst_r1").
func TestToBookSimRealsAsBookSimReadsThem(t *testing.T) {
	real := regexp.MustCompile(`^-?[0-9]*\.[0-9]+$`)
	for _, set := range []map[string]string{
		{"topology": "mesh:4x4", "routing": "dor", "flits": "1", "rate": "1"},
		{"topology": "mesh:4x4", "routing": "dor", "process": "onoff", "rate": "0.05"},
		{"topology": "mesh:4x4", "routing": "dor", "process": "onoff", "burst-alpha": "1", "burst-beta": "1", "rate": "0.05"},
		{"topology": "mesh:4x4", "routing": "dor", "rate": "0.00001"},
		{"topology": "mesh:4x4", "routing": "dor", "flits": "1", "msg-rate": "1"},
	} {
		r := Default()
		r.Select, r.SwitchInput = "rotate", "output"
		for k, v := range set {
			require.NoError(t, r.Set(k, v), "%s=%s", k, v)
		}
		text, err := ToBookSim(r)
		require.NoError(t, err, "%v", set)
		n := 0
		for _, line := range strings.Split(text, "\n") {
			key, value, ok := strings.Cut(strings.TrimSuffix(line, ";"), " = ")
			if !ok || bsKeys[key].kind != 'f' {
				continue
			}
			n++
			require.Regexp(t, real, value, "%s in %v", key, set)
			x, err := strconv.ParseFloat(value, 64)
			require.NoError(t, err)
			want := map[string]float64{"injection_rate": r.Offered(), "burst_alpha": r.BurstAlpha, "burst_beta": r.BurstBeta, "burst_r1": r.BurstRate}[key]
			if key == "injection_rate" && r.MsgRate != 0 {
				want = r.MsgRate
			}
			require.Equal(t, want, x, "%s in %v", key, set)
		}
		require.NotZero(t, n, "%v: no real key written", set)
	}
}

// --config reads numbers as BookSim2's lexer and Configuration::Assign do
// (config.l, config_utils.cpp; each case run through BookSim2 at /work/booksim2,
// session 10): an integer for a real key is refused ("Unknown integer field:
// injection_rate"), a real with an exponent is read (1e-2, 2.5E-1, -.5e1), and a
// token the lexer splits in two ("1.", "1.e5", "1e") is refused (a syntax error
// there). Each refusal is one error naming the key and its line.
func TestBookSimNumbersAsBookSimReadsThem(t *testing.T) {
	base := "topology = mesh; k = 4; routing_function = dor;\n"
	for v, want := range map[string]float64{"1e-2": 0.01, "2.5E-1": 0.25, ".5": 0.5, "1.0": 1, "-.5e1": -5} {
		as := parseBS(t, base+"burst_r1 = "+v+";")
		require.Equal(t, byte('f'), as[len(as)-1].Kind, v)
		x, err := strconv.ParseFloat(as[len(as)-1].Value, 64)
		require.NoError(t, err)
		require.Equal(t, want, x, v)
	}
	run, _, _, err := FromBookSim(parseBS(t, base+"injection_rate = 1e-2;"), false)
	require.NoError(t, err)
	require.Equal(t, 0.01, run.Offered())
	for _, text := range []string{"injection_rate = 1;", "burst_r1 = -1;", "latency_thres = 500;"} {
		_, _, _, err := FromBookSim(parseBS(t, base+text), false)
		key, value, _ := strings.Cut(strings.TrimSuffix(text, ";"), " = ")
		require.EqualError(t, err, fmt.Sprintf("t.cfg:2: booksim key %s: %q is an integer, which BookSim2 refuses for a real key: write %s.0", key, value, value), text)
	}
	_, _, _, err = FromBookSim(parseBS(t, base, "injection_rate=1"), false)
	require.EqualError(t, err, `command line: booksim key injection_rate: "1" is an integer, which BookSim2 refuses for a real key: write 1.0`)
	for _, v := range []string{"1.", "1.e5", "1e", "1.5.3", "1e+"} {
		_, err := ParseBookSim(strings.NewReader(base+"injection_rate = "+v+";"), "t.cfg")
		var be *BookSimError
		require.True(t, errors.As(err, &be), "%s: %v", v, err)
		require.Contains(t, err.Error(), "t.cfg:2: injection_rate = "+v+": not a number as BookSim2's lexer reads one", v)
	}
}

// k and n that make no grid, fly or dragonflynew are refused naming the key at
// fault and where it was set: n given on the command line (n=0) is named there,
// not the file's line of k (it named t.cfg:2, k's line, for a command line's n=0;
// and a dragonflynew's k = 0 in the file was named as the command line's n).
func TestFromBookSimGridNamesTheKeyAtFault(t *testing.T) {
	for _, c := range []struct {
		text, override, want string
	}{
		{"topology = mesh;\nk = 4;\n", "n=0", "command line: booksim key n: k = 4, n = 0: want k >= 2 and 1 <= n <= 8"},
		{"topology = torus;\nk = 4;\nn = 9;\n", "", "t.cfg:3: booksim key n: k = 4, n = 9"},
		{"topology = mesh;\nk = 1;\n", "n=2", "t.cfg:2: booksim key k: k = 1, n = 2"},
		{"topology = fly;\nk = 2;\nrouting_function = dest_tag;\n", "n=0", "command line: booksim key n: k = 2, n = 0: want k >= 2 and n >= 1"},
		{"topology = dragonflynew;\nk = 0;\nrouting_function = min;\n", "n=1", "t.cfg:2: booksim key k: k = 0, n = 1: BookSim2's dragonflynew"},
		{"topology = dragonflynew;\nk = 2;\nrouting_function = min;\n", "n=2", "command line: booksim key n: k = 2, n = 2: BookSim2's dragonflynew"},
	} {
		var over []string
		if c.override != "" {
			over = append(over, c.override)
		}
		_, _, _, err := FromBookSim(parseBS(t, c.text, over...), false)
		require.ErrorContains(t, err, c.want, c.text+c.override)
	}
}

// BookSim2 reads hotspot(P) by tokenize_str (config_utils.cpp): P = {x,y} is
// the list of parameters x and y, so the hot nodes are {{a,b}} and hotspot({0,9})
// is one hot node, 0, of rate 9 (BookSim2 sent every packet to node 0 on such a
// file). FromBookSim reads the hot nodes as BookSim2 does, and ToBookSim writes
// them so (it wrote hotspot({0,9}) for --hot 0,9, and read it back as 0,9).
// A rate not above 0 is refused naming the key (BookSim2 asserts rate > 0).
func TestBookSimHotspotAsBookSimReadsIt(t *testing.T) {
	base := "topology = mesh; k = 4; n = 2; routing_function = dim_order; num_vcs = 2;\n"
	for tr, hot := range map[string]string{
		"hotspot({0,9})":           "0",
		"hotspot({0,5},{1,1})":     "0",
		"hotspot({{0,9}})":         "0,9",
		"hotspot({{0,5},{1,1}})":   "0,5",
		"hotspot({{0,5,6},{2}})":   "0,5,6",
		"hotspot({{3},{1,1,1}})":   "3",
		"hotspot({7})":             "7",
		"hotspot(7)":               "7",
		"hotspot({{0,5},{1,3}})":   "",
		"hotspot({{0,5,6},{1,2}})": "",
		"hotspot({0,0})":           "-",
		"hotspot({{0,5},{0}})":     "-",
		"hotspot({{0,5},{1,0}})":   "-",
		"hotspot({3,-1})":          "-",
	} {
		run, _, _, err := FromBookSim(parseBS(t, base+"traffic = "+tr+";\n"), false)
		if hot == "-" {
			var be *BookSimError
			require.True(t, errors.As(err, &be), "%s: %v", tr, err)
			require.ErrorContains(t, err, "booksim key traffic: = "+tr+": hot node rate", tr)
			require.ErrorContains(t, err, "above 0", tr)
			continue
		}
		if hot == "" {
			require.ErrorContains(t, err, "unequal rates", tr)
			continue
		}
		require.NoError(t, err, tr)
		require.Equal(t, "hotspot", run.Traffic, tr)
		require.Equal(t, hot, run.Get("hot"), tr)
		require.Equal(t, "1", run.Get("hot-fraction"), tr)
	}
	for _, hot := range []string{"0,5", "3"} {
		r := Default()
		r.Select, r.SwitchInput = "rotate", "output"
		for k, v := range map[string]string{"topology": "mesh:4x4", "routing": "dor", "traffic": "hotspot", "hot": hot, "hot-fraction": "1"} {
			require.NoError(t, r.Set(k, v))
		}
		text, err := ToBookSim(r)
		require.NoError(t, err)
		require.Contains(t, text, "traffic = hotspot({{"+hot+"}});")
	}
}

// BookSim2's lexer (config.l) reads a braced list as one token only when nothing
// but letters, digits and _-.(){}, stand between its braces: packet_size =
// {{1, 16}}; stops BookSim2 with "Parse error on line 2 : syntax error"
// (/work/booksim2, checked), where --config ran it as the mix 1,16. The list is
// refused naming its key and line, as BookSim2 refuses it, in one line with the
// value quoted; written without the space it is read as before.
func TestBookSimListsAsBookSimReadsThem(t *testing.T) {
	base := "topology = mesh; k = 4; n = 2; routing_function = dim_order;\n"
	for _, v := range []string{"{{1, 16}}", "{1,\n16}", "{ 1}", "{1,16 }", "{1,\t16}", "{}", "{a/b}", "{+1}"} {
		_, err := ParseBookSim(strings.NewReader(base+"packet_size = "+v+";\n"), "t.cfg")
		var be *BookSimError
		require.True(t, errors.As(err, &be), "%q: %v", v, err)
		require.ErrorContains(t, err, "t.cfg:2: packet_size = "+strconv.Quote(v)+": not a list as BookSim2's lexer reads one", v)
		// one line, the line break or tab shown (wormlab sim printed a list
		// broken after its comma as "{1,; 16}", a ; the file does not hold)
		require.NotContains(t, err.Error(), "\n", v)
		require.NotContains(t, err.Error(), "\t", v)
	}
	run, _, _, err := FromBookSim(parseBS(t, base+"packet_size = {{1,16}};\npacket_size_rate = {{1,1}};\n"), false)
	require.NoError(t, err)
	require.Equal(t, "1:1,16:1", run.Flits)
}
