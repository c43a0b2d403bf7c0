package main

import (
	"bytes"
	"errors"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/wormlab/wormlab/model"
	"github.com/wormlab/wormlab/simrun"
)

// FuzzGenArgs runs `wormlab gen` on fuzzed command lines: never a panic; exit 0
// with a valid MODEL.md instance on stdout, or exit 2 with one line on stderr and
// nothing on stdout. Numbers are kept small and no file is written.
func FuzzGenArgs(f *testing.F) {
	for _, s := range []string{
		"mesh:4x4 --messages 10", "mesh --sides 3x3 --flits 0", "kary-tree --k 0", "mesh --size 99",
		"butterfly:8 --traffic heavy", "torus:4x4 --traffic transpose --routing one-bend",
		"levelled:3x4 --messages 5", "fat-tree:16 --routing deterministic", "--topology line:5",
		"mesh:2x2 --sides 2x2", "tree --size 7 --traffic hotspot --hotspot 1.5", "line:4 --radius -1",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		args := strings.Fields(line)
		for _, a := range args {
			if a == "-o" || strings.HasPrefix(a, "-o=") || strings.HasPrefix(a, "--o") {
				return
			}
			for _, part := range strings.FieldsFunc(a, func(r rune) bool { return r < '0' || r > '9' }) {
				if v, err := strconv.Atoi(part); err != nil || v > 64 {
					return // large networks or counts: not what this target is for
				}
			}
		}
		var out, errb bytes.Buffer
		code := run(append([]string{"gen"}, args...), strings.NewReader(""), &out, &errb, false)
		switch code {
		case 0:
			if strings.HasPrefix(out.String(), "usage: wormlab gen") {
				return // -h, --h and the like: help on stdout
			}
			in, err := model.ParseInstance(out.Bytes())
			require.NoError(t, err, "gen %s", line)
			require.NoError(t, in.Validate())
		case 2:
			require.Empty(t, out.String(), "gen %s", line)
			msg := strings.TrimSpace(errb.String())
			require.NotEmpty(t, msg)
			last := msg[strings.LastIndexByte(msg, '\n')+1:]
			require.True(t, strings.HasPrefix(last, "wormlab gen: "), "gen %s: %q", line, msg)
		default:
			t.Fatalf("gen %s: exit %d: %s", line, code, errb.String())
		}
	})
}

// FuzzRange reads fuzzed FROM:TO:STEP ranges and lists (model --msg-rate; issue
// 26: 0.1:0.1:1e-300 never returned): never a panic, never more than 100,000
// values, counted before built; a range read is strictly increasing from FROM and
// ends within a step of TO.
func FuzzRange(f *testing.F) {
	for _, s := range []string{"0.1:0.3:0.1", "0.001:0.001:1e-300", "0.001:0.001:1e-13", "0:1e300:1", "NaN:1:0.1", "1:0:0.1", "0.1,0.2", "0.1:0.2", "1e-12:1e-11:1e-12"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		xs, err := parseRateList(s)
		if err != nil || !strings.Contains(s, ":") {
			return
		}
		if len(xs) == 0 || len(xs) > 100000 {
			t.Fatalf("%q: %d values", s, len(xs))
		}
		for i := 1; i < len(xs); i++ {
			if !(xs[i] > xs[i-1]) {
				t.Fatalf("%q: value %d is %g after %g", s, i, xs[i], xs[i-1])
			}
		}
	})
}

// FuzzWhere reads fuzzed --where conditions: never a panic; a condition read has
// a field and at least one value, and a field given twice is refused.
func FuzzWhere(f *testing.F) {
	for _, s := range []string{"rate=0.1", "routing=dor,duato", "=1", "rate", "rate=", "a=b=c", "a=,"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		var w whereFlag
		if err := w.Set(s); err != nil {
			return
		}
		if len(w.m) != 1 {
			t.Fatalf("%q: %d fields", s, len(w.m))
		}
		for field, vals := range w.m {
			if field == "" || len(vals) == 0 {
				t.Fatalf("%q: field %q values %q", s, field, vals)
			}
			if w.Set(field+"=x") == nil {
				t.Fatalf("%q: field %q accepted twice", s, field)
			}
		}
	})
}

// FuzzMaxMemory reads fuzzed --max-memory sizes: never a panic; a size read is
// positive, at most 2^62, and prints as a size that reads back within rounding.
func FuzzMaxMemory(f *testing.F) {
	for _, s := range []string{"4G", "512M", "1000000", "1.5GiB", "lots", "-1G", "0", "NaN", "Inf", "1e30T", "2KB"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		var b byteSize
		if err := b.Set(s); err != nil {
			return
		}
		if b <= 0 || b > 1<<62 {
			t.Fatalf("%q: %d bytes", s, b)
		}
		var again byteSize
		if err := again.Set(strings.ReplaceAll(b.String(), " ", "")); err != nil {
			t.Fatalf("%q prints as %q, which does not read: %v", s, b.String(), err)
		}
		if d := float64(again) / float64(b); d < 0.9 || d > 1.1 {
			t.Fatalf("%q prints as %q, %d bytes read back as %d", s, b.String(), b, again)
		}
	})
}

// FuzzHot reads fuzzed --hot lists through the run description on a 4x4 torus:
// never a panic; a run that validates has every hot node a terminal; a refused
// list is an *simrun.Error naming --hot.
func FuzzHot(f *testing.F) {
	for _, s := range []string{"0", "3,5", "99999", "-1", "", "1,,2", "1,1", " 2", "+3", "0x3"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		r := simrun.Default()
		r.Topology, r.Traffic = "torus:4x4", "hotspot"
		if s == "" {
			return // no --hot: terminal 0 (the flag refuses an empty value)
		}
		if err := r.Set("hot", s); err != nil {
			return
		}
		err := r.Validate()
		if err == nil {
			for _, x := range strings.Split(s, ",") {
				n, err := strconv.Atoi(strings.TrimSpace(x))
				if err != nil || n < 0 || n >= 16 {
					t.Fatalf("--hot %q accepted", s)
				}
			}
			return
		}
		var se *simrun.Error
		if !errors.As(err, &se) || se.Param != "hot" {
			t.Fatalf("--hot %q: %v, want an error naming --hot", s, err)
		}
	})
}

// networkSafe bounds a fuzzed command line of the network half to what runs in a
// few milliseconds: small numbers, short simulations, one fat-tree run; it adds
// the flags that keep a valid run short and says false for lines it leaves out.
func networkSafe(cmd string, args []string) ([]string, bool) {
	for _, a := range args {
		if a == "-o" || strings.HasPrefix(a, "-o=") || strings.HasPrefix(a, "--o") || strings.HasPrefix(a, "-h") || strings.HasPrefix(a, "--h") ||
			strings.Contains(a, "config") || strings.Contains(a, "emit") || strings.Contains(a, "write") || strings.Contains(a, "trace") ||
			strings.Contains(a, "heatmap") || strings.Contains(a, "plot") || strings.Contains(a, "svg") || strings.Contains(a, "certify") ||
			strings.Contains(a, "slurm") || strings.Contains(a, "submit") || strings.Contains(a, "saturation") || strings.Contains(a, "table") ||
			strings.Contains(a, "file:") || strings.Contains(a, "anynet") || strings.Contains(a, "batch") || strings.Contains(a, "optimal") {
			return nil, false
		}
		for _, part := range strings.FieldsFunc(a, func(r rune) bool { return r < '0' || r > '9' }) {
			if v, err := strconv.Atoi(part); err != nil || v > 64 {
				return nil, false
			}
		}
	}
	switch cmd {
	case "sim":
		return append(args, "--max-cycles=300", "--min-cycles=300", "--workers=1", "--topology=torus:4x4"), true
	case "fattree":
		return append(args, "--runs=1", "--n=16"), true
	case "deadlock":
		return append(args, "--timeout=2s"), true
	}
	return args, true
}

// FuzzNetworkArgs runs the network half's commands on fuzzed command lines (issue
// 26: a fuzz target over each command's flag parser, not only gen's): never a
// panic; exit 0 or 1 (a deadlock, a cycle); or exit 2 with nothing on stdout and
// exactly one line on stderr, "wormlab CMD: ...", naming a flag given (--name or
// -name) or a value or argument given. The flags the harness adds (networkSafe)
// come last and the first occurrence of a flag given twice is the one reported.
func FuzzNetworkArgs(f *testing.F) {
	for _, s := range []string{
		"sim --vcs 0", "sim --rate 2", "sim --flits 1:Inf,16:1", "sim --traffic hotspot --hot 3 --hot-fraction 0", "sim --radius 2",
		"sim --routing duato --vcs 1", "sim --channels", "sim --rates 0.1:0.1:0", "sim --buf 1,2 --vcs 2,3", "sim --nosuch",
		"deadlock --vcs 65", "deadlock --routing valiant --topology mesh:3x3", "deadlock --topology torus:+4x4",
		"fattree --algo split --overhead 2", "fattree --algo worm --queue 0", "fattree --scan ff --path gp",
		"model --k 3", "model --rate 1", "model --tables --k 8", "model --msg-rate 0.01,0.02 --flits 4",
		"sweep merge", "sweep csv", "sweep points", "sweep x.json --workers 0", "plot x --width NaN",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		args := strings.Fields(line)
		if len(args) == 0 {
			return
		}
		switch args[0] {
		case "sim", "deadlock", "fattree", "model", "sweep", "plot":
		default:
			return
		}
		given := args[1:]
		all, ok := networkSafe(args[0], append([]string{}, given...))
		if !ok {
			return
		}
		var out, errb bytes.Buffer
		code := run(append([]string{args[0]}, all...), strings.NewReader(""), &out, &errb, false)
		switch code {
		case 0, 1:
			return
		case 2:
		default:
			t.Fatalf("%s: exit %d: %s", line, code, errb.String())
		}
		msg := strings.TrimSuffix(errb.String(), "\n")
		if strings.Contains(msg, "\n") || msg == "" {
			t.Fatalf("%s: want one line on stderr, got %q", line, errb.String())
		}
		if out.Len() > 0 {
			t.Fatalf("%s: exit 2 with output %q", line, out.String())
		}
		if !strings.HasPrefix(msg, "wormlab "+args[0]+": ") {
			t.Fatalf("%s: %q", line, msg)
		}
		body := strings.TrimPrefix(msg, "wormlab "+args[0]+": ")
		for _, a := range given {
			name, value, _ := strings.Cut(strings.TrimLeft(a, "-"), "=")
			if strings.HasPrefix(a, "-") && name != "" && (strings.Contains(body, "--"+name) || strings.Contains(body, "-"+name)) {
				return
			}
			for _, v := range []string{value, a} {
				q := strconv.Quote(v) // a message may quote it, escapes and all
				if v != "" && (strings.Contains(body, v) || strings.Contains(body, q[1:len(q)-1])) {
					return
				}
			}
		}
		if len(given) == 0 || strings.Contains(body, " is required") || strings.Contains(body, ", got 0") {
			return // a bare command, a required flag or the arguments missing: named though not given
		}
		t.Fatalf("%s: %q names nothing given", line, msg)
	})
}
