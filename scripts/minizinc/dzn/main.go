// Command dzn writes the MiniZinc data of scripts/minizinc/bufferless.mzn for a
// wormlab instance: go run ./scripts/minizinc/dzn INSTANCE > data.dzn (see
// scripts/minizinc/README.md); with --wormhole, the data of wormhole.mzn. H is
// the makespan of offline.Greedy in input order (a legal bufferless schedule, so
// a wormhole one too), lb the instance's best closed-form lower bound (valid in
// both models).
package main

import (
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/wormlab/wormlab/model"
	"github.com/wormlab/wormlab/offline"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "dzn:", err)
		os.Exit(2)
	}
}

func run() error {
	args := os.Args[1:]
	if len(args) == 2 && args[0] == "--schedule" {
		return schedule(args[1])
	}
	wormhole := len(args) == 2 && args[0] == "--wormhole"
	if wormhole {
		args = args[1:]
	}
	if len(args) != 1 {
		return fmt.Errorf("usage: dzn [--wormhole] INSTANCE, or dzn --schedule INSTANCE < MINIZINC_OUTPUT")
	}
	data, err := os.ReadFile(args[0])
	if err != nil {
		return err
	}
	in, err := model.ParseInstance(data)
	if err != nil {
		return err
	}
	n := len(in.Messages)
	order := make([]int, n)
	for i := range order {
		order[i] = i
	}
	starts, err := offline.Greedy(in, order)
	if err != nil {
		return err
	}
	H := model.FromStarts(in, starts).Makespan
	var b strings.Builder
	list := func(name string, xs []int) {
		s := make([]string, len(xs))
		for i, x := range xs {
			s[i] = fmt.Sprint(x)
		}
		fmt.Fprintf(&b, "%s = [%s];\n", name, strings.Join(s, ","))
	}
	d, L := make([]int, n), make([]int, n)
	for i, m := range in.Messages {
		d[i], L[i] = len(m.Path), m.L
	}
	fmt.Fprintf(&b, "%% %s: %d messages\nn = %d;\n", in.Name, n, n)
	list("d", d)
	list("L", L)
	fmt.Fprintf(&b, "H = %d;\nlb = %d;\n", H, in.LowerBound().Value)
	// base[i]: the index (from 1) of message i's first hop in wormhole.mzn's t
	base, nh := make([]int, n), 0
	for i := range in.Messages {
		base[i] = nh + 1
		nh += d[i]
	}
	if wormhole {
		list("base", base)
		fmt.Fprintf(&b, "nh = %d;\n", nh)
	}
	var first, last, umsg, uoff, ustart, urel, uroff []int
	for _, us := range in.Users() {
		if len(us) < 2 {
			continue // an edge one message uses constrains nothing
		}
		first = append(first, len(umsg)+1)
		for _, u := range us {
			umsg = append(umsg, u.Msg+1)
			uoff = append(uoff, u.Pos)
			// the hop whose crossing releases the edge: k + L (from 1), or the
			// last hop and the drain steps past it
			k, dd := u.Pos+1, d[u.Msg]
			rel, off := k+L[u.Msg], 0
			if rel > dd {
				rel, off = dd, rel-dd
			}
			ustart = append(ustart, base[u.Msg]+k-1)
			urel = append(urel, base[u.Msg]+rel-1)
			uroff = append(uroff, off)
		}
		last = append(last, len(umsg))
	}
	fmt.Fprintf(&b, "E = %d;\n", len(first))
	list("first", first)
	list("last", last)
	fmt.Fprintf(&b, "U = %d;\n", len(umsg))
	if wormhole {
		list("ustart", ustart)
		list("urel", urel)
		list("uroff", uroff)
	} else {
		list("umsg", umsg)
		list("uoff", uoff)
	}
	_, err = os.Stdout.WriteString(b.String())
	return err
}

// schedule reads the output of bufferless.mzn ("starts = [...]") or wormhole.mzn
// ("cross = [...]") on standard input, the last solution printed, and writes it as
// a wormlab schedule of the instance, for wormlab verify to judge.
func schedule(path string) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	in, err := model.ParseInstance(data)
	if err != nil {
		return err
	}
	out, err := io.ReadAll(os.Stdin)
	if err != nil {
		return err
	}
	var key, list string
	for _, l := range strings.Split(string(out), "\n") {
		for _, k := range []string{"starts", "cross"} {
			if v, ok := strings.CutPrefix(l, k+" = "); ok {
				key, list = k, v
			}
		}
	}
	if key == "" {
		return fmt.Errorf("no solution in the MiniZinc output")
	}
	var xs []int
	for _, f := range strings.FieldsFunc(list, func(r rune) bool { return r == '[' || r == ']' || r == ',' || r == ' ' }) {
		x, err := strconv.Atoi(f)
		if err != nil {
			return fmt.Errorf("%s: %q is not an integer", key, f)
		}
		xs = append(xs, x)
	}
	var s *model.Schedule
	if key == "starts" {
		if len(xs) != len(in.Messages) {
			return fmt.Errorf("starts: %d values for %d messages", len(xs), len(in.Messages))
		}
		s = model.FromStarts(in, xs)
	} else {
		cross := make([][]int, len(in.Messages))
		for i, m := range in.Messages {
			if len(xs) < len(m.Path) {
				return fmt.Errorf("cross: too few values")
			}
			cross[i], xs = xs[:len(m.Path)], xs[len(m.Path):]
		}
		if len(xs) != 0 {
			return fmt.Errorf("cross: %d values too many", len(xs))
		}
		s = model.NewSchedule(in, model.Wormhole, cross)
	}
	return model.WriteSchedule(os.Stdout, s)
}
