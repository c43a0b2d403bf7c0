package model

import (
	"bytes"
	"runtime"
	"sync/atomic"
)

// Reading a long message list on two cores: parseFast reads the list from its
// start as always, while another goroutine reads it from a point near the middle
// of the text where a message seems to begin (splitPoint). The guess is checked by
// the reading from the start: it is right when that reading arrives at a message
// exactly there, and the other goroutine's messages are then taken as they are
// (the text from there on is read the same way whoever reads it); otherwise they
// are dropped and the reading goes on alone. So what is accepted, and how, is
// what the reading on one core does. The CPU time is about the same; the elapsed
// time of the reading of 10^6 paths nearly halves on an idle second core.

// forkSink is a messageSink that can take the second half of a list from another
// goroutine: fork returns an empty sink for the messages of text (a sizing hint),
// and join appends the messages of a sink fork returned after the receiver's, or,
// given nil, drops them (what fork took from the receiver given back).
type forkSink interface {
	messageSink
	fork(text []byte) messageSink
	join(other messageSink)
}

// splitMin is the least text (bytes from the list's reading position to the end
// of the document) that is read on two cores.
var splitMin = 4 << 20

// splitJoins counts the lists read on two cores, for the tests (atomic: ReadPaths
// may run on several goroutines at once).
var splitJoins atomic.Int64

// split is the reading of a list's second half on another goroutine.
type split struct {
	at   int      // where the other goroutine's reading begins: a message's '{', guessed
	fs   forkSink // the list's sink, which finish joins the goroutine's to
	stop atomic.Bool
	done chan struct{}
	// Set when the goroutine read every message from at to the list's end
	// (before its ']'); left alone otherwise.
	sink messageSink
	n    int // messages read
	end  int // the position of the list's ']'
}

// startSplit starts reading the list at p from a guessed message near the middle
// of the rest of the text, when that rest is long and there is a second core; nil
// otherwise. The goroutine reads messages of the common shape only (rawMessage):
// at anything else it gives up.
func startSplit(p *fastScanner, in *Instance, fs forkSink) *split {
	rest := len(p.data) - p.i
	if rest < splitMin || runtime.GOMAXPROCS(0) < 2 {
		return nil
	}
	at := splitPoint(p.data, p.i+rest/2)
	if at < 0 {
		return nil
	}
	in.Net.ensureIndex() // rawMessage asks for it: built here, read only there
	sp := &split{at: at, fs: fs, done: make(chan struct{})}
	q := fastScanner{data: p.data, i: at, hop: p.hop}
	sink := fs.fork(p.data[at:])
	go func() {
		defer close(sp.done)
		// A fault in a mapped text that shrank (readMappedPaths) leaves sp.sink
		// nil: the reading from the start meets it too, and returns it.
		faultsIn(q.data, func() {
			n := 0
			if q.items(func() bool {
				if sp.stop.Load() {
					return false
				}
				id, flits, asEdges, ok := q.rawMessage(in)
				n++
				return ok && sink.fast(in, id, q.hops, flits, asEdges)
			}) {
				sp.sink, sp.n, sp.end = sink, n, q.i-1 // the list's ']'
			}
		})
	}()
	return sp
}

// splitPoint returns the position of the first '{' at or after from that follows
// a '}' and a ',' with only white space between them (a message that seems to
// begin after another), or -1.
func splitPoint(data []byte, from int) int {
	for i := from; i < len(data); {
		j := bytes.IndexByte(data[i:], '}')
		if j < 0 {
			return -1
		}
		k := i + j + 1
		for k < len(data) && isSpace(data[k]) {
			k++
		}
		if k < len(data) && data[k] == ',' {
			for k++; k < len(data) && isSpace(data[k]); k++ {
			}
			if k < len(data) && data[k] == '{' {
				return k
			}
		}
		i += j + 1
	}
	return -1
}

// finish waits for the goroutine and ends the split. When the reading from the
// start stands at a message at the guessed position (exact) and the goroutine
// read to the list's end, the goroutine's messages are joined to the list's sink
// and finish returns their number and the position of the list's ']'; otherwise
// they are dropped (the goroutine told to stop first) and ok is false.
func (sp *split) finish(exact bool) (n, end int, ok bool) {
	if !exact {
		sp.stop.Store(true)
	}
	<-sp.done
	if !exact || sp.sink == nil {
		sp.fs.join(nil)
		return 0, 0, false
	}
	sp.fs.join(sp.sink)
	return sp.n, sp.end, true
}
