package offline

import (
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"
)

// Lemma (shareOut does every task once): for any number of tasks and of
// workers, shareOut runs each task exactly once and makes at most
// min(workers, n) workers, at least one (this goroutine's), each before its
// first task.
func TestShareOut(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(0, 200).Draw(t, "tasks")
		workers := rapid.IntRange(1, 8).Draw(t, "workers")
		done := make([]atomic.Int32, n)
		var made atomic.Int32
		shareOut(workers, n, func() func(int) {
			made.Add(1)
			return func(task int) { done[task].Add(1) }
		})
		for task := range done {
			require.EqualValues(t, 1, done[task].Load(), "task %d", task)
		}
		require.GreaterOrEqual(t, made.Load(), int32(1))
		require.LessOrEqual(t, made.Load(), int32(max(1, min(workers, n))))
	})
}
