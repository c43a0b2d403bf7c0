package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"runtime/debug"
	"strconv"
	"strings"
	"sync"

	"github.com/wormlab/wormlab/internal/atomicfile"
	"github.com/wormlab/wormlab/lower"
	"github.com/wormlab/wormlab/model"
)

// newFlags returns a flag set that reports errors instead of exiting, with a usage
// text naming the command's arguments. Help asked for (-h) goes to stdout: it is
// the command's output, not an error.
func newFlags(e *env, name, args, about string) *flag.FlagSet {
	fs := flag.NewFlagSet("wormlab "+name, flag.ContinueOnError)
	operandsMu.Lock()
	operands[fs] = args
	operandsMu.Unlock()
	fs.SetOutput(e.stderr)
	fs.Usage = func() {
		fmt.Fprintf(e.stdout, "usage: wormlab %s [flags] %s\n\n%s\n", name, args, about)
		var b bytes.Buffer
		fs.SetOutput(&b)
		fs.PrintDefaults()
		fs.SetOutput(e.stderr)
		if b.Len() > 0 {
			fmt.Fprintf(e.stdout, "\nflags:\n%s", b.String())
		}
	}
	return fs
}

// operands are the arguments a flag set's command takes ("RESULTS"), from
// newFlags to parseFlags (which takes them out), for the message of a wrong count.
var (
	operandsMu sync.Mutex
	operands   = map[*flag.FlagSet]string{}
)

// parseFlags parses args, moving flags that follow positional arguments to the front
// so that "wormlab stats INSTANCE --json" works. It returns the positional arguments,
// and checks there are between min and max of them (max < 0: no limit).
//
// The usage text is printed only when help is asked for (-h, --help): a bad flag or
// argument count costs the one line run prints.
func parseFlags(fs *flag.FlagSet, args []string, min, max int) ([]string, error) {
	fs.SetOutput(io.Discard)
	// The help text is printed only when the parse ends in flag.ErrHelp: a bad flag
	// beside -h ("gen -0 -h") is bad usage, exit 2 with one line and nothing on
	// stdout (FuzzGenArgs found the help printed there before the error).
	usage := fs.Usage
	fs.Usage = func() {}
	var flags, pos []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			pos = append(pos, args[i+1:]...)
			break
		}
		if len(a) > 1 && a[0] == '-' {
			flags = append(flags, a)
			name := a[1:]
			if name != "" && name[0] == '-' {
				name = name[1:]
			}
			if eq := bytes.IndexByte([]byte(name), '='); eq < 0 {
				if f := fs.Lookup(name); f != nil && i+1 < len(args) {
					if bf, ok := f.Value.(interface{ IsBoolFlag() bool }); !ok || !bf.IsBoolFlag() {
						i++
						flags = append(flags, args[i])
					}
				}
			}
			continue
		}
		pos = append(pos, a)
	}
	if err := fs.Parse(flags); err != nil {
		if err == flag.ErrHelp {
			usage()
			return nil, err
		}
		return nil, usageError("%s", flagError(fs, err))
	}
	// a flag given twice keeps its last value without a word in the flag
	// package (issue 26: fattree --algo worm ... --algo univ ran univ): refused,
	// but for the flags made to repeat (lists, --where)
	count := map[string]int{}
	for _, a := range flags {
		if len(a) < 2 || a[0] != '-' {
			continue
		}
		name, _, _ := strings.Cut(strings.TrimPrefix(a[1:], "-"), "=")
		f := fs.Lookup(name)
		if f == nil {
			continue
		}
		if r, ok := f.Value.(interface{ Repeatable() bool }); ok && r.Repeatable() {
			continue
		}
		if count[name]++; count[name] == 2 {
			return nil, usageError("--%s: given twice (give it once)", name)
		}
	}
	if err := decimalInts(fs, flags); err != nil {
		return nil, err
	}
	pos = append(pos, fs.Args()...)
	operandsMu.Lock()
	want := operands[fs]
	delete(operands, fs)
	operandsMu.Unlock()
	if len(pos) < min || (max >= 0 && len(pos) > max) {
		// a subcommand names itself, and the arguments it wants are named
		// (issue 26: sweep merge said "want 2 to -1 arguments")
		sub := ""
		if parts := strings.Fields(fs.Name()); len(parts) > 2 {
			sub = strings.Join(parts[2:], " ") + ": "
		}
		if want != "" {
			want = " (" + want + ")"
		}
		extra := "" // the first argument too many, named
		if max >= 0 && len(pos) > max {
			extra = fmt.Sprintf(" (%q is one too many)", pos[max])
		}
		switch {
		case max == 0:
			return nil, usageError("%stakes no arguments, got %q", sub, pos[0])
		case min == max:
			return nil, usageError("%swant %d argument(s)%s, got %d%s", sub, min, want, len(pos), extra)
		case max < 0:
			return nil, usageError("%swant at least %d arguments%s, got %d", sub, min, want, len(pos))
		default:
			return nil, usageError("%swant %d to %d arguments%s, got %d%s", sub, min, max, want, len(pos), extra)
		}
	}
	return pos, nil
}

// flagErrors are the flag package's messages, rewritten to begin with the flag
// as wormlab spells it (--name: ...), like every other error of a command.
var flagErrors = []struct {
	re  *regexp.Regexp
	out string
}{
	{regexp.MustCompile(`^invalid value (".*") for flag -([^:]+): parse error$`), "--$2: $1 is not a valid value"},
	{regexp.MustCompile(`^invalid value (".*") for flag -([^:]+): value out of range$`), "--$2: $1 is out of range"},
	{regexp.MustCompile(`^invalid value (".*") for flag -([^:]+): (.*)$`), "--$2: $3"},
	{regexp.MustCompile(`^invalid boolean value (".*") for -(\S+): .*$`), "--$2: $1 is not true or false"},
	{regexp.MustCompile(`^invalid boolean flag (\S+): .*$`), "--$1: not true or false"},
	{regexp.MustCompile(`^flag needs an argument: -(\S+)$`), "--$1: needs a value"},
	{regexp.MustCompile(`^flag provided but not defined: -(\S+)$`), "--$1: no such flag (wormlab {cmd} -h lists them)"},
}

// flagError rewrites an error of fs.Parse (flagErrors); the command's name fills
// the help hint.
func flagError(fs *flag.FlagSet, err error) string {
	msg := err.Error()
	if m := flagErrors[0].re.FindStringSubmatch(msg); m != nil {
		if f := fs.Lookup(m[2]); f != nil {
			want := map[string]string{"*flag.intValue": "an integer", "*flag.int64Value": "an integer",
				"*flag.uintValue": "an unsigned integer", "*flag.uint64Value": "an unsigned integer",
				"*flag.float64Value": "a number", "*flag.durationValue": "a duration such as 30s or 5m"}[fmt.Sprintf("%T", f.Value)]
			if want != "" {
				return fmt.Sprintf("--%s: %s is not %s", m[2], m[1], want)
			}
		}
	}
	for _, f := range flagErrors {
		if f.re.MatchString(msg) {
			// the flag's name is the user's text: no format verbs (FuzzNetworkArgs
			// found "-%0" printed as "%!:(string=sim)")
			out := f.re.ReplaceAllString(msg, f.out)
			if i := strings.LastIndex(out, "{cmd}"); i >= 0 {
				out = out[:i] + strings.TrimPrefix(fs.Name(), "wormlab ") + out[i+len("{cmd}"):]
			}
			return out
		}
	}
	return msg
}

// readInstance reads and validates an instance file ("-" is standard input); errors
// are bad input.
func readInstance(e *env, path string) (*model.Instance, error) {
	return readFile(e, path, model.ReadInstance)
}

// readFile opens path ("-" is standard input) and reads it with read; errors name
// the file and are bad input.
func readFile[T any](e *env, path string, read func(io.Reader) (T, error)) (T, error) {
	var zero T
	r, closer, err := open(e, path)
	if err != nil {
		return zero, err
	}
	defer closer()
	v, err := read(r)
	if err != nil {
		return zero, fmt.Errorf("%s: %v", path, err)
	}
	return v, nil
}

// readSchedule reads a schedule file ("-" is standard input); errors are bad input.
func readSchedule(e *env, path string) (*model.Schedule, error) {
	return readFile(e, path, model.ReadSchedule)
}

// readPairFilled is readPair with a schedule's omitted makespan computed (MODEL.md
// does not require the field).
func readPairFilled(e *env, instPath, schedPath string) (*model.Instance, *model.Schedule, error) {
	in, s, err := readPair(e, instPath, schedPath)
	if err == nil {
		s.FillMakespan(in)
	}
	return in, s, err
}

// readPair reads an instance and a schedule for it; at most one may be standard input.
func readPair(e *env, instPath, schedPath string) (*model.Instance, *model.Schedule, error) {
	if instPath == "-" && schedPath == "-" {
		return nil, nil, usageError("INSTANCE and SCHEDULE cannot both be standard input (\"-\")")
	}
	in, err := readInstance(e, instPath)
	if err != nil {
		return nil, nil, err
	}
	s, err := readSchedule(e, schedPath)
	if err != nil {
		return nil, nil, err
	}
	return in, s, nil
}

func open(e *env, path string) (io.Reader, func(), error) {
	if path == "-" {
		return e.stdin, func() {}, nil
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	return f, func() { f.Close() }, nil
}

// writeOut renders with write to the file path, or into memory and then to stdout
// when path is empty or "-" (so that a failed rendering writes nothing there), with
// atomicfile.WriteFunc: a regular file is written
// to a temporary name and renamed (through symbolic links), so a failure never
// leaves half a file behind; a device or pipe is written in place; a new file gets
// 0666 less the umask.
func writeOut(e *env, path string, write func(w io.Writer) error) error {
	if path == "" || path == "-" {
		var b bytes.Buffer
		if err := write(&b); err != nil {
			return err
		}
		_, err := e.stdout.Write(b.Bytes())
		return err
	}
	// A file is written as it is rendered (atomicfile.WriteFunc through a buffer):
	// 10^6 paths' schedule is hundreds of MB that need not be held twice.
	return atomicfile.WriteFunc(path, func(w io.Writer) error {
		bw := bufio.NewWriterSize(w, 1<<16)
		if err := write(bw); err != nil {
			return err
		}
		return bw.Flush()
	})
}

// writeJSON writes v as indented JSON (no HTML escaping) followed by a newline.
func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

// writeSchedule writes s as MODEL.md JSON to path (stdout when empty).
func writeSchedule(e *env, path string, s *model.Schedule) error {
	return writeOut(e, path, func(w io.Writer) error { return model.WriteSchedule(w, s) })
}

// writeInstance writes in as MODEL.md JSON to path (stdout when empty).
func writeInstance(e *env, path string, in *model.Instance) error {
	return writeOut(e, path, func(w io.Writer) error { return model.WriteInstance(w, in) })
}

// deprecated prints the one-line notice of an old spelling that still works; the
// spellings are listed in docs/cli.md.
func deprecated(e *env, old, now string) {
	fmt.Fprintf(e.stderr, "wormlab: %s is deprecated; use %s (docs/cli.md)\n", old, now)
}

// checkOutput checks before the work starts that an output file can be written:
// its directory exists and is a directory, and the path is not a directory.
func checkOutput(path string) error {
	if path == "" || path == "-" {
		return nil
	}
	if fi, err := os.Stat(path); err == nil {
		if fi.IsDir() {
			return usageError("cannot write %s: is a directory", path)
		}
		return checkWritable(path)
	}
	dir := filepath.Dir(path)
	fi, err := os.Stat(dir)
	if err != nil {
		return usageError("cannot write %s: directory %s does not exist", path, dir)
	}
	if !fi.IsDir() {
		return usageError("cannot write %s: %s is not a directory", path, dir)
	}
	return checkWritable(path)
}

// checkWritable is atomicfile.Check as a usage error: the file system refuses the
// file the command would write at the end (a read-only directory, /proc).
func checkWritable(path string) error {
	if err := atomicfile.Check(path); err != nil {
		return usageError("%v", err)
	}
	return nil
}

// finiteFloat is a float flag that refuses NaN and the infinities when parsed
// (strconv.ParseFloat reads "NaN" and "Inf": issue 26 found them run as 0).
type finiteFloat float64

func (f *finiteFloat) String() string { return strconv.FormatFloat(float64(*f), 'g', -1, 64) }

func (f *finiteFloat) Set(s string) error {
	v, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
	if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
		return fmt.Errorf("%q is not a finite number", s)
	}
	*f = finiteFloat(v)
	return nil
}

// floatFlag declares a finite float flag.
func floatFlag(fs *flag.FlagSet, name string, def float64, usage string) *float64 {
	v := finiteFloat(def)
	fs.Var(&v, name, usage)
	return (*float64)(&v)
}

// unused refuses the flags in names that were given on the command line: the run
// chosen does not read them (issue 26: such flags were accepted without a word).
// why says which run it is ("with --tables"). A flag the caller passes on purpose
// (e.implied: a sweep's --seed and --json) is not refused.
func unused(e *env, fs *flag.FlagSet, why string, names ...string) error {
	given := setFlags(fs)
	for _, n := range names {
		if given[n] && !e.implied[n] {
			return usageError("--%s: not used %s", n, why)
		}
	}
	return nil
}

// setFlags is the set of flags given on the command line.
func setFlags(fs *flag.FlagSet) map[string]bool {
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	return set
}

// byteSize is a --max-memory value: bytes, or a number with a unit K, M, G, T
// (powers of 1024; "KiB", "GB" and the like are read the same way).
type byteSize int64

func (b *byteSize) String() string { return lower.Bytes(int64(*b)) }

func (b *byteSize) Set(s string) error {
	t := strings.TrimSpace(strings.ToUpper(s))
	t = strings.TrimSuffix(strings.TrimSuffix(strings.TrimSuffix(t, "B"), "I"), "")
	mult := int64(1)
	if n := len(t); n > 0 {
		switch t[n-1] {
		case 'K':
			mult, t = 1<<10, t[:n-1]
		case 'M':
			mult, t = 1<<20, t[:n-1]
		case 'G':
			mult, t = 1<<30, t[:n-1]
		case 'T':
			mult, t = 1<<40, t[:n-1]
		}
	}
	v, err := strconv.ParseFloat(strings.TrimSpace(t), 64)
	if err != nil || !(v > 0) || !(v*float64(mult) <= 1<<62) { // NaN too (FuzzMaxMemory: it was -2^63 bytes)
		return fmt.Errorf("%q: want a positive size like 4G, 512M or 1000000", s)
	}
	*b = byteSize(v * float64(mult))
	return nil
}

// memoryFlag declares --max-memory with the default of package lower and returns a
// function that applies it: it sets the Go runtime's soft memory limit (the
// collector works harder near it; never below 256 MiB, where it would only thrash)
// and returns the value for the bounds to plan with and a function that restores
// the previous limit.
func memoryFlag(fs *flag.FlagSet) func() (int64, func()) {
	return memoryFlagUsage(fs, "memory budget: bounds whose estimate exceeds it are skipped and named (e.g. 4G, 512M)")
}

// memoryFlagUsage is memoryFlag with the command's own account of what the budget
// does (the network half refuses what would not fit; it skips no bounds).
func memoryFlagUsage(fs *flag.FlagSet, usage string) func() (int64, func()) {
	v := byteSize(lower.DefaultMaxMemory)
	fs.Var(&v, "max-memory", usage)
	return func() (int64, func()) {
		if sweeping.Load() > 0 {
			return int64(v), func() {} // a sweep's point: the sweep set the limit
		}
		old := debug.SetMemoryLimit(max(int64(v), 256<<20))
		return int64(v), func() { debug.SetMemoryLimit(old) }
	}
}

// declared runs declare, which declares flags on fs, and returns their names,
// sorted: a group of flags named where it is declared (solve's search
// flags), so that a check of the group cannot miss one.
func declared(fs *flag.FlagSet, declare func()) []string {
	before := map[string]bool{}
	fs.VisitAll(func(f *flag.Flag) { before[f.Name] = true })
	declare()
	var names []string
	fs.VisitAll(func(f *flag.Flag) {
		if !before[f.Name] {
			names = append(names, f.Name)
		}
	})
	return names
}

// decimalInts refuses an integer flag's value not written in decimal: the flag
// package reads a leading 0 as octal, 0x, 0o and 0b as their bases and allows
// underscores, so --flits 010 ran with 8 flits and --horizon 010 wrote horizon 8
// without a word. Each value must read in base 10 as what the flag holds (its
// last value: a flag given twice is refused before).
func decimalInts(fs *flag.FlagSet, flags []string) error {
	for i := 0; i < len(flags); i++ {
		if len(flags[i]) < 2 || flags[i][0] != '-' {
			continue
		}
		name, value, hasValue := strings.Cut(strings.TrimPrefix(flags[i][1:], "-"), "=")
		f := fs.Lookup(name)
		if f == nil {
			continue
		}
		if bf, ok := f.Value.(interface{ IsBoolFlag() bool }); ok && bf.IsBoolFlag() {
			continue
		}
		if !hasValue && i+1 < len(flags) {
			i++
			value = flags[i]
		}
		g, ok := f.Value.(flag.Getter)
		if !ok {
			continue
		}
		var decimal bool
		switch v := g.Get().(type) {
		case int:
			n, err := strconv.ParseInt(value, 10, 64)
			decimal = err == nil && n == int64(v)
		case int64:
			n, err := strconv.ParseInt(value, 10, 64)
			decimal = err == nil && n == v
		case uint:
			n, err := strconv.ParseUint(value, 10, 64)
			decimal = err == nil && n == uint64(v)
		case uint64:
			n, err := strconv.ParseUint(value, 10, 64)
			decimal = err == nil && n == v
		default:
			continue
		}
		if !decimal {
			return usageError("--%s: %q is not a decimal integer", name, value)
		}
	}
	return nil
}
