package model

import (
	"bytes"
	"testing"

	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"
)

// Lemma (counts made ahead are the counts): for any text and any stride, the
// counts textCounts makes on another goroutine, of the whole text and of each
// of its suffixes (pathsSink.fork's), are countBytes of the same bytes; a
// slice that is not a suffix in place (a copy, or ending before the text's
// end) is refused.
func TestTextCountsAreCounts(t *testing.T) {
	twoProcs(t)
	defer func(n, c int) { splitMin, countChunk = n, c }(splitMin, countChunk)
	rapid.Check(t, func(t *rapid.T) {
		text := []byte(rapid.StringOf(rapid.SampledFrom([]rune(`{},["a `))).Draw(t, "text"))
		splitMin, countChunk = 0, rapid.IntRange(1, 9).Draw(t, "chunk")
		tc := countAhead(text)
		require.NotNil(t, tc)
		require.True(t, tc.wait())
		require.Equal(t, countBytes(text), tc.all())
		for off := range text {
			c, ok := tc.suffix(text[off:])
			require.True(t, ok, "suffix from %d", off)
			require.Equal(t, countBytes(text[off:]), c, "suffix from %d", off)
		}
		if len(text) > 1 {
			_, ok := tc.suffix(bytes.Clone(text[1:]))
			require.False(t, ok, "a copy taken for a suffix")
			_, ok = tc.suffix(text[:len(text)-1])
			require.False(t, ok, "a prefix taken for a suffix")
		}
	})
}
