package sim_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// scripts/booksim-compare.sh threads runs its crossover benchmark from SIMTEST,
// the sim test binary of the tree WORMLAB was built from, and writes its rows
// to crossover.csv through csvrow (the header and a load column, as every
// mode's file); with WORMLAB set and SIMTEST not, it says that the crossover
// was not run instead of building package sim's test binary from the script's
// own tree, other code than WORMLAB's. Run with stand-ins: wormlab prints the
// same JSON on one thread and two, the benchmark two sizes, and a go command on
// PATH that fails, so that building anything fails the script.
func TestCompareScriptCrossover(t *testing.T) {
	if _, err := os.Stat("/usr/bin/time"); err != nil {
		t.Skip("the script times runs with /usr/bin/time")
	}
	dir := t.TempDir()
	stub := func(name, body string) string {
		p := filepath.Join(dir, name)
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(t, os.WriteFile(p, []byte("#!/bin/sh\n"+body), 0o755))
		return p
	}
	wormlab := stub("wormlab", "echo '{\"cycles\": 2000}'\n")
	simtest := stub("sim.test", `cat <<'EOF'
BenchmarkThreads/torus:16x16/threads=1-2         	       1	  30000000 ns/op
BenchmarkThreads/torus:16x16/threads=2-2         	       1	  50000000 ns/op
BenchmarkThreads/torus:64x64/threads=1-2         	       1	 900000000 ns/op
BenchmarkThreads/torus:64x64/threads=2-2         	       1	 450000000 ns/op
EOF
`)
	stub("bin/go", "echo 'go: not to be run' >&2\nexit 1\n")
	run := func(out string, env ...string) string {
		cmd := exec.Command("sh", "../scripts/booksim-compare.sh", "threads")
		cmd.Env = append(os.Environ(), "PATH="+filepath.Join(dir, "bin")+":"+os.Getenv("PATH"),
			"BOOKSIM=/bin/true", "WORMLAB="+wormlab, "OUT="+out, "THREADS_REPS=2", "SIMTEST=")
		cmd.Env = append(cmd.Env, env...)
		b, err := cmd.CombinedOutput()
		require.NoError(t, err, "%s", b)
		return string(b)
	}

	out := filepath.Join(dir, "with")
	text := run(out, "SIMTEST="+simtest)
	require.Contains(t, text, "torus:64x64")
	data, err := os.ReadFile(filepath.Join(out, "crossover.csv"))
	require.NoError(t, err)
	lines := strings.Split(strings.TrimSpace(string(data)), "\n")
	require.Len(t, lines, 5, "a header and a row a size and run:\n%s", data)
	require.Equal(t, "routers,run,ns_1,ns_2,load", lines[0])
	row := regexp.MustCompile(`^\d+,[12],\d+,\d+,[0-9.]+$`)
	for i, want := range []string{"256,1,30000000,50000000,", "4096,1,900000000,450000000,", "256,2,", "4096,2,"} {
		require.True(t, strings.HasPrefix(lines[i+1], want) && row.MatchString(lines[i+1]), "row %d: %q, want %q...", i+1, lines[i+1], want)
	}

	out = filepath.Join(dir, "without")
	text = run(out)
	require.Contains(t, text, "crossover not run: WORMLAB names a build of its own")
	_, err = os.Stat(filepath.Join(out, "crossover.csv"))
	require.ErrorIs(t, err, os.ErrNotExist)
	data, err = os.ReadFile(filepath.Join(out, "threads.csv"))
	require.NoError(t, err, "the threads table is written still")
	// its rows go through csvrow too: the header, one row a size, each with the
	// load at its end
	lines = strings.Split(strings.TrimSpace(string(data)), "\n")
	require.Len(t, lines, 5, "a header and a row a size:\n%s", data)
	require.Equal(t, "routers,cycles,wall_1,cpu_1,wall_2,cpu_2,identical,load", lines[0])
	row = regexp.MustCompile(`^\d+,\d+,[0-9.]+,[0-9.]+,[0-9.]+,[0-9.]+,yes,[0-9.]+$`)
	for i, k := range []string{"256,", "1024,", "4096,", "16384,"} {
		require.True(t, strings.HasPrefix(lines[i+1], k) && row.MatchString(lines[i+1]), "row %d: %q, want %q...", i+1, lines[i+1], k)
	}
}
