package model

import (
	"bytes"
	"runtime"
)

// The counts that size ReadPaths's arrays (newPathsSink: the messages'
// braces, and the hops' bound, byteCounts.hops: commas, brackets and quotes)
// are four passes over the whole text. Made where the network is parsed, they
// held up that reading (and so the start of everything after it) by a
// twentieth of wormlab color's elapsed time at 10^6 tree paths (171 MB), with
// the second core idle: where the text is long and there is a second core,
// another goroutine counts them while the network is read and allocates the
// sink's arrays, which the sink takes at its first use. The counts are kept
// for every countChunk bytes from the start, so that the second half's
// (pathsSink.fork: the text from a point near the middle to the end) are a
// difference and a chunk's counting, not four more passes over half the text.

// byteCounts counts the bytes that size a pathsSink in a text: '{', ',', '['
// and '"', in that order.
type byteCounts [4]int

// countedBytes are the bytes of byteCounts.
var countedBytes = [4]byte{'{', ',', '[', '"'}

// countBytes returns text's byteCounts.
func countBytes(text []byte) (c byteCounts) {
	for k, b := range countedBytes {
		c[k] = bytes.Count(text, []byte{b})
	}
	return c
}

// braces is the number of '{' counted: a bound on the messages.
func (c byteCounts) braces() int { return c[0] }

// hops is a bound on the hops of the messages of the text (readPaths's
// comment: a hop per comma or bracket in a path of edges, fewer hops than
// strings in a path of nodes).
func (c byteCounts) hops() int { return min(c[1]+c[2], c[3]/2) }

// minus returns c less o, the counts of the text o counted cut from c's.
func (c byteCounts) minus(o byteCounts) byteCounts {
	for k := range c {
		c[k] -= o[k]
	}
	return c
}

// countChunk is the stride of textCounts' running counts (a variable so that
// a test can take many chunks of a short text).
var countChunk = 1 << 20

// textCounts are a text's counts, made on another goroutine (countAhead).
type textCounts struct {
	text  []byte
	chunk int
	done  chan struct{}
	// Set when done is closed, unless the counting faulted (a mapped file
	// that shrank, readMappedPaths): at[j] counts text[:j*chunk], the last
	// entry the whole text.
	at      []byteCounts
	faulted bool
	// arrays are the sink's, sized for the text's messages (pathsSink.size).
	arrays pathArrays
}

// countAhead starts counting text on another goroutine; nil (the caller
// counts it itself) when the text is shorter than a list read on two cores
// (splitMin) or there is no second core.
func countAhead(text []byte) *textCounts {
	if len(text) < splitMin || runtime.GOMAXPROCS(0) < 2 {
		return nil
	}
	chunk := countChunk
	t := &textCounts{text: text, chunk: chunk, done: make(chan struct{})}
	go func() {
		defer close(t.done)
		// A fault leaves at nil: the caller counts again on its own goroutine,
		// and the fault is its (readMappedPaths returns errShrank).
		t.faulted = faultsIn(text, func() {
			at := make([]byteCounts, 1, len(text)/chunk+2)
			sum := byteCounts{}
			for lo := 0; lo < len(text); lo += chunk {
				c := countBytes(text[lo:min(lo+chunk, len(text))])
				for k := range sum {
					sum[k] += c[k]
				}
				at = append(at, sum)
			}
			t.at = at
			// The sink's arrays, allocated here at once: taken only when the
			// list begins, they would leave the heap small while the network
			// is read, its names and index collected in a dozen cycles
			// (19 collections of the command at 10^6 tree paths against 9).
			t.arrays = sizedArrays(sum, true)
		})
	}()
	return t
}

// wait waits for the counts and reports whether they were made.
func (t *textCounts) wait() bool {
	<-t.done
	return !t.faulted
}

// all returns the whole text's counts (after wait).
func (t *textCounts) all() byteCounts { return t.at[len(t.at)-1] }

// suffix returns the counts of s, a suffix of the text (the same bytes, in
// place), and ok; ok is false when s is not one (after wait).
func (t *textCounts) suffix(s []byte) (c byteCounts, ok bool) {
	off := len(t.text) - len(s)
	if off < 0 || len(s) == 0 || &t.text[off] != &s[0] {
		return c, false
	}
	j := off / t.chunk
	before := t.at[j] // text[:j*chunk]
	part := countBytes(t.text[j*t.chunk : off])
	for k := range before {
		before[k] += part[k]
	}
	return t.all().minus(before), true
}
