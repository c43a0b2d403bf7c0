package testctx

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// A test's context ends no later than PerTest from now and no later than the
// suite's end, and is cancelled when the test ends.
func TestFor(t *testing.T) {
	var ctx interface {
		Deadline() (time.Time, bool)
		Err() error
	}
	t.Run("inner", func(t *testing.T) {
		c := For(t)
		ctx = c
		end, ok := c.Deadline()
		require.True(t, ok)
		require.False(t, end.After(time.Now().Add(PerTest)))
		require.False(t, end.After(suiteEnd))
		require.NoError(t, c.Err())
	})
	require.Error(t, ctx.Err(), "cancelled when its test ended")
}
