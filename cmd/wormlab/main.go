package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"sort"
	"strings"
)

// env is what a subcommand may touch: its arguments and the standard streams.
type env struct {
	args   []string
	stdin  io.Reader
	stdout io.Writer
	stderr io.Writer
	// stderrTTY is true when stderr is a terminal (progress lines go there only then).
	stderrTTY bool
	// implied are flags the caller passes whether or not the run reads them (a
	// sweep gives every point --seed and --json): unused does not refuse them.
	implied map[string]bool
	// ctx, when set, is the caller's context (a sweep's point): the command stops
	// when it ends instead of listening to the signals itself.
	ctx context.Context
}

type command struct {
	name    string
	summary string
	run     func(e *env) error
}

var commands = map[string]*command{}

func register(c *command) {
	if _, dup := commands[c.name]; dup {
		panic("wormlab: command registered twice: " + c.name)
	}
	commands[c.name] = c
}

// exitError carries an exit status; errors without one are bad input (status 2).
type exitError struct {
	code int
	err  error
}

func (e *exitError) Error() string { return e.err.Error() }
func (e *exitError) Unwrap() error { return e.err }

// negative reports a negative answer (exit status 1): an illegal schedule, a failed
// claim. The message is printed as given.
func negative(format string, a ...any) error {
	return &exitError{1, fmt.Errorf(format, a...)}
}

// silentNegative is exit status 1 with nothing more printed. Prefer negative: every
// negative answer also prints one line on stderr (the README promises it); wormlab's
// own commands no longer use it.
var silentNegative = &exitError{1, errors.New("")}

// usageError reports bad usage (exit status 2).
func usageError(format string, a ...any) error {
	return &exitError{2, fmt.Errorf(format, a...)}
}

func main() {
	fi, err := os.Stderr.Stat()
	tty := err == nil && fi.Mode()&os.ModeCharDevice != 0
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr, tty))
}

// run executes one wormlab invocation and returns its exit status.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer, tty bool) int {
	return runEnv(args, &env{stdin: stdin, stdout: stdout, stderr: stderr, stderrTTY: tty})
}

// runEnv is run with the streams, the terminal flag and the implied flags of base.
func runEnv(args []string, base *env) int {
	stdin, stdout, stderr, tty := base.stdin, base.stdout, base.stderr, base.stderrTTY
	if len(args) == 0 {
		// Bad usage: the list of commands goes to stderr, stdout stays empty.
		usage(stderr)
		return 2
	}
	if args[0] == "--version" || args[0] == "-version" || args[0] == "version" {
		fmt.Fprintln(stdout, version())
		return 0
	}
	if args[0] == "-h" || args[0] == "--help" || args[0] == "help" {
		if len(args) > 1 {
			c, ok := commands[args[1]]
			if !ok {
				fmt.Fprintf(stderr, "wormlab help: unknown command %q (run 'wormlab help')\n", args[1])
				return 2
			}
			return run([]string{c.name, "-h"}, stdin, stdout, stderr, tty)
		}
		usage(stdout)
		return 0
	}
	c, ok := commands[args[0]]
	if !ok {
		fmt.Fprintf(stderr, "wormlab: unknown command %q (run 'wormlab help')\n", args[0])
		return 2
	}
	err := c.run(&env{args: args[1:], stdin: stdin, stdout: stdout, stderr: stderr, stderrTTY: tty, implied: base.implied, ctx: base.ctx})
	if err == nil {
		return 0
	}
	if errors.Is(err, flag.ErrHelp) {
		return 0
	}
	code := 2
	var ee *exitError
	if errors.As(err, &ee) {
		code = ee.code
	}
	if msg := err.Error(); msg != "" {
		fmt.Fprintf(stderr, "wormlab %s: %s\n", c.name, oneLine(msg))
	}
	return code
}

// version is "wormlab VERSION" from the build information: the module version for
// go install of a release, else "(devel)" with the VCS revision and time when the
// build recorded them.
func version() string {
	v := "(devel)"
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return "wormlab " + v
	}
	if bi.Main.Version != "" {
		v = bi.Main.Version
	}
	var rev, at, dirty string
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.time":
			at = s.Value
		case "vcs.modified":
			if s.Value == "true" {
				dirty = ", modified"
			}
		}
	}
	if rev != "" {
		v += fmt.Sprintf(" (%.12s %s%s)", rev, at, dirty)
	}
	return "wormlab " + v + " " + bi.GoVersion
}

func oneLine(s string) string { return strings.ReplaceAll(strings.TrimSpace(s), "\n", "; ") }

func usage(w io.Writer) {
	fmt.Fprintln(w, "usage: wormlab COMMAND [flags] [args]")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "commands:")
	names := make([]string, 0, len(commands))
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(w, "  %-18s %s\n", n, commands[n].summary)
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Run 'wormlab COMMAND -h' for a command's flags, 'wormlab --version' for the version.")
	fmt.Fprintln(w, "Flag spellings and their deprecated forms: docs/cli.md. Exit status: 0 yes, 1 a negative")
	fmt.Fprintln(w, "answer (an illegal schedule, a failed claim), 2 bad usage or bad input.")
}
