package model

import (
	"bytes"
	"testing"

	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"
)

// Lemma (a wrong guess of where a message begins costs time only, at every
// guess): splitPoint guesses from the middle of the text after the list's
// start, so white space after the document, which changes nothing read, moves
// the guess by half its length. Every adversarialText, whose readings agree
// (requireReadersAgree), followed by 1 to twice its length of spaces and read
// with every list on two cores (splitMin 0), gives the messages of the text's
// own reading, or the error of the padded text's reading on one core: the guess lands at every position from the middle
// of the message list to the end of the document, inside ids, names, escapes,
// numbers, white space runs and unknown fields alike.
func TestReadPathsSplitEveryGuess(t *testing.T) {
	twoProcs(t)
	if testing.Short() {
		t.Skip("hundreds of readings a text")
	}
	rapid.Check(t, func(t *rapid.T) {
		text := adversarialText(t)
		requireReadersAgree(t, text)
		want, werr := ReadPaths(bytes.NewReader(text))
		one := splitMin
		defer func() { splitMin = one }()
		for k := 1; k <= 2*len(text); k++ {
			padded := append(bytes.Clone(text), bytes.Repeat([]byte{' '}, k)...)
			padded = padded[:len(padded):len(padded)]
			splitMin = 0
			got, err := ReadPaths(bytes.NewReader(padded))
			if werr != nil {
				splitMin = one
				_, oneErr := ReadPaths(bytes.NewReader(padded))
				require.Error(t, oneErr)
				require.EqualError(t, err, oneErr.Error(), "%d spaces after %q", k, text)
				continue
			}
			require.NoError(t, err, "%d spaces after %q", k, text)
			requireSamePaths(t, want, got)
		}
	})
}
