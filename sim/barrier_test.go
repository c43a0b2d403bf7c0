package sim

import (
	"runtime"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/require"
)

// The barrier runs every section on every partition exactly once, each after
// the section before it is done on all of them (the workers see the first's
// writes before a section, the first sees theirs after it): rounds of sections
// that each add a partition's number to its own total and check the totals of
// the round before, with as many workers as cores and more (no spinning then).
func TestBarrierSections(t *testing.T) {
	for _, workers := range []int{1, 2, 5} {
		parts := make([]*part, workers+1)
		for i := range parts {
			parts[i] = &part{id: i}
		}
		b := newBarrier(workers)
		require.Equal(t, workers+1 <= runtime.GOMAXPROCS(0), b.done.spin, "%d workers: spin", workers)
		for i := range workers {
			go b.serve(i, parts[i+1])
		}
		sums := make([]int64, workers+1)
		var bad atomic.Int64
		const rounds = 3000
		for r := int64(1); r <= rounds; r++ {
			b.section(func(p *part) {
				if sums[p.id] != (r-1)*int64(p.id) {
					bad.Add(1)
				}
				sums[p.id] += int64(p.id)
			}, parts)
			for i, s := range sums {
				require.Equal(t, r*int64(i), s, "round %d, partition %d", r, i)
			}
		}
		b.stop()
		require.Zero(t, bad.Load(), "%d workers: a section saw a partition's total of another round", workers)
		spins, wins := b.spinCounts()
		require.LessOrEqual(t, wins, spins)
		if !b.done.spin {
			require.Zero(t, spins, "%d workers on %d cores spun", workers, runtime.GOMAXPROCS(0))
		}
	}
}

// A waiter whose spins keep failing (the count it waits for is not reached
// within spinFor: its partner is not running) sleeps at once for its next
// waits, a run that doubles while they keep failing, up to maxSkip, and a spin
// that sees its count forgets the failures.
func TestSignalSpinBackoff(t *testing.T) {
	s := newSignal(true)
	for range spinFails - 1 {
		require.False(t, s.spinUntil(1))
		require.Zero(t, s.skip)
	}
	require.False(t, s.spinUntil(1))
	require.Equal(t, spinFails, s.skip)
	require.Equal(t, 2*spinFails, s.nextSkip)
	for range 20 * spinFails {
		s.spinUntil(1)
	}
	require.Equal(t, maxSkip, s.nextSkip)
	s.add()
	require.True(t, s.spinUntil(1))
	require.Equal(t, spinFails, s.nextSkip)
	require.Zero(t, s.fails)
	require.EqualValues(t, 1, s.spinWins)
	require.EqualValues(t, 21*spinFails+1, s.spins)
}
