package main

import (
	"bytes"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/wormlab/wormlab/model"
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
