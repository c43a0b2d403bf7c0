package model

import (
	"errors"
	"fmt"
	"hash/maphash"
	"io"
	"runtime"
	"runtime/debug"
	"slices"
	"sync"
	"unsafe"
)

// Paths is an instance's messages in flat arrays: the compact form `wormlab color`
// reads, colours and writes (issue 24: 10^6 paths in 500 MB). An Instance holds 64
// bytes a message and 8 a hop; Paths holds about 24 bytes a message, the id's bytes
// and 4 a hop. The network is shared with the instance it came from.
type Paths struct {
	Net *Network
	// Off: message i's path is Hops[Off[i]:Off[i+1]] (len(Off) = messages + 1).
	Off []int
	// Hops are the edge indices of every path, one path after another.
	Hops []int32
	// L[i] is message i's length in flits.
	L []int
	// ids holds the ids one after another, id i at ids[idOff[i]:idOff[i+1]].
	ids    []byte
	idOff  []int
	ms     Measures // Measure's, once computed (msOnce)
	reach  []reach  // Measure's too: each edge's reach (bestEdgeBound)
	msOnce sync.Once
}

// reach is the farthest an edge lies from the start and from the end of the
// paths using it: the largest position k+1 of the edge on a path (its earliest
// release on the edge) and the largest number of hops after it.
type reach struct{ r, q int32 }

// Len returns the number of messages.
func (p *Paths) Len() int { return len(p.L) }

// Path returns message i's path (not to be modified).
func (p *Paths) Path(i int) []int32 { return p.Hops[p.Off[i]:p.Off[i+1]:p.Off[i+1]] }

// D returns message i's path length d_i.
func (p *Paths) D(i int) int { return p.Off[i+1] - p.Off[i] }

// ID returns message i's id.
func (p *Paths) ID(i int) string { return string(p.id(i)) }

func (p *Paths) id(i int) []byte { return p.ids[p.idOff[i]:p.idOff[i+1]] }

// add appends a message whose hops are edge indices below edges, and reports
// true; it appends nothing and reports false when a hop is not one. The hops
// are checked as they are copied, into room made once (an append a hop, and a
// loop of its own for the check, took 21 instructions a hop at 10^6 paths).
func (p *Paths) add(id []byte, hops []int, l, edges int) bool {
	n := len(p.Hops)
	p.Hops = slices.Grow(p.Hops, len(hops))[:n+len(hops)]
	to := p.Hops[n:]
	for j, e := range hops {
		if uint(e) >= uint(edges) {
			p.Hops = p.Hops[:n]
			return false
		}
		to[j] = int32(e)
	}
	if p.Off == nil {
		p.Off, p.idOff = []int{0}, []int{0}
	}
	p.ids = append(p.ids, id...)
	p.idOff = append(p.idOff, len(p.ids))
	p.Off = append(p.Off, len(p.Hops))
	p.L = append(p.L, l)
	return true
}

// PathsOf returns the compact form of a valid instance's messages.
func PathsOf(in *Instance) *Paths { return pathsOf(in, true) }

// pathsOf is PathsOf, without the ids (every id empty) unless withIDs.
func pathsOf(in *Instance, withIDs bool) *Paths {
	hops, idLen := 0, 0
	for i := range in.Messages {
		hops += len(in.Messages[i].Path)
		if withIDs {
			idLen += len(in.Messages[i].ID)
		}
	}
	n := len(in.Messages)
	p := &Paths{Net: in.Net, Off: make([]int, 1, n+1), Hops: make([]int32, 0, hops),
		L: make([]int, 0, n), ids: make([]byte, 0, idLen), idOff: make([]int, 1, n+1)}
	for i := range in.Messages {
		m := &in.Messages[i]
		if withIDs {
			p.ids = append(p.ids, m.ID...)
		}
		p.idOff = append(p.idOff, len(p.ids))
		for _, e := range m.Path {
			p.Hops = append(p.Hops, int32(e))
		}
		p.Off = append(p.Off, len(p.Hops))
		p.L = append(p.L, m.L)
	}
	return p
}

// ReadPaths reads an instance in the JSON format of MODEL.md into its compact
// form. It accepts and rejects exactly what ReadInstance does, with the same
// errors: a document of the common shape is read straight into the flat arrays
// (parseFast), anything else through ReadInstance's general path. A regular
// file of 1 MB or more is mapped into memory (mapText) rather than read.
func ReadPaths(r io.Reader) (*Paths, error) {
	if data, unmap, mapped := mapText(r); mapped {
		defer unmap()
		return readMappedPaths(data)
	}
	data, err := readAll(r)
	if err != nil {
		return nil, fmt.Errorf("instance: %v", err)
	}
	return readPaths(data)
}

// errShrank is the error of a mapped file that shrank while it was read.
var errShrank = errors.New("instance: the file shrank while it was read (another program truncated or rewrote it)")

// readMappedPaths is readPaths of a text mapped from a file (mapText), which
// faults where the file has shrunk since it was mapped (another program
// truncating it or rewriting it in place: SIGBUS on the pages past its new
// end). The fault is an error, not a crash: the reading (and the goroutine that
// reads the second half of a long list, startSplit) panic on it
// (debug.SetPanicOnFault), and the panic is returned as errShrank.
func readMappedPaths(data []byte) (p *Paths, err error) {
	if !faultsIn(data, func() { p, err = readPaths(data) }) {
		return p, err
	}
	return nil, errShrank
}

// faultsIn runs read with memory faults made panics (debug.SetPanicOnFault) and
// reports whether it stopped at one inside data; any other panic goes on.
func faultsIn(data []byte, read func()) (faulted bool) {
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	defer func() {
		if r := recover(); r != nil {
			if !faultIn(r, data) {
				panic(r)
			}
			faulted = true
		}
	}()
	read()
	return false
}

// faultIn reports whether r, a recovered panic, is a memory fault
// (debug.SetPanicOnFault) at an address inside data.
func faultIn(r any, data []byte) bool {
	f, ok := r.(interface{ Addr() uintptr })
	if !ok || len(data) == 0 {
		return false
	}
	start := uintptr(unsafe.Pointer(unsafe.SliceData(data)))
	return f.Addr() >= start && f.Addr()-start < uintptr(len(data))
}

// readPaths is ReadPaths of the text data.
func readPaths(data []byte) (*Paths, error) {
	// Sized once from the text, so that no array is copied as it grows (the
	// copies, with the text, made the reading the command's peak): every message
	// opens a brace; a path of edges has at most a hop per comma or bracket, and a
	// path of nodes fewer hops than strings. The smaller of the two counts is no
	// bound when both forms occur (the arrays then grow); capacity never written
	// costs no resident memory. The counts may be made on another goroutine
	// while the network is read (countAhead): nothing reads the text once this
	// returns.
	sink := newPathsSink(data)
	if _, ok := parseFast(data, sink); ok {
		// The paths returned are a field of the sink, which keeps the sink
		// alive: drop its counting (finish waited for it), which holds the
		// text, so that a text read whole is garbage once read.
		sink.ahead = nil
		return &sink.p, nil
	}
	sink.settle()
	in, err := parseInstanceGeneral(data)
	if err != nil {
		return nil, err
	}
	return PathsOf(in), nil
}

// pathsSink gathers the messages of parseFast into Paths.
type pathsSink struct {
	p Paths
	// edges is set when a message gave its path as edges or was read by the
	// general reader: the others are walks by construction (namePath finds each
	// hop among the edges leaving the head of the one before).
	edges bool
	// hops is p.Hops as sized, while a fork writes into the end of its
	// capacity (fork, join).
	hops []int32
	// ahead is the text's counting on another goroutine (countAhead), and
	// unsized is set until the sink takes them and sizes its arrays (size, at
	// its first use).
	ahead   *textCounts
	unsized bool
}

// newPathsSink returns an empty sink whose arrays are sized for the messages of
// text (ReadPaths): at once, or, where the text is counted on another
// goroutine, at the sink's first use.
func newPathsSink(text []byte) *pathsSink {
	if t := countAhead(text); t != nil {
		return &pathsSink{ahead: t, unsized: true}
	}
	s := &pathsSink{}
	s.sized(countBytes(text))
	return s
}

// sized gives s its arrays for a text of counts c.
func (s *pathsSink) sized(c byteCounts) { s.take(sizedArrays(c, true)) }

// size sizes s when its text was counted ahead and it is not sized yet. A
// counting that faulted is made again here, and faults again, on the
// reader's goroutine (readMappedPaths).
func (s *pathsSink) size() {
	if !s.unsized {
		return
	}
	s.unsized = false
	if !s.ahead.wait() {
		s.sized(countBytes(s.ahead.text))
		return
	}
	s.take(s.ahead.arrays)
	s.ahead.arrays = pathArrays{}
}

// take gives s the arrays a.
func (s *pathsSink) take(a pathArrays) {
	s.p.Off, s.p.idOff, s.p.L, s.p.Hops = a.off, a.idOff, a.l, a.hops
}

// settle waits for the counting ahead, if any: the text is not read once it
// returns.
func (s *pathsSink) settle() {
	if s.ahead != nil {
		s.ahead.wait()
	}
}

// pathArrays are the arrays of a Paths, empty and sized (sizedArrays).
type pathArrays struct {
	off, idOff, l []int
	hops          []int32
}

// sizedArrays returns empty arrays of Paths sized for the messages of a text
// of counts c, the hops nil unless withHops.
func sizedArrays(c byteCounts, withHops bool) pathArrays {
	braces := c.braces()
	a := pathArrays{off: make([]int, 1, braces+1), idOff: make([]int, 1, braces+1), l: make([]int, 0, braces)}
	if withHops {
		a.hops = make([]int32, 0, c.hops())
	}
	return a
}

// fork returns the sink of the messages of text, the end of a list s reads the
// start of, for another goroutine (forkSink). Its hops go into the end of the
// capacity of s's (as many as text bounds), and s's are capped before them, so
// that the two write apart and join moves the fork's hops down in place instead
// of holding them twice (40 MB at 10^6 tree paths); either that outgrows its
// share takes an array of its own, as append does.
func (s *pathsSink) fork(text []byte) messageSink {
	s.size()
	c, ok := byteCounts{}, false
	if s.ahead != nil && s.ahead.wait() {
		c, ok = s.ahead.suffix(text)
	}
	if !ok {
		c = countBytes(text)
	}
	t := &pathsSink{}
	t.take(sizedArrays(c, false))
	h := &s.p.Hops
	n := min(c.hops(), cap(*h)-len(*h))
	s.hops = *h
	t.p.Hops = (*h)[cap(*h)-n : cap(*h)-n : cap(*h)]
	*h = (*h)[: len(*h) : cap(*h)-n]
	return t
}

// join appends the messages of o (a sink fork returned) after s's, or drops
// them when o is nil. Either way s's hops, where they are still in the array
// sized for the text, get back the capacity fork took: so a reading on one core
// after a wrong guess neither outgrows its share into a new array nor keeps
// the sized one alive beside it (in s.hops).
func (s *pathsSink) join(o messageSink) {
	p := &s.p
	hops, ids := len(p.Hops), len(p.ids)
	if cap(s.hops) > 0 && cap(p.Hops) > 0 && &s.hops[:1][0] == &p.Hops[:1][0] {
		p.Hops = s.hops[:hops] // s's hops are where they were sized: their capacity back
	}
	s.hops = nil
	if o == nil {
		return
	}
	t := o.(*pathsSink)
	p.Hops = append(p.Hops, t.p.Hops...) // a move down within one array, or a copy
	p.ids = append(p.ids, t.p.ids...)
	p.L = append(p.L, t.p.L...)
	for i := range t.p.L {
		p.Off = append(p.Off, hops+t.p.Off[i+1])
		p.idOff = append(p.idOff, ids+t.p.idOff[i+1])
	}
	s.edges = s.edges || t.edges
}

func (s *pathsSink) fast(in *Instance, id []byte, hops []int, flits int, asEdges bool) bool {
	if s.unsized {
		s.size()
	}
	if !s.p.add(id, hops, flits, len(in.Net.Edges)) {
		return false // a hop out of range: ReadInstance names it
	}
	s.edges = s.edges || asEdges
	return true
}

func (s *pathsSink) general(in *Instance, m *Message) bool {
	s.size()
	s.edges = true
	return s.fast(in, []byte(m.ID), m.Path, m.L, m.AsEdges)
}

func (s *pathsSink) finish(in *Instance, flits int) bool {
	s.size()
	p := &s.p
	p.Net = in.Net
	if p.Off == nil {
		p.Off, p.idOff = []int{0}, []int{0}
	}
	for i := range p.L {
		if p.L[i] == 0 {
			p.L[i] = flits
		}
	}
	return p.valid(!s.edges)
}

// valid reports whether the paths meet what Instance.Validate checks (the network's
// nodes and edges, ids unique and non-empty, lengths at least 1 summing to at most
// MaxTotalFlits, every path a non-empty walk using no edge twice). It gives no
// reason: a caller that needs one reads the instance with ReadInstance. With
// walks, the paths are known to be walks (read from node names), and that is
// not checked again (two reads of the edges a hop, at 10^6 paths a cache miss
// each).
func (p *Paths) valid(walks bool) bool {
	if p.Net == nil || p.Net.validate() != nil {
		return false
	}
	// Where the messages are many (uniqueSplitMin) and there is a second
	// core, another goroutine checks the second half of the messages: each
	// half's flits are at most MaxTotalFlits, and so must be their sum. Every
	// length is at least 1, so the sum passes the bound exactly when some
	// running sum of the one-goroutine loop does.
	n := p.Len()
	if n < uniqueSplitMin || runtime.GOMAXPROCS(0) < 2 {
		_, ok := p.validPaths(walks, 0, n)
		return ok && p.uniqueIDs()
	}
	var second int
	var secondOK bool
	done := make(chan struct{})
	go func() {
		defer close(done)
		second, secondOK = p.validPaths(walks, n/2, n)
	}()
	first, ok := p.validPaths(walks, 0, n/2)
	<-done
	return ok && secondOK && second <= MaxTotalFlits-first && p.uniqueIDs()
}

// validPaths checks messages from .. to-1 as valid does (lengths, ids, each
// path a non-empty walk using no edge twice, a walk checked unless walks)
// and returns their flits, at most MaxTotalFlits, and whether they pass.
func (p *Paths) validPaths(walks bool, from, to int) (flits int, ok bool) {
	net := p.Net
	used := make([]int32, len(net.Edges)) // edge -> 1 + index of the last message using it
	for i := from; i < to; i++ {
		l := p.L[i]
		if l < 1 || l > MaxTotalFlits-flits || len(p.id(i)) == 0 || p.D(i) == 0 {
			return 0, false
		}
		flits += l
		prev := int32(-1)
		for _, e := range p.Path(i) {
			if e < 0 || int(e) >= len(net.Edges) || used[e] == int32(i+1) {
				return 0, false
			}
			if !walks && prev >= 0 && net.Edges[prev].To != net.Edges[e].From {
				return 0, false
			}
			used[e], prev = int32(i+1), e
		}
	}
	return flits, true
}

// uniqueIDs reports whether no two messages share an id, with an open-addressing
// table of message indices (a map of 10^6 strings took 60 MB and a fifth of a
// second). Where the messages are many (uniqueSplitMin) and there is a second
// core, uniqueSplit checks them on two.
func (p *Paths) uniqueIDs() bool {
	n := p.Len()
	if n >= uniqueSplitMin && runtime.GOMAXPROCS(0) > 1 {
		return p.uniqueSplit()
	}
	size := 1
	for size < 2*n {
		size <<= 1
	}
	table := make([]int32, size) // 1 + message index, 0 for empty
	seed := maphash.MakeSeed()
	for i := range n {
		id := p.id(i)
		for h := maphash.Bytes(seed, id) & uint64(size-1); ; h = (h + 1) & uint64(size-1) {
			j := table[h]
			if j == 0 {
				table[h] = int32(i + 1)
				break
			}
			if string(p.id(int(j-1))) == string(id) {
				return false
			}
		}
	}
	return true
}

// uniqueSplitMin is the least number of messages whose ids uniqueIDs checks
// on two cores.
var uniqueSplitMin = 1 << 17

// uniqueSplit is uniqueIDs on two goroutines: each hashes half the ids, and
// then the ids are parted by their hash's top bit, each goroutine with a
// table of its own. Two ids that are equal hash alike, so each pair is
// compared in one of the tables.
func (p *Paths) uniqueSplit() bool {
	n := p.Len()
	seed := maphash.MakeSeed()
	hashes := make([]uint64, n)
	other := make(chan bool)
	go func() {
		for i := n / 2; i < n; i++ {
			hashes[i] = maphash.Bytes(seed, p.id(i))
		}
		other <- true
		other <- p.uniqueHashed(hashes, 1<<63)
	}()
	for i := range n / 2 {
		hashes[i] = maphash.Bytes(seed, p.id(i))
	}
	<-other
	ok := p.uniqueHashed(hashes, 0)
	return <-other && ok
}

// uniqueHashed reports whether no two messages whose ids' hashes (hashes[i]
// for message i) have the top bit top share an id.
func (p *Paths) uniqueHashed(hashes []uint64, top uint64) bool {
	size := 1
	for size < p.Len() {
		size <<= 1
	}
	table := make([]int32, size) // 1 + message index, 0 for empty
	for i, h := range hashes {
		if h&(1<<63) != top {
			continue
		}
		id := p.id(i)
		for h &= uint64(size - 1); ; h = (h + 1) & uint64(size-1) {
			j := table[h]
			if j == 0 {
				table[h] = int32(i + 1)
				break
			}
			if string(p.id(int(j-1))) == string(id) {
				return false
			}
		}
	}
	return true
}

// Measure returns the loads, congestion and dilation of the paths, as
// Instance.Measure does for an instance. They are computed once, by the first
// call, which others on other goroutines wait for (the colorer, its bound and
// the lower bounds all ask, `wormlab color` the last on another core): the
// slices are shared, and the caller must not modify them.
func (p *Paths) Measure() Measures {
	p.msOnce.Do(p.measure)
	return p.ms
}

// edgeSums is what measure counts for an edge as it passes over the hops, in
// one record (32 bytes, one cache line): at 10^6 paths the edges' loads, flit
// loads and reaches, in four arrays read apart, were a cache miss each at a
// hop (wormlab color on the 10^5-node tree: the lower bound's pass over the
// hops for the reaches was 3% of the command's CPU).
type edgeSums struct {
	load, flits int
	r, q        int32
	_           int64
}

// measure sets the measures and the edges' reaches in one pass over the hops.
// Where the hops are many (measureSplitMin, and more than the edges) and there
// is a second core, another goroutine sums the second half of the hops into
// records of its own, added in at the end: at 10^6 tree paths `wormlab color`
// waits for the measures before it can root the tree.
func (p *Paths) measure() {
	ne := len(p.Net.Edges)
	sums := make([]edgeSums, ne)
	n := p.Len()
	var other []edgeSums
	done := make(chan struct{})
	if len(p.Hops) >= measureSplitMin && ne <= len(p.Hops) && runtime.GOMAXPROCS(0) > 1 {
		half := len(p.Hops) / 2
		at, _ := slices.BinarySearch(p.Off[:n], half) // the first message from the middle hop on
		other = make([]edgeSums, ne)
		go func(from, to int) {
			defer close(done)
			p.sumEdges(other, from, to)
		}(at, n)
		n = at
	} else {
		close(done)
	}
	p.sumEdges(sums, 0, n)
	<-done
	for e, o := range other {
		s := &sums[e]
		s.load += o.load
		s.flits += o.flits
		s.r, s.q = max(s.r, o.r), max(s.q, o.q)
	}
	m := newMeasures(ne)
	for i, l := range p.L {
		m.countMessage(i, p.D(i), l)
	}
	p.reach = make([]reach, len(sums))
	for e, s := range sums {
		m.Load[e], m.FlitLoad[e], p.reach[e] = s.load, s.flits, reach{s.r, s.q}
	}
	m.congestion()
	p.ms = m
}

// measureSplitMin is the least number of hops whose measures are summed on two
// cores.
var measureSplitMin = 1 << 20

// sumEdges adds the hops of messages from .. to-1 into sums.
func (p *Paths) sumEdges(sums []edgeSums, from, to int) {
	for i := from; i < to; i++ {
		path, l := p.Path(i), p.L[i]
		for k, e := range path {
			s := &sums[e]
			s.load++
			s.flits += l
			s.r = max(s.r, int32(k+1))
			s.q = max(s.q, int32(len(path)-k-1))
		}
	}
}
