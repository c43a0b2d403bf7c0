package model

import (
	"fmt"
	"runtime"
	"strings"
	"testing"
	"weak"

	"github.com/stretchr/testify/require"
)

// Lemma (the paths read hold nothing of the text): the Paths readPaths
// returns reach no part of the text it read, so a text read whole (stdin, a
// pipe, a file under mapMin) is garbage once it is read (docs/cli.md: the
// command collects once after reading), also where the text was counted on
// another goroutine (countAhead: two cores, splitMin 0), with and without its
// list read in two halves.
func TestReadPathsKeepNoText(t *testing.T) {
	twoProcs(t)
	defer func(n int) { splitMin = n }(splitMin)
	splitMin = 0
	for _, messages := range []int{1, 300} {
		text := func() string {
			var msgs []string
			for i := range messages {
				msgs = append(msgs, fmt.Sprintf(`{"id": "m%d", "path": ["a", "b", "c"]}`, i))
			}
			return `{"network": {"edges": [["a", "b"], ["b", "c"]]}, "messages": [` + strings.Join(msgs, ", ") + `]}`
		}()
		ps, text0 := readKept(t, text)
		runtime.GC()
		runtime.GC()
		require.Nil(t, text0.Value(), "%d messages: the text is still reachable from the paths read", messages)
		require.Equal(t, messages, ps.Len())
		runtime.KeepAlive(ps)
	}
}

// readKept reads text from a buffer of its own and returns the paths and a
// weak pointer to the buffer.
func readKept(t *testing.T, text string) (*Paths, weak.Pointer[byte]) {
	data := []byte(text)
	w := weak.Make(&data[0])
	ps, err := readPaths(data)
	require.NoError(t, err)
	return ps, w
}
