package plural

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// One is singular; every other count, 0 and negatives included, is plural,
// with "es" after a final s.
func TestCount(t *testing.T) {
	for _, c := range []struct {
		n    int
		what string
		want string
	}{
		{1, "message", "1 message"},
		{0, "message", "0 messages"},
		{2, "edge", "2 edges"},
		{-1, "hop", "-1 hops"},
		{1, "class", "1 class"},
		{3, "class", "3 classes"},
		{2, "pairwise aligned-conflicting message", "2 pairwise aligned-conflicting messages"},
	} {
		require.Equal(t, c.want, Count(c.n, c.what))
	}
}
