//go:build unix

package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/wormlab/wormlab/model"
)

// interrupt runs a wormlab command line, sends this process SIGINT after delay
// (interruptContext turns it into a cancelled context), and returns the exit
// status, the output and how long the command took after the signal.
func interrupt(t *testing.T, delay time.Duration, args ...string) (int, string, string, time.Duration) {
	t.Helper()
	var out, errb bytes.Buffer
	done := make(chan int, 1)
	go func() { done <- run(args, strings.NewReader(""), &out, &errb, false) }()
	time.Sleep(delay)
	sent := time.Now()
	require.NoError(t, syscall.Kill(os.Getpid(), syscall.SIGINT))
	select {
	case code := <-done:
		return code, out.String(), errb.String(), time.Since(sent)
	case <-time.After(10 * time.Second):
		t.Fatalf("wormlab %s: still running 10 s after SIGINT", strings.Join(args, " "))
		return 0, "", "", 0
	}
}

// Ctrl-C on run --trials stops within a second and prints the trials done.
func TestInterruptRunTrials(t *testing.T) {
	code, out, errs, took := interrupt(t, 300*time.Millisecond, "run", "--trials", "2000000000", "--json", "../../instances/example.json")
	require.Equal(t, 0, code, errs)
	require.Less(t, took, time.Second)
	require.Contains(t, out, `"interrupted": true`)
	require.Contains(t, errs, "interrupted after")
}

// Ctrl-C on adversary stops within a second and writes the best instance so far.
func TestInterruptAdversary(t *testing.T) {
	dir := t.TempDir()
	best := filepath.Join(dir, "best.json")
	code, out, errs, took := interrupt(t, 300*time.Millisecond, "adversary", "--topology", "mesh:3x3", "--messages", "4",
		"--objective", "greedy/bound", "--timeout", "1h", "-o", best)
	require.Equal(t, 0, code, errs)
	require.Less(t, took, time.Second)
	require.Contains(t, errs, "interrupted after")
	require.Contains(t, out, "objective greedy/bound")
	data, err := os.ReadFile(best)
	require.NoError(t, err)
	in, err := model.ParseInstance(data)
	require.NoError(t, err)
	require.NotEmpty(t, in.Messages)
}
