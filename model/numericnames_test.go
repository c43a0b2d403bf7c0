package model

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"
)

// refNumericNames is numericNames a byte at a time: `"`, 1 to 7 bytes '0'-'9'
// with no leading zero naming a node below n, `"`, then ',' and the next name,
// or ']'; nothing else, and not where a name's word would run past the data.
func refNumericNames(data []byte, i, n int) (end int, nodes []int32, ok bool) {
	for {
		if i+10 > len(data) || data[i] != '"' {
			return 0, nil, false
		}
		j := i + 1
		for j < len(data) && j-i-1 < 8 && data[j] != '"' {
			j++
		}
		name := data[i+1 : j]
		if j == len(data) || data[j] != '"' || len(name) == 0 || len(name) > 7 || (name[0] == '0' && len(name) > 1) {
			return 0, nil, false
		}
		v := 0
		for _, c := range name {
			if c < '0' || c > '9' {
				return 0, nil, false
			}
			v = v*10 + int(c-'0')
		}
		if v >= n {
			return 0, nil, false
		}
		nodes = append(nodes, int32(v))
		switch i = j + 1; data[i] {
		case ',':
			i++
		case ']':
			return i + 1, nodes, true
		default:
			return 0, nil, false
		}
	}
}

// Lemma (numericNames reads what it takes by the word as a byte at a time): on
// lists of names of 0 to 9 bytes, digits or digits with one byte changed (the
// bytes beside '0' and '9', the quote, a backslash, a space, a high byte),
// leading zeros, values around the number of nodes, separators with and
// without spaces, cut anywhere, numericNames and refNumericNames give the same
// answer, the same end and the same nodes.
func TestNumericNamesByteAtATime(t *testing.T) {
	read, declined := 0, 0
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(1, 20_000_000).Draw(t, "nodes")
		var b strings.Builder
		b.WriteString("[")
		for k := range rapid.IntRange(1, 6).Draw(t, "names") {
			if k > 0 {
				b.WriteString(rapid.SampledFrom([]string{",", ",", ",", ", ", " ,", ";"}).Draw(t, "sep"))
			}
			v := rapid.OneOf(rapid.IntRange(0, 9), rapid.IntRange(0, n+1), rapid.IntRange(0, 999_999_999)).Draw(t, "value")
			name := []byte(fmt.Sprint(v))
			switch rapid.IntRange(0, 5).Draw(t, "odd") {
			case 0:
				name = append([]byte("0"), name...)
			case 1:
				name[rapid.IntRange(0, len(name)-1).Draw(t, "at")] = rapid.SampledFrom([]byte{'/', ':', '?', '@', 'p', '"', '\\', ' ', 0x80, 0xB0, 0x00, 0x1F}).Draw(t, "byte")
			case 2:
				name = name[:0]
			}
			b.WriteString(`"` + string(name) + `"`)
		}
		b.WriteString(rapid.SampledFrom([]string{"]", "]", " ]", "]}", ""}).Draw(t, "close"))
		b.WriteString(rapid.SampledFrom([]string{"", "}, {\"id\": \"m\"}", strings.Repeat(" ", 8)}).Draw(t, "after"))
		data := []byte(b.String())
		data = data[:rapid.IntRange(len(data)/2, len(data)).Draw(t, "cut")]
		wantEnd, want, wantOK := refNumericNames(data, 1, n)
		end, got, ok := numericNames(data, 1, nil, n)
		require.Equal(t, wantOK, ok, "%q", data)
		if ok {
			read++
			require.Equal(t, wantEnd, end, "%q", data)
			require.Equal(t, want, got, "%q", data)
		} else {
			declined++
		}
	})
	require.Positive(t, read)
	require.Positive(t, declined)
}
