package drat

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The binary encoding of the DRAT format: 2*|l| + (l < 0) in 7-bit groups, least
// significant first. 63 -> 126 = 0x7e; -63 -> 127 = 0x7f; 64 -> 128 = 0x80 0x01;
// -8193 -> 16387 = 0x83 0x80 0x01.
func TestBinaryEncoding(t *testing.T) {
	p := &Proof{}
	p.Add(false, 63, -63, 64)
	p.Add(true, -8193)
	var b bytes.Buffer
	require.NoError(t, p.WriteBinary(&b))
	want := []byte{'a', 0x7e, 0x7f, 0x80, 0x01, 0, 'd', 0x83, 0x80, 0x01, 0}
	require.Equal(t, want, b.Bytes())
	q, err := ParseProof(want, Auto)
	require.NoError(t, err)
	assert.Equal(t, Binary, q.Format)
	assert.Equal(t, Step{Clause: []int{63, -63, 64}, Pos: 0}, q.Step(0))
	assert.Equal(t, Step{Delete: true, Clause: []int{-8193}, Pos: 6}, q.Step(1))
}

func TestTextProof(t *testing.T) {
	src := "c a comment\n1 -2 0\nd 1 -2 0\n\n3\n 4 0\n0\n"
	p, err := ParseProof([]byte(src), Auto)
	require.NoError(t, err)
	assert.Equal(t, Text, p.Format)
	require.Equal(t, 4, p.Len())
	assert.Equal(t, Step{Clause: []int{1, -2}, Pos: 2}, p.Step(0))
	assert.Equal(t, Step{Delete: true, Clause: []int{1, -2}, Pos: 3}, p.Step(1))
	assert.Equal(t, Step{Clause: []int{3, 4}, Pos: 5}, p.Step(2))
	assert.Equal(t, Step{Clause: []int{}, Pos: 7}, p.Step(3))
	// A text proof that starts with a deletion is still text.
	p, err = ParseProof([]byte("d 5 0\n"), Auto)
	require.NoError(t, err)
	assert.Equal(t, Text, p.Format)
}

func TestMalformedProof(t *testing.T) {
	for _, c := range []struct{ src, err string }{
		{"1 x 0\n", `line 1: unexpected "x"`},
		{"1 2\n3 0\n4 5\n", "line 3: last step not ended by 0"},
		{"1 -0x 0\n", `line 1: "-0x" is not a literal`},
		{"1 99999999999 0\n", "is not a literal"},
		{"-9223372036854775808 -1 0\n0\n", `line 1: "-9223372036854775808" is not a literal`},
		{"1 d 2 0\n", `unexpected "d"`},
		{"d1 0\n", `"d" must be followed by a space`},
		{"a\x02\x03", "byte offset 0: step not ended by 0"},
		{"a\x02\x00b\x02\x00", "byte offset 3: step starts with 0x62"},
		{"a\x01\x00", "byte offset 1: bad literal code 1"},
		{"a\x82", "byte offset 1: literal cut off"},
		{"a\xff\xff\xff\xff\xff\x01\x00", "literal too large"},
	} {
		_, err := ParseProof([]byte(c.src), Auto)
		assert.ErrorContains(t, err, c.err, "%q", c.src)
	}
}

func TestReadCNF(t *testing.T) {
	f, err := ReadCNF(strings.NewReader("c hello\nc  two\np cnf 3 2\n1 -2\n 3 0 -1 0\n"))
	require.NoError(t, err)
	assert.Equal(t, &CNF{Vars: 3, Clauses: [][]int{{1, -2, 3}, {-1}}, Comments: []string{"hello", " two"}}, f)
	var b bytes.Buffer
	require.NoError(t, writeDIMACS(f, &b))
	assert.Equal(t, "c hello\nc  two\np cnf 3 2\n1 -2 3 0\n-1 0\n", b.String())
	for _, c := range []struct{ src, err string }{
		{"1 2 0\n", "line 1: clause before the \"p cnf\" header"},
		{"p cnf 2\n", "line 1: header must be"},
		{"p cnf -1 2\n", "bad header numbers"},
		{"p cnf 2 1\n1 3 0\n", "line 2: literal 3 outside the 2 declared variables"},
		{"p cnf 2 1\n-9223372036854775808 0\n", "line 2: literal -9223372036854775808 outside the 2 declared variables"},
		{"p cnf 2 1\n1 0 2 0\n", "line 2: more clauses than the 1"},
		{"p cnf 2 2\n1 0\n", "header declares 2 clauses, found 1"},
		{"p cnf 2 1\n1 2\n", "line 2: last clause not ended by 0"},
		{"p cnf 2 1\n1 a 0\n", `line 2: "a" is not a literal`},
		{"", "no \"p cnf\" header"},
		{"p cnf 1 1\np cnf 1 1\n", "line 2: second header"},
	} {
		_, err := ReadCNF(strings.NewReader(c.src))
		assert.ErrorContains(t, err, c.err, "%q", c.src)
	}
}

// FuzzParseProof: the parser never panics, and a parsed proof written back in
// either encoding parses to the same steps.
func FuzzParseProof(f *testing.F) {
	f.Add([]byte("1 -2 0\nd 1 -2 0\n0\n"))
	f.Add([]byte{'a', 0x7e, 0x7f, 0x80, 0x01, 0, 'd', 0x83, 0x80, 0x01, 0})
	f.Add([]byte("c x\n-1 0"))
	f.Fuzz(func(t *testing.T, data []byte) {
		p, err := ParseProof(data, Auto)
		if err != nil {
			return
		}
		for _, write := range []func(*bytes.Buffer) error{
			func(b *bytes.Buffer) error { return p.WriteText(b) },
			func(b *bytes.Buffer) error { return p.WriteBinary(b) },
		} {
			var b bytes.Buffer
			if err := write(&b); err != nil {
				t.Fatal(err)
			}
			q, err := ParseProof(b.Bytes(), Auto)
			if err != nil {
				t.Fatalf("re-parse: %v", err)
			}
			if q.Len() != p.Len() {
				t.Fatalf("%d steps, re-parsed %d", p.Len(), q.Len())
			}
			for i := 0; i < p.Len(); i++ {
				a, c := p.Step(i), q.Step(i)
				if a.Delete != c.Delete || fmt.Sprint(a.Clause) != fmt.Sprint(c.Clause) {
					t.Fatalf("step %d: %v, re-parsed %v", i, a, c)
				}
			}
		}
	})
}

// FuzzReadCNF: the CNF reader never panics, a formula it accepts respects its
// header, and checking the empty proof against it does not panic either.
func FuzzReadCNF(f *testing.F) {
	f.Add([]byte("p cnf 3 2\n1 -2 3 0\n-1 0\n"))
	f.Add([]byte("c x\np cnf 1 2\n1 0\n-1 0\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		g, err := ReadCNF(bytes.NewReader(data))
		if err != nil {
			return
		}
		if g.Vars > 1000 {
			return
		}
		for _, c := range g.Clauses {
			for _, l := range c {
				if l == 0 || l > g.Vars || -l > g.Vars {
					t.Fatalf("literal %d with %d variables", l, g.Vars)
				}
			}
		}
		if _, err := Check(context.Background(), g, &Proof{}); err != nil {
			t.Fatal(err)
		}
	})
}

// Proof.Add panics on a literal outside ±MaxVar or 0, the most negative int
// included (its negation is itself: within, the range check the parsers share).
func TestAddRefusesBadLiterals(t *testing.T) {
	for _, l := range []int{0, MaxVar + 1, -MaxVar - 1, math.MinInt, math.MaxInt} {
		require.Panics(t, func() { new(Proof).Add(false, 1, l) }, "literal %d", l)
	}
	require.NotPanics(t, func() { new(Proof).Add(false, MaxVar, -MaxVar) })
}
