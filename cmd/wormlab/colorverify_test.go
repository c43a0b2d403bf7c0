package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/wormlab/wormlab/instances"
	"github.com/wormlab/wormlab/model"
	"github.com/wormlab/wormlab/offline"
	"github.com/wormlab/wormlab/verify"
)

// gcPercent returns the collector's target (debug.SetGCPercent's).
func gcPercent() int {
	p := debug.SetGCPercent(100)
	debug.SetGCPercent(p)
	return p
}

// `wormlab color` writes its schedule from the start delays as they go out
// (offline.Options.StartsOnly, model.WriteBufferless), never building it: the
// file it writes must be a legal bufferless schedule (package verify) with the
// makespan it states, and the crossing times of the schedule offline.Color
// builds without StartsOnly, for every order, with and without --improve; and
// the command leaves the collector's target as it found it.
func TestColorWritesVerifiedSchedule(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		spec  instances.Spec
		order string
	}{
		{instances.Spec{Kind: "tree", Size: 40, Messages: 120, Flits: 2, Seed: 1}, "tree"},
		{instances.Spec{Kind: "mesh", Sides: []int{6, 6}, Messages: 120, Flits: 3, Seed: 2}, "mesh"},
		{instances.Spec{Kind: "torus", Sides: []int{5, 5}, Messages: 80, Flits: 2, Seed: 3}, "any"},
		{instances.Spec{Kind: "mesh", Sides: []int{5, 5}, Messages: 60, Flits: 1, Seed: 4}, "auto"},
	} {
		for _, improve := range []bool{false, true} {
			name := fmt.Sprintf("%s-%s-improve=%v", tc.spec.Kind, tc.order, improve)
			t.Run(name, func(t *testing.T) {
				in, err := instances.Generate(tc.spec)
				require.NoError(t, err)
				file, out := filepath.Join(dir, name+".json"), filepath.Join(dir, name+".out.json")
				var b bytes.Buffer
				require.NoError(t, model.WriteInstance(&b, in))
				require.NoError(t, os.WriteFile(file, b.Bytes(), 0o644))
				args := []string{"color", "--order", tc.order, file, "-o", out}
				if improve {
					args = append(args, "--improve")
				}
				var stdout, stderr bytes.Buffer
				gc := gcPercent()
				code := run(args, strings.NewReader(""), &stdout, &stderr, false)
				require.Equal(t, 0, code, stderr.String())
				require.Equal(t, gc, gcPercent(), "color left its collector target behind")
				data, err := os.ReadFile(out)
				require.NoError(t, err)
				s, err := model.ParseSchedule(data)
				require.NoError(t, err)
				require.Equal(t, model.Bufferless, s.Model)
				require.NoError(t, verify.Schedule(in, s))
				want, err := offline.Color(in, offline.Options{Order: tc.order, Improve: improve})
				require.NoError(t, err)
				require.Equal(t, want.Schedule.Makespan, s.Makespan)
				require.Len(t, s.Messages, len(want.Schedule.Messages))
				for i := range s.Messages {
					require.Equal(t, want.Schedule.Messages[i].ID, s.Messages[i].ID)
					require.Equal(t, *want.Schedule.Messages[i].Start, *s.Messages[i].Start, s.Messages[i].ID)
					require.Equal(t, want.Schedule.Messages[i].Cross, s.Messages[i].Cross, s.Messages[i].ID)
				}
			})
		}
	}
}
