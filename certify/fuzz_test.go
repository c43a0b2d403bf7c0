package certify_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/wormlab/wormlab/certify"
	"github.com/wormlab/wormlab/internal/fixture"
	"github.com/wormlab/wormlab/model"
	"github.com/wormlab/wormlab/offline/optimal"
	"github.com/wormlab/wormlab/verify"
)

// FuzzManifest checks certificates whose manifest.json comes from the fuzzer, beside
// the instance and schedule of a real certificate of MODEL.md's example: Check never
// panics, and whenever it says VERIFIED the claims hold when checked here apart
// from it: the schedule is legal for the instance, its makespan and model are the
// manifest's, and the makespan is the example's optimum.
func FuzzManifest(f *testing.F) {
	in, _ := fixture.Example(f)
	res, err := optimal.Solve(context.Background(), in, optimal.Options{Model: model.Wormhole})
	require.NoError(f, err)
	seedDir := f.TempDir()
	require.NoError(f, certify.Write(seedDir, in, res))
	files := map[string][]byte{}
	for _, name := range []string{certify.ManifestFile, certify.InstanceFile, certify.ScheduleFile} {
		data, err := os.ReadFile(filepath.Join(seedDir, name))
		require.NoError(f, err)
		files[name] = data
	}
	f.Add(files[certify.ManifestFile])
	f.Add([]byte(`{"format":"wormlab-certificate-1","kind":"bound"}`))
	f.Add([]byte(`{"format":"wormlab-certificate-1","instance":{"file":"../instance.json"}}`))
	f.Fuzz(func(t *testing.T, manifest []byte) {
		dir := t.TempDir()
		for name, data := range files {
			require.NoError(t, os.WriteFile(filepath.Join(dir, name), data, 0o644))
		}
		require.NoError(t, os.WriteFile(filepath.Join(dir, certify.ManifestFile), manifest, 0o644))
		r, err := certify.Check(dir)
		if err != nil || !r.Verified {
			return
		}
		inst, err := model.ParseInstance(files[certify.InstanceFile])
		require.NoError(t, err)
		s, err := model.ParseSchedule(files[certify.ScheduleFile])
		require.NoError(t, err)
		require.NoError(t, verify.Schedule(inst, s))
		require.Equal(t, s.Makespan, r.Makespan)
		require.Equal(t, s.Model, r.Model)
		require.Equal(t, fixture.ExampleOptimum, r.Makespan)
	})
}
