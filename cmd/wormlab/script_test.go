package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

var update = flag.Bool("update", false, "rewrite the expected output of testdata/script/*.txt")

// TestScripts runs every testdata/script/*.txt case: the command line in the "cmd"
// section (with $ROOT the repository root and $TMP a fresh directory), the files of
// "file NAME" sections written into $TMP first and "stdin" fed to the command, then
// compares exit status, stdout and stderr. go test ./cmd/wormlab -update rewrites
// the expected sections from what the command does now.
func TestScripts(t *testing.T) {
	files, err := filepath.Glob("testdata/script/*.txt")
	require.NoError(t, err)
	require.NotEmpty(t, files)
	root, err := filepath.Abs("../..")
	require.NoError(t, err)
	for _, file := range files {
		t.Run(strings.TrimSuffix(filepath.Base(file), ".txt"), func(t *testing.T) {
			data, err := os.ReadFile(file)
			require.NoError(t, err)
			sc := parseScript(t, string(data))
			tmp := t.TempDir()
			expand := func(s string) string {
				return strings.NewReplacer("$ROOT", root, "$TMP", tmp).Replace(s)
			}
			for _, s := range sc {
				if name, ok := strings.CutPrefix(s.name, "file "); ok {
					require.NoError(t, os.WriteFile(filepath.Join(tmp, name), []byte(expand(s.body)), 0o644))
				}
			}
			args := strings.Fields(expand(sc.get("cmd")))
			require.NotEmpty(t, args, "no cmd section")
			var stdout, stderr bytes.Buffer
			code := run(args, strings.NewReader(sc.get("stdin")), &stdout, &stderr, false)
			unexpand := func(s string) string {
				return strings.NewReplacer(tmp, "$TMP", root, "$ROOT").Replace(s)
			}
			got := map[string]string{
				"status": fmt.Sprintf("%d\n", code),
				"stdout": unexpand(stdout.String()),
				"stderr": unexpand(stderr.String()),
			}
			for _, s := range sc {
				if name, ok := strings.CutPrefix(s.name, "out "); ok {
					b, err := os.ReadFile(filepath.Join(tmp, name))
					if err != nil {
						got[s.name] = "MISSING\n"
					} else {
						got[s.name] = unexpand(string(b))
					}
				}
			}
			if *update {
				for i := range sc {
					if g, ok := got[sc[i].name]; ok {
						sc[i].body = g
					}
				}
				for _, k := range []string{"status", "stdout", "stderr"} {
					if sc.index(k) < 0 && got[k] != "" {
						sc = append(sc, section{k, got[k]})
					}
				}
				require.NoError(t, os.WriteFile(file, []byte(sc.String()), 0o644))
				return
			}
			for _, k := range []string{"status", "stdout", "stderr"} {
				require.Equal(t, sc.get(k), got[k], "%s of: wormlab %s", k, strings.Join(args, " "))
			}
			for _, s := range sc {
				if strings.HasPrefix(s.name, "out ") {
					require.Equal(t, s.body, got[s.name], "file %s", s.name)
				}
			}
		})
	}
}

type section struct{ name, body string }

type script []section

func (s script) index(name string) int {
	for i := range s {
		if s[i].name == name {
			return i
		}
	}
	return -1
}

func (s script) get(name string) string {
	if i := s.index(name); i >= 0 {
		return s[i].body
	}
	return ""
}

func (s script) String() string {
	var b strings.Builder
	for _, sec := range s {
		fmt.Fprintf(&b, "-- %s --\n%s", sec.name, sec.body)
	}
	return b.String()
}

// parseScript reads sections "-- name --" each followed by its body.
func parseScript(t *testing.T, text string) script {
	var sc script
	for _, line := range strings.SplitAfter(text, "\n") {
		trim := strings.TrimRight(line, "\n")
		if strings.HasPrefix(trim, "-- ") && strings.HasSuffix(trim, " --") && len(trim) > 6 {
			sc = append(sc, section{name: trim[3 : len(trim)-3]})
			continue
		}
		if len(sc) == 0 {
			if strings.TrimSpace(line) != "" {
				t.Fatalf("text before the first section: %q", line)
			}
			continue
		}
		sc[len(sc)-1].body += line
	}
	return sc
}
