package main

// The doc test: every wormlab command shown in README.md and docs/*.md parses and
// runs, so that a renamed flag or a changed default breaks the build, not the docs.
//
// A command is a line of a fenced code block or of an indented (4 spaces) block
// whose first word is wormlab and whose second is a command (continuation lines
// ending in \ joined, a trailing # comment and a leading "$ " dropped). Two kinds:
//
//   - A synopsis (a token holding [, ], |, ... or a placeholder in capitals, such
//     as FILE or RESULTS, or a shell redirection, pipe or glob): every --flag it
//     names must be one that the command's -h lists.
//   - A runnable command: run in this process from a scratch folder that links
//     the repository's instances, experiments and docs, the commands of one page
//     in order (a later one may read what an earlier one wrote), each within
//     docBudget. Exit status 0 or 1 (a negative answer) passes; 2 (bad usage or
//     input) fails unless the line's comment says "exit 2".
//
// Long runs are shrunk first, the same way for every page (shrink): sim runs at
// most 2000 cycles (--min-cycles 1000 --max-cycles 2000) and its saturation search
// at a tolerance of 0.1; grids larger than 8 are cut to 4 per dimension (torus:16x16
// becomes torus:4x4); fattree runs 1 run on at most 64 processors; timeouts (solve,
// adversary, lower, fattree --optimal) become 2s (solve --dimacs and --assignment
// take none); run's --trials becomes 2; a
// sweep lists its points (sweep points SPEC) instead of running them, and --submit
// is dropped. What is shrunk is the size, never a flag's spelling. Lines of
// `go run ./experiments/NAME` need the folder to exist; `sh scripts/NAME` the
// script.

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// docBudget is the wall time a shrunk command may take: a guard against a command
// that never ends, not a measure of speed. The slowest line (README's dragonfly
// sim) takes 4 CPU-s; at load 30 on two cores it passed 30 s once.
const docBudget = 120 * time.Second

type docLine struct {
	file string
	line int
	text string // joined, comment kept
}

// docCommands reads the code lines of a Markdown page.
func docCommands(t *testing.T, path string) []docLine {
	t.Helper()
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	var out []docLine
	fenced := false
	prevBlank := true
	indented := false
	lines := strings.Split(string(data), "\n")
	for i := 0; i < len(lines); i++ {
		l := lines[i]
		if strings.HasPrefix(strings.TrimSpace(l), "```") {
			fenced = !fenced
			continue
		}
		code := fenced
		if !fenced {
			if strings.HasPrefix(l, "    ") && (prevBlank || indented) {
				indented = true
				code = true
			} else if strings.TrimSpace(l) != "" {
				indented = false
			}
		}
		prevBlank = strings.TrimSpace(l) == ""
		if !code {
			continue
		}
		start := i
		text := strings.TrimSpace(l)
		for strings.HasSuffix(text, "\\") && i+1 < len(lines) {
			i++
			text = strings.TrimSuffix(text, "\\") + " " + strings.TrimSpace(lines[i])
		}
		text = strings.TrimPrefix(text, "$ ")
		out = append(out, docLine{path, start + 1, text})
	}
	return out
}

var (
	placeholder = regexp.MustCompile(`^[A-Z][A-Z0-9_]+(=[A-Z]+)?(\.[a-z]+)?$`)
	flagRe      = regexp.MustCompile(`^\s+-([a-zA-Z0-9][a-zA-Z0-9-]*)`)
)

// split cuts a command at spaces, keeping quoted words whole.
func split(s string) []string {
	var out []string
	var cur strings.Builder
	quote := byte(0)
	has := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case quote != 0 && c == quote:
			quote = 0
		case quote != 0:
			cur.WriteByte(c)
		case c == '"' || c == '\'':
			quote, has = c, true
		case c == ' ' || c == '\t':
			if cur.Len() > 0 || has {
				out = append(out, cur.String())
				cur.Reset()
				has = false
			}
		default:
			cur.WriteByte(c)
		}
	}
	if cur.Len() > 0 || has {
		out = append(out, cur.String())
	}
	return out
}

// comment cuts a trailing " # ..." (a # inside a word, such as a URL's, stays).
func comment(s string) (string, string) {
	if i := strings.Index(s, " #"); i >= 0 {
		return strings.TrimSpace(s[:i]), s[i+2:]
	}
	return s, ""
}

// commandPath is the command (and subcommand) a wormlab line names, and where its
// arguments start; ok false when the second word is not a command.
func commandPath(words []string) ([]string, int, bool) {
	if len(words) < 2 {
		return nil, 0, false
	}
	c, ok := commands[words[1]]
	if !ok {
		return nil, 0, false
	}
	path := []string{c.name}
	subs := map[string][]string{"lower": {"prime", "bounds", "butterfly"}, "sweep": {"merge", "csv", "points"}}
	if len(words) > 2 && slices.Contains(subs[c.name], words[2]) {
		path = append(path, words[2])
	}
	return path, 1 + len(path), true
}

// flagsOf lists the flags a command's -h shows.
func flagsOf(path []string) map[string]bool {
	var out, errb bytes.Buffer
	run(append(slices.Clone(path), "-h"), strings.NewReader(""), &out, &errb, false)
	flags := map[string]bool{"h": true, "help": true}
	sc := bufio.NewScanner(strings.NewReader(out.String() + errb.String()))
	for sc.Scan() {
		if m := flagRe.FindStringSubmatch(sc.Text()); m != nil {
			flags[m[1]] = true
		}
	}
	return flags
}

// synopsis reports a line that shows a command's form rather than a command.
func synopsis(words []string) bool {
	for _, w := range words {
		if strings.ContainsAny(w, "[]|*<>") || strings.Contains(w, "...") || w == ">" {
			return true
		}
		for _, part := range strings.Split(strings.TrimLeft(w, "-"), "=") {
			if placeholder.MatchString(part) {
				return true
			}
		}
	}
	return false
}

// flagName is the flag a word sets ("" when the word is not a flag); a synopsis's
// brackets and bars around it are dropped.
func flagName(w string) string {
	w = strings.Trim(w, "[]()|,")
	if !strings.HasPrefix(w, "-") || w == "-" || len(w) < 2 || (w[1] >= '0' && w[1] <= '9') {
		return ""
	}
	n := strings.TrimLeft(w, "-")
	n, _, _ = strings.Cut(n, "=")
	return n
}

var bigGrid = regexp.MustCompile(`^(torus|mesh):([0-9x]+)(.*)$`)

// shrink rewrites a runnable command's sizes (the package comment says how).
func shrink(path []string, args []string) []string {
	set := func(args []string, name, value string) []string {
		for i := 0; i < len(args); i++ {
			if flagName(args[i]) == name {
				if strings.Contains(args[i], "=") {
					args[i] = "--" + name + "=" + value
				} else if i+1 < len(args) {
					args[i+1] = value
				}
				return args
			}
		}
		return append(args, "--"+name, value)
	}
	has := func(name string) bool {
		for _, a := range args {
			if flagName(a) == name {
				return true
			}
		}
		return false
	}
	for i, a := range args {
		if m := bigGrid.FindStringSubmatch(a); m != nil {
			var sides []string
			for _, s := range strings.Split(m[2], "x") {
				if len(s) > 1 || s > "8" {
					s = "4"
				}
				sides = append(sides, s)
			}
			args[i] = m[1] + ":" + strings.Join(sides, "x") + m[3]
		}
	}
	switch path[0] {
	case "sim":
		if !has("batch") {
			args = set(args, "min-cycles", "1000")
			args = set(args, "max-cycles", "2000")
		}
		if has("saturation") {
			args = set(args, "saturation-tol", "0.1")
		}
	case "fattree":
		args = set(args, "runs", "1")
		for i := 0; i+1 < len(args); i++ {
			if flagName(args[i]) == "n" && len(args[i+1]) > 2 {
				args[i+1] = "64"
			}
		}
		if has("optimal") {
			args = set(args, "optimal", "2s")
		}
	case "solve", "adversary":
		if !has("dimacs") && !has("assignment") { // solve refuses --timeout where it does not search
			args = set(args, "timeout", "2s")
		}
	case "lower":
		if has("timeout") {
			args = set(args, "timeout", "2s")
		}
	case "run":
		if has("trials") {
			args = set(args, "trials", "2")
		}
	}
	return args
}

func TestDocCommands(t *testing.T) {
	if testing.Short() {
		t.Skip("runs every command of the docs (about a minute)")
	}
	root, err := filepath.Abs("../..")
	require.NoError(t, err)
	pages, err := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	require.NoError(t, err)
	pages = append([]string{filepath.Join(root, "README.md")}, pages...)
	flagCache := map[string]map[string]bool{}
	ran, checked := 0, 0
	for _, page := range pages {
		scratch := t.TempDir()
		for _, d := range []string{"instances", "experiments", "docs", "scripts", "lower", "offline", "cmd"} {
			require.NoError(t, os.Symlink(filepath.Join(root, d), filepath.Join(scratch, d)))
		}
		for _, dl := range docCommands(t, page) {
			where := fmt.Sprintf("%s:%d", filepath.Base(dl.file), dl.line)
			whole, note := comment(dl.text)
			for _, text := range strings.FieldsFunc(whole, func(r rune) bool { return r == ';' }) {
				for _, text := range strings.Split(text, "&&") {
					text = strings.TrimSpace(text)
					words := split(text)
					if len(words) == 0 {
						continue
					}
					switch {
					case len(words) >= 3 && words[0] == "go" && words[1] == "run" && strings.HasPrefix(words[2], "./"):
						_, err := os.Stat(filepath.Join(root, words[2]))
						require.NoError(t, err, "%s: %s", where, text)
						checked++
						continue
					case len(words) >= 2 && words[0] == "sh" && strings.HasPrefix(words[1], "scripts/"):
						_, err := os.Stat(filepath.Join(root, words[1]))
						require.NoError(t, err, "%s: %s", where, text)
						checked++
						continue
					case words[0] != "wormlab":
						continue
					}
					path, argAt, ok := commandPath(words)
					if !ok {
						continue
					}
					key := strings.Join(path, " ")
					if flagCache[key] == nil {
						flagCache[key] = flagsOf(path)
					}
					for _, w := range words[argAt:] {
						if n := flagName(w); n != "" {
							require.True(t, flagCache[key][n], "%s: wormlab %s has no flag --%s (%s)", where, key, n, text)
						}
					}
					checked++
					if synopsis(words) {
						continue
					}
					args := shrink(path, slices.Clone(words[argAt:]))
					if path[0] == "sweep" && len(path) == 1 {
						// list the points instead of running them
						var spec []string
						for i := 0; i < len(args); i++ {
							if n := flagName(args[i]); n != "" {
								if n == "o" || n == "workers" || n == "tasks" || n == "cpus" || n == "time" || n == "partition" || n == "shard" {
									i++
								}
								continue
							}
							spec = append(spec, args[i])
						}
						path, args = []string{"sweep", "points"}, spec
					}
					full := append(slices.Clone(path), args...)
					t.Chdir(scratch)
					done := make(chan int, 1)
					var stdout, stderr bytes.Buffer
					go func() { done <- run(full, strings.NewReader(""), &stdout, &stderr, false) }()
					select {
					case code := <-done:
						switch {
						case code == 2 && strings.Contains(stderr.String(), "no such file or directory"):
							// the user's own file (a configuration, a network, a
							// spec): its flags were checked, it cannot run here
							t.Logf("%s: not run, its input is not shipped: %s", where, lastLine(stderr.String()))
						case code == 2 && !strings.Contains(note, "exit 2"):
							t.Errorf("%s: wormlab %s: exit 2: %s", where, strings.Join(full, " "), lastLine(stderr.String()))
						case code > 2:
							t.Errorf("%s: wormlab %s: exit %d: %s", where, strings.Join(full, " "), code, lastLine(stderr.String()))
						}
					case <-time.After(docBudget):
						t.Fatalf("%s: wormlab %s: still running after %v", where, strings.Join(full, " "), docBudget)
					}
					ran++
				}
			}
		}
	}
	t.Logf("%d command lines checked, %d run", checked, ran)
	require.Greater(t, ran, 40)
}
