package model

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"math/bits"
	"strconv"
	"unicode/utf8"
)

// parseMessageFast reads the common shape of a message object quickly:
//
//	{"id": "m0", "path": ["a", "b"]}   or   {"id": "m0", "edges": [0, 1], "flits": 3}
//
// with keys in any order, strings without escapes and nothing else. It reports
// ok = false, having changed nothing, on anything it does not recognise (an extra
// field, an escape, a null, a number where a string belongs, a second "path" ...);
// the caller then parses the message with the general decoder, which also produces
// the error messages. It exists because the general decoder validates nested values
// once per level, which made large instances parse at a few MB/s. What it accepts
// is valid JSON (the scanner checks the grammar, numbers and strings as it reads),
// so it may read text no decoder has checked (parseInstanceFast). The path comes
// from a, which the caller keeps across the messages of an instance (an arena
// per message would hold 2^16 hops for each).
func parseMessageFast(in *Instance, data []byte, m *Message, a *pathArena) (ok bool) {
	p := fastScanner{data: data}
	var mm Message
	if !p.message(in, &mm, a) {
		return false
	}
	p.space()
	if p.i != len(data) {
		return false
	}
	*m = mm
	return true
}

// pathArena hands out paths as pieces of large shared arrays, each capped at its
// length so that an append to one never writes into the next: one allocation per
// 2^16 hops instead of one (and the growth of an append) per path.
type pathArena struct{ buf []int }

func (a *pathArena) copy(src []int) []int {
	if cap(a.buf)-len(a.buf) < len(src) {
		a.buf = make([]int, 0, max(1<<16, len(src)))
	}
	n := len(a.buf)
	a.buf = append(a.buf, src...)
	return a.buf[n:len(a.buf):len(a.buf)]
}

// message reads a message object at the scanner's position as parseMessageFast
// does, its path taken from a; on false the scanner's position is undefined and m
// unchanged. A message without "flits" gets in.Flits.
func (p *fastScanner) message(in *Instance, m *Message, a *pathArena) (ok bool) {
	id, flits, asEdges, ok := p.rawMessage(in)
	if !ok {
		return false
	}
	*m = Message{ID: string(id), Path: a.copy(p.hops), L: flits, AsEdges: asEdges}
	return true
}

// rawMessage reads a message object of the common shape (parseMessageFast) and
// returns its id (the bytes of data, not copied) and length, with its path in
// p.hops; flits is in.Flits when the message gives none.
func (p *fastScanner) rawMessage(in *Instance) (id []byte, flits int, asEdges, ok bool) {
	var hasID, hasPath, hasEdges, hasFls bool
	flits = in.Flits
	p.hops = p.hops[:0]
	ok = p.object(func(key []byte) bool {
		var ok bool
		switch string(key) {
		case "id":
			if hasID {
				return false
			}
			id, ok = p.rawStr()
			hasID = true
			return ok
		case "flits":
			if hasFls {
				return false
			}
			flits, ok = p.int()
			hasFls = true
			return ok && flits >= 1
		case "path":
			if hasPath {
				return false
			}
			hasPath = true
			// Resolve node names as they are read: map lookups with string(b)
			// do not allocate. With a hop index (parseFast), namePath reads
			// the whole list in one loop.
			net := in.Net
			net.ensureIndex()
			if p.hop != nil {
				return p.namePath(net)
			}
			prev := -1
			ok = p.list(func() bool {
				b, ok := p.rawStr()
				if !ok {
					return false
				}
				cur, known := net.index[string(b)]
				if !known {
					return false
				}
				if prev >= 0 {
					e, n := net.edgeBetween(prev, cur)
					if n != 1 {
						return false
					}
					p.hops = append(p.hops, e)
				}
				prev = cur
				return true
			})
			return ok && len(p.hops) > 0
		case "edges":
			if hasEdges {
				return false
			}
			hasEdges = true
			ok = p.list(func() bool {
				v, ok := p.int()
				p.hops = append(p.hops, v)
				return ok
			})
			return ok && len(p.hops) > 0
		}
		return false
	})
	if !ok || !hasID || hasPath == hasEdges {
		return nil, 0, false, false
	}
	return id, flits, hasEdges, true
}

// parseTimesFast reads the common shape of a schedule entry quickly,
//
//	{"id": "m0", "start": 4, "cross": [5, 6]}
//
// ("start" optional, keys in any order), under the same contract as
// parseMessageFast: ok = false, nothing changed, on anything else.
func parseTimesFast(data []byte, t *Times) (ok bool) {
	var (
		id                       string
		cross                    []int
		start                    int
		hasID, hasCross, hasStrt bool
	)
	p := fastScanner{data: data}
	ok = p.object(func(key []byte) bool {
		var ok bool
		switch string(key) {
		case "id":
			if hasID {
				return false
			}
			id, ok = p.str()
			hasID = true
			return ok
		case "start":
			if hasStrt {
				return false
			}
			start, ok = p.int()
			hasStrt = true
			return ok
		case "cross":
			if hasCross {
				return false
			}
			hasCross = true
			cross = []int{}
			return p.list(func() bool {
				v, ok := p.int()
				cross = append(cross, v)
				return ok
			})
		}
		return false
	})
	if !ok || !hasID || !hasCross {
		return false
	}
	*t = Times{ID: id, Cross: cross}
	if hasStrt {
		t.Start = &start
	}
	return true
}

type fastScanner struct {
	data    []byte
	i       int
	hops    []int     // a message's path as it is read
	hop     *hopIndex // the network's hops by name, when set
	nodes   []int32   // a path's nodes (numericHops)
	touched int32     // numericHops' loads, kept so that they are made
}

// hopIndex finds a hop of a path given by node names from the node it leaves and
// the name of the node it enters, among the out-edges of the first: no map lookup
// (a name hashed and compared in a table of every node) and no scan of the
// network's per-node lists, which at 10^6 tree paths were most of the reading.
// The out-edges of each node lie side by side with a key of their head's name.
type hopIndex struct {
	net     *Network
	start   []int32    // node u's out-edges are entries start[u] .. start[u+1]-1
	out     []hopOut   // the out-edges, node by node
	numeric bool       // every node's name is its index in decimal
	tree    *treeIndex // with numeric names, the edges of a forest by the nodes' parents (nil on other networks)
	pairs   *pairTable // with numeric names, the edges by their ends (nil on a forest and on too large a network)
}

// hopOut is an out-edge with the key of its head's name and the head's own
// out-edges (entries lo .. hi-1), in one 24-byte entry: a node's few out-edges
// lie in one or two cache lines, and the next hop of the path is looked for
// without reading start (as four arrays they were four misses a hop).
type hopOut struct {
	key              uint64 // nameKey of the head's name
	edge, to, lo, hi int32
}

// nameKey packs up to the first 7 bytes of a name and its length (at most 255):
// equal keys mean equal names when the name is shorter than 8 bytes, and equal
// lengths and first 7 bytes otherwise.
func nameKey[S string | []byte](b S) uint64 {
	k := uint64(min(len(b), 255)) << 56
	for i := 0; i < len(b) && i < 7; i++ {
		k |= uint64(b[i]) << (8 * i)
	}
	return k
}

func newHopIndex(net *Network) *hopIndex {
	n := len(net.Nodes)
	h := &hopIndex{net: net, start: make([]int32, n+1), out: make([]hopOut, len(net.Edges)), numeric: true}
	for _, ed := range net.Edges {
		h.start[ed.From+1]++
	}
	for u := range n {
		h.start[u+1] += h.start[u]
	}
	fill := append([]int32(nil), h.start[:n]...)
	for e, ed := range net.Edges {
		j := fill[ed.From]
		fill[ed.From]++
		h.out[j] = hopOut{key: nameKey(net.Nodes[ed.To]), edge: int32(e), to: int32(ed.To),
			lo: h.start[ed.To], hi: h.start[ed.To+1]}
	}
	var buf []byte
	for u, name := range net.Nodes {
		if buf = strconv.AppendInt(buf[:0], int64(u), 10); string(buf) != name {
			h.numeric = false
			break
		}
	}
	if h.numeric && treeIndexes {
		h.tree = newTreeIndex(net)
	}
	if h.numeric && h.tree == nil && n <= pairTableNodes && len(net.Edges) < pairEdgeMax {
		h.pairs = newPairTable(net)
	}
	return h
}

// A pairTable finds the edge from node u to node v in one probe of an
// open-addressing table (linear probing, at most half full) of 8-byte words
// u<<44 | v<<24 | e+1, or e = pairMany for a pair with more than one edge:
// numericHops reads a path's hops with one likely cache miss each, all
// independent of one another, where the out-edges of a node of many (near a
// tree's root) took a scan over several cache lines. It holds networks of at
// most 2^20 nodes and fewer than pairEdgeMax edges.
type pairTable struct {
	slots []uint64
	shift uint // 64 - log2(len(slots))
}

// pairTableNodes is the largest network (in nodes) given a pairTable: 2^20, the
// most its words hold; a variable so that a test can read without one.
var pairTableNodes = 1 << pairNodeBits

const (
	pairNodeBits = 20
	pairEdgeMax  = 1<<24 - 2
	pairMany     = 1<<24 - 1 // the edge field of a pair with several edges
)

func newPairTable(net *Network) *pairTable {
	size := 2
	for size < 2*len(net.Edges) {
		size <<= 1
	}
	t := &pairTable{slots: make([]uint64, size), shift: uint(64 - bits.TrailingZeros(uint(size)))}
	for e, ed := range net.Edges {
		pair := uint64(ed.From)<<pairNodeBits | uint64(ed.To)
		j := t.slot(pair)
		switch x := t.slots[j]; {
		case x == 0:
			t.slots[j] = pair<<24 | uint64(e+1)
		default: // the same pair again
			t.slots[j] = pair<<24 | pairMany
		}
	}
	return t
}

// slot returns the slot of pair (u<<20 | v): the one holding it, or the empty one
// where it would go.
func (t *pairTable) slot(pair uint64) uint64 {
	mask := uint64(len(t.slots) - 1)
	for j := (pair * 0x9e3779b97f4a7c15) >> t.shift; ; j = (j + 1) & mask {
		if x := t.slots[j]; x == 0 || x>>24 == pair {
			return j
		}
	}
}

// edge returns the edge from u to v and how many there are (2 standing for
// several).
func (t *pairTable) edge(u, v int32) (e int32, count int) {
	x := t.slots[t.slot(uint64(u)<<pairNodeBits|uint64(v))]
	switch f := x & (1<<24 - 1); {
	case x == 0:
		return 0, 0
	case f == pairMany:
		return 0, 2
	default:
		return int32(f - 1), 1
	}
}

// edgeTo returns an edge from u to v and how many there are.
func (h *hopIndex) edgeTo(u, v int32) (e int32, count int) {
	for _, o := range h.out[h.start[u]:h.start[u+1]] {
		if o.to == v {
			if count == 0 {
				e = o.edge
			}
			count++
		}
	}
	return e, count
}

// namePath reads the path of node names at the scanner's position into p.hops,
// in one loop over the bytes that reads each name as rawStr does and takes its
// key (nameKey) on the way (nameAt). A node after the first is found among the
// out-edges of the one before (hopIndex.find); on a network whose names are the
// nodes' indices (hopIndex.numeric), every name is read into its node first
// (by the word, numericNames, where the list is written as wormlab gen writes
// it) and the hops are found after the whole list (numericHops). It returns false,
// leaving the message to the general reader, on what rawStr or list decline, a
// name that is not a node's, two nodes with no single edge between them, and a
// walk of no hop.
func (p *fastScanner) namePath(net *Network) bool {
	h := p.hop
	data, i := p.data, p.i
	if i >= len(data) || data[i] != '[' {
		return false
	}
	i++
	switch {
	case !wordNames:
	case h.numeric:
		if end, nodes, ok := numericNames(data, i, p.nodes[:0], len(net.Nodes)); ok {
			p.i, p.nodes = end, nodes
			return p.numericHops(nodes)
		}
	default:
		if end, ok := p.keyedNames(net, i); ok {
			p.i = end
			return true
		}
	}
	nodes := p.nodes[:0]
	var lo, hi int32 // the out-edges of the node before, when it is known
	first := true
	for {
		for i < len(data) && isSpace(data[i]) {
			i++
		}
		if i >= len(data) || data[i] != '"' {
			return false // "]" here is a list of no name
		}
		start := i + 1
		var key uint64
		var ok bool
		if i, key, ok = nameAt(data, start); !ok {
			return false
		}
		name := data[start : i-1]
		switch {
		case h.numeric:
			// A name is a node's when it is its index in decimal, without a
			// leading zero.
			if len(name) == 0 || len(name) > 9 || (name[0] == '0' && len(name) > 1) {
				return false
			}
			v := 0
			for _, c := range name {
				if c-'0' > 9 {
					return false
				}
				v = v*10 + int(c-'0')
			}
			if v >= len(net.Nodes) {
				return false
			}
			nodes = append(nodes, int32(v))
		case first:
			cur, known := net.index[string(name)]
			if !known {
				return false
			}
			lo, hi = h.start[cur], h.start[cur+1]
		default:
			j, n := h.find(lo, hi, key, name)
			if n != 1 {
				return false
			}
			o := &h.out[j]
			p.hops = append(p.hops, int(o.edge))
			lo, hi = o.lo, o.hi
		}
		first = false
		for i < len(data) && isSpace(data[i]) {
			i++
		}
		if i < len(data) && data[i] == ',' {
			i++
			continue
		}
		if i < len(data) && data[i] == ']' {
			i++
			break
		}
		return false
	}
	p.i = i
	if h.numeric {
		p.nodes = nodes
		return p.numericHops(nodes)
	}
	return len(p.hops) > 0
}

// wordNames turns on namePath's reading of a list written as wormlab gen
// writes it a name to a word (numericNames, keyedNames): a variable so that a
// test can compare it with the loop.
var wordNames = true

// wordName reads the name whose opening quote is data[i] when it has 1 to 7
// bytes and the byte after its closing quote lies within data: its length k
// and the 8-byte word from its first byte (the closing quote found as nameAt
// finds it).
func wordName(data []byte, i int) (k int, w uint64, ok bool) {
	if i+10 > len(data) || data[i] != '"' {
		return 0, 0, false
	}
	w = binary.LittleEndian.Uint64(data[i+1:])
	k = bits.TrailingZeros64(zeroBytes(w^('"'*lowBits))) / 8 // 8: no quote
	return k, w, k != 0 && k != 8
}

// numericNames reads a path of numeric names (hopIndex.numeric) written the
// way wormlab gen writes them, `"12","5","310"]` from data[i] on (just after
// the '['): no whitespace, every name 1 to 7 ASCII digits without a leading
// zero and below n, each in one 8-byte word (wordName; the digits checked and
// converted 8 at once). It returns the index just after the ']' and the nodes
// appended to nodes; ok is false on anything else, which namePath's loop then
// reads from the '[' (a subset of what that loop reads, with the same nodes):
// on the 10^5-node tree that loop took about 200 instructions a name.
func numericNames(data []byte, i int, nodes []int32, n int) (end int, out []int32, ok bool) {
	const (
		nibbles = 0x0F0F0F0F0F0F0F0F
		highs   = 0xF0F0F0F0F0F0F0F0
		zeros   = '0' * lowBits
	)
	for {
		k, w, ok := wordName(data, i)
		if !ok {
			return 0, nodes, false
		}
		m := uint64(1)<<(8*k) - 1
		// Each byte 0x30-0x39: its high nibble 3, and still 3 after adding 6
		// (no byte carries into the next: each is at most 0x3F + 6).
		if w&highs&m != zeros&m || (w+6*lowBits)&highs&m != zeros&m || (k > 1 && byte(w) == '0') {
			return 0, nodes, false
		}
		// The digits, most significant in the lowest byte, moved up so that
		// the bytes below are leading zeros; then pairs, fours and eights
		// of digits combined.
		x := (w & nibbles & m) << (64 - 8*uint(k))
		x = (x * (10<<8 + 1)) >> 8 & 0x00FF00FF00FF00FF
		x = (x * (100<<16 + 1)) >> 16 & 0x0000FFFF0000FFFF
		x = (x * (10000<<32 + 1)) >> 32
		if x >= uint64(n) {
			return 0, nodes, false
		}
		nodes = append(nodes, int32(x))
		switch i += k + 2; data[i] { // the byte after the closing quote
		case ',':
			i++
		case ']':
			return i + 1, nodes, true
		default:
			return 0, nodes, false
		}
	}
}

// keyedNames reads a path of names written the way wormlab gen writes them,
// `"0,1","1,1","2,1"]` from data[i] on (just after the '['): no whitespace,
// every name 1 to 7 bytes, in one 8-byte word (wordName), with nameAt's tests
// of what rawStr declines and its key; the first name found by the network's
// index, each next among the out-edges of the node before (hopIndex.find), as
// namePath's loop does. It appends the hops to p.hops and returns the index
// just after the ']'; ok is false, p.hops as they were, on anything else and
// on a path of one name, which namePath's loop then reads from the '[': on
// the 32 x 32 mesh that loop took about 290 instructions a name.
func (p *fastScanner) keyedNames(net *Network, i int) (end int, ok bool) {
	data, h, n0 := p.data, p.hop, len(p.hops)
	var lo, hi int32 // the out-edges of the node before
	for first := true; ; first = false {
		k, w, ok := wordName(data, i)
		if !ok {
			break
		}
		m := uint64(1)<<(8*k) - 1
		if badBytes(w)&m != 0 {
			break
		}
		if first {
			cur, known := net.index[string(data[i+1:i+1+k])]
			if !known {
				break
			}
			lo, hi = h.start[cur], h.start[cur+1]
		} else {
			j, n := h.find(lo, hi, w&m|uint64(k)<<56, nil)
			if n != 1 {
				break
			}
			o := &h.out[j]
			p.hops = append(p.hops, int(o.edge))
			lo, hi = o.lo, o.hi
		}
		i += k + 2 // the byte after the closing quote
		if data[i] == ']' && len(p.hops) > n0 {
			return i + 1, true
		}
		if data[i] != ',' {
			break
		}
		i++
	}
	p.hops = p.hops[:n0]
	return 0, false
}

// isSpace reports whether c is JSON whitespace (namePath, space). Most bytes
// tested are not, and fail the first comparison: at 10^6 mesh paths the four
// comparisons each were 5% of wormlab color's instructions.
func isSpace(c byte) bool { return c <= ' ' && (c == ' ' || c == '\n' || c == '\t' || c == '\r') }

// Masks of the word-at-a-time tests: a byte's low bit in each byte, and its high
// bit.
const (
	lowBits  = 0x0101010101010101
	highBits = 0x8080808080808080
)

// nameAt reads the string whose bytes begin at start (just after its opening
// quote) as rawStr does, and returns the index just after its closing quote and
// the string's key (nameKey); ok is false where rawStr declines (an escape, a
// control character, invalid UTF-8, no closing quote). A name of at most 7
// bytes, the common case, is read in one 8-byte word: the first quote is the
// lowest byte the zero-byte test flags in the word xored with quotes (a flag
// above a true zero can be false, the lowest cannot), and the bytes before it
// must have no flag of the tests for a control character, a backslash and a
// byte of 0x80 or more (each test's lowest flag is again true, so that a false
// flag below the quote comes with a true one). Longer names, or words past the
// end of data, are read a byte at a time (strEnd).
func nameAt(data []byte, start int) (end int, key uint64, ok bool) {
	if start+8 <= len(data) {
		w := binary.LittleEndian.Uint64(data[start:])
		quote := zeroBytes(w ^ ('"' * lowBits))
		if quote != 0 {
			n := bits.TrailingZeros64(quote) / 8 // the name's length, at most 7
			if below := uint64(1)<<(8*n) - 1; badBytes(w)&below == 0 {
				return start + n + 1, w&below | uint64(n)<<56, true
			}
		}
	}
	i, ok := strEnd(data, start)
	if !ok {
		return 0, 0, false
	}
	return i + 1, nameKey(data[start:i]), true
}

// zeroBytes flags the zero bytes of x: the lowest flag is a zero byte; a flag
// above a true one can be false.
func zeroBytes(x uint64) uint64 { return (x - lowBits) & ^x & highBits }

// badBytes flags the bytes of w that a name read by the word may not hold (a
// control character, a backslash, a byte of 0x80 or more): as zeroBytes, the
// lowest flag of each test is true, so that a false flag below the closing
// quote comes with a true one.
func badBytes(w uint64) uint64 {
	return (w-0x20*lowBits)&^w&highBits | zeroBytes(w^('\\'*lowBits)) | w&highBits
}

// strEnd returns the index of the closing quote of the string whose bytes begin
// at start (just after its opening quote); ok is false on an escape, a control
// character (JSON allows none), invalid UTF-8 (which encoding/json would read as
// U+FFFD) or no closing quote: rawStr's and nameAt's reading a byte at a time.
func strEnd(data []byte, start int) (end int, ok bool) {
	high := false
	for i := start; i < len(data); i++ {
		switch c := data[i]; {
		case c == '"':
			if high && !utf8.Valid(data[start:i]) {
				return 0, false
			}
			return i, true
		case c == '\\' || c < 0x20:
			return 0, false
		case c >= 0x80:
			high = true
		}
	}
	return 0, false
}

// numericHops appends the hops between the nodes of a path (numeric names) to
// p.hops, first every name into its node, then every hop into its edge: a hop's
// lookup depends on the text alone, not on the hop before it, so the processor
// can look up several at once (one name after another, each lookup waited for
// the one before: a cache miss a hop, most of the reading at 10^6 paths). It
// returns false, as the general loop does, on two nodes with no single edge
// between them and on a walk of no hop.
func (p *fastScanner) numericHops(nodes []int32) bool {
	if len(nodes) < 2 { // a walk of no hop: the general reader names it
		return false
	}
	h := p.hop
	if h.pairs == nil && h.tree == nil {
		// Touch every hop's first out-edge in a loop with no branch on the
		// data, so that the misses overlap; the lookups below then find them in
		// the cache.
		var touch int32
		for _, u := range nodes[:len(nodes)-1] {
			if j := h.start[u]; j < int32(len(h.out)) {
				touch += h.out[j].to
			}
		}
		p.touched += touch
	}
	for k := 1; k < len(nodes); k++ {
		var e int32
		var n int
		switch {
		case h.tree != nil:
			e, n = h.tree.edge(nodes[k-1], nodes[k])
		case h.pairs != nil:
			e, n = h.pairs.edge(nodes[k-1], nodes[k])
		default:
			e, n = h.edgeTo(nodes[k-1], nodes[k])
		}
		if n != 1 {
			return false
		}
		p.hops = append(p.hops, int(e))
	}
	return true
}

// find returns the entry of an out-edge among entries lo .. hi-1 (a node's
// out-edges) whose head is named name (of key k, nameKey), and how many such
// edges there are (through nodes of that name: more than one node of a name is
// an invalid network, which validation rejects).
func (h *hopIndex) find(lo, hi int32, k uint64, name []byte) (j int32, count int) {
	for i := lo; i < hi; i++ {
		o := &h.out[i]
		if o.key == k && (len(name) < 8 || h.net.Nodes[o.to] == string(name)) {
			if count == 0 {
				j = i
			}
			count++
		}
	}
	return j, count
}

func (p *fastScanner) space() {
	for p.i < len(p.data) && isSpace(p.data[p.i]) {
		p.i++
	}
}

func (p *fastScanner) byte(c byte) bool {
	if p.i < len(p.data) && p.data[p.i] == c {
		p.i++
		return true
	}
	return false
}

// str reads a string without escapes.
func (p *fastScanner) str() (string, bool) {
	b, ok := p.rawStr()
	return string(b), ok
}

// rawStr reads a string without escapes and returns its bytes (not copied). It
// declines control characters, as JSON does, and invalid UTF-8, which
// encoding/json would read as U+FFFD.
func (p *fastScanner) rawStr() ([]byte, bool) {
	if !p.byte('"') {
		return nil, false
	}
	start := p.i
	end, ok := strEnd(p.data, start)
	if !ok {
		return nil, false
	}
	p.i = end + 1
	return p.data[start:end], true
}

// int reads a plain decimal integer (no fraction, no exponent, no leading zero, as
// JSON writes it) that fits an int.
func (p *fastScanner) int() (int, bool) {
	start := p.i
	if p.i < len(p.data) && p.data[p.i] == '-' {
		p.i++
	}
	if p.i+1 < len(p.data) && p.data[p.i] == '0' && p.data[p.i+1] >= '0' && p.data[p.i+1] <= '9' {
		return 0, false
	}
	for p.i < len(p.data) && p.data[p.i] >= '0' && p.data[p.i] <= '9' {
		p.i++
	}
	if p.i < len(p.data) {
		switch p.data[p.i] {
		case '.', 'e', 'E':
			return 0, false
		}
	}
	v, err := strconv.Atoi(string(p.data[start:p.i]))
	return v, err == nil
}

// object reads "{" key ":" value ("," key ":" value)* "}" or "{}", calling field with
// each key when the scanner stands at its value; field must read the value.
func (p *fastScanner) object(field func(key []byte) bool) bool {
	p.space()
	if !p.byte('{') {
		return false
	}
	p.space()
	if p.byte('}') {
		return true
	}
	for {
		p.space()
		key, ok := p.rawStr()
		if !ok {
			return false
		}
		p.space()
		if !p.byte(':') {
			return false
		}
		p.space()
		if !field(key) {
			return false
		}
		p.space()
		if p.byte('}') {
			return true
		}
		if !p.byte(',') {
			return false
		}
	}
}

// list reads "[" item ("," item)* "]" or "[]", calling item for each element.
func (p *fastScanner) list(item func() bool) bool {
	if !p.byte('[') {
		return false
	}
	p.space()
	if p.byte(']') {
		return true
	}
	return p.items(item)
}

// items reads item ("," item)* "]", the rest of a list from an item on (list,
// and the second half of a message list read on another goroutine, startSplit).
func (p *fastScanner) items(item func() bool) bool {
	for {
		p.space()
		if !item() {
			return false
		}
		p.space()
		if p.byte(']') {
			return true
		}
		if !p.byte(',') {
			return false
		}
	}
}

// splitArray returns the elements of a JSON array (already validated) as raw values,
// without copying or validating them again.
func splitArray(data []byte) ([]json.RawMessage, bool) {
	p := fastScanner{data: data}
	p.space()
	if !p.byte('[') {
		return nil, false
	}
	var out []json.RawMessage
	p.space()
	if p.byte(']') {
		return out, true
	}
	for {
		p.space()
		start := p.i
		if !p.skipValue() {
			return nil, false
		}
		out = append(out, json.RawMessage(data[start:p.i]))
		p.space()
		if p.byte(']') {
			return out, true
		}
		if !p.byte(',') {
			return nil, false
		}
	}
}

// skipValue moves past one JSON value of valid JSON. On any other text it stays
// within data and reports false at an unterminated string; where it stops on
// other invalid text means nothing, and parseInstanceFast checks what it skipped
// with json.Valid.
func (p *fastScanner) skipValue() bool {
	depth := 0
	for p.i < len(p.data) {
		switch c := p.data[p.i]; c {
		case '"':
			p.i++
			for p.i < len(p.data) && p.data[p.i] != '"' {
				if p.data[p.i] == '\\' {
					p.i++
				}
				p.i++
			}
			if p.i >= len(p.data) {
				return false // unterminated: the loop may have stepped past the end
			}
			p.i++
		case '{', '[':
			depth++
			p.i++
		case '}', ']':
			if depth == 0 {
				return true
			}
			depth--
			p.i++
		case ',':
			if depth == 0 {
				return true
			}
			p.i++
		default:
			p.i++
		}
		if depth == 0 {
			// a scalar ends at ',' ']' '}' or white space; a closed container ends here
			if p.i < len(p.data) {
				switch p.data[p.i] {
				case ',', ']', '}', ' ', '\t', '\n', '\r':
					return true
				}
			} else {
				return true
			}
		}
	}
	return depth == 0
}

// messageSink receives the messages parseFast reads: an Instance's list
// (instanceSink) or the compact Paths (pathsSink).
type messageSink interface {
	// fast takes a message of the common shape: its id (not to be kept), its path
	// (valid until the next call) and its length, 0 when it has none and the
	// instance's "flits" has not been read yet. It reports false to decline the
	// document.
	fast(in *Instance, id []byte, hops []int, flits int, asEdges bool) bool
	// general takes a message of another shape, read by parseMessage.
	general(in *Instance, m *Message) bool
	// finish gives the messages without a length the instance's flits and reports
	// whether the whole is valid (Instance.Validate).
	finish(in *Instance, flits int) bool
}

// instanceSink gathers the messages into in.Messages, their paths from one arena.
type instanceSink struct{ a pathArena }

// parseInstanceFast reads an instance of the common shape (parseFast).
func parseInstanceFast(data []byte) (*Instance, bool) {
	var s instanceSink
	return parseFast(data, &s)
}

func (s *instanceSink) fast(in *Instance, id []byte, hops []int, flits int, asEdges bool) bool {
	in.Messages = append(in.Messages, Message{ID: string(id), Path: s.a.copy(hops), L: flits, AsEdges: asEdges})
	return true
}

func (s *instanceSink) general(in *Instance, m *Message) bool {
	in.Messages = append(in.Messages, *m)
	return true
}

func (s *instanceSink) finish(in *Instance, flits int) bool {
	for i := range in.Messages {
		if in.Messages[i].L == 0 {
			in.Messages[i].L = flits
		}
	}
	return in.Validate() == nil
}

// parseFast reads an instance whose top-level keys and message objects are of the
// common shape (parseMessageFast; a message of another shape is read by
// parseMessage once encoding/json finds it valid), checking the JSON as it reads:
// the grammar of the top-level object and of the message list, each message by the
// scanner, every other value with json.Valid. It hands the messages to sink and
// returns the instance without them (with them for instanceSink). It reports ok =
// false on anything else (a repeated or escaped top-level key, invalid JSON, any
// error), and the caller then runs the general path, which gives the error
// messages. It reads the messages in place, without a copy of the text.
func parseFast(data []byte, sink messageSink) (*Instance, bool) {
	p := fastScanner{data: data}
	top := map[string]json.RawMessage{}
	var extra Extra
	var in *Instance
	n := 0 // messages read
	// A message without "flits" is given 0 while the top-level "flits" may still
	// be ahead, and the default afterwards.
	readMessages := func() bool {
		if in == nil {
			var err error
			if in, err = parseTop(top, extra); err != nil {
				return false
			}
			in.Flits, in.Messages = 0, []Message{}
		}
		p.hop = newHopIndex(in.Net)
		var sp *split
		if fs, forks := sink.(forkSink); forks {
			sp = startSplit(&p, in, fs)
		}
		defer func() {
			if sp != nil {
				sp.finish(false)
			}
		}()
		return p.list(func() bool {
			start := p.i
			if sp != nil && start >= sp.at {
				m, end, ok := sp.finish(start == sp.at)
				sp = nil
				if ok {
					splitJoins.Add(1)
					n += m
					p.i = end
					return true
				}
			}
			id, flits, asEdges, ok := p.rawMessage(in)
			if ok {
				n++
				return sink.fast(in, id, p.hops, flits, asEdges)
			}
			// p reads data, or the saved list when it came before the
			// network: slice what p reads.
			p.i = start
			if !p.skipValue() || !json.Valid(p.data[start:p.i]) {
				return false
			}
			var m Message
			if parseMessage(in, n, p.data[start:p.i], &m) != nil {
				return false
			}
			n++
			return sink.general(in, &m)
		})
	}
	ok := p.object(func(key []byte) bool {
		k := string(key)
		if _, dup := top[k]; dup || extra[k] != nil {
			return false
		}
		start := p.i
		if k == "messages" && top["network"] != nil {
			top[k] = json.RawMessage{}
			return readMessages()
		}
		if !p.skipValue() || !json.Valid(data[start:p.i]) {
			return false
		}
		raw := data[start:p.i]
		switch k {
		case "name", "network", "flits", "messages":
			top[k] = raw
		default:
			if extra == nil {
				extra = Extra{}
			}
			extra[k] = bytes.Clone(raw)
		}
		return true
	})
	if !ok {
		return nil, false
	}
	p.space()
	if p.i != len(data) {
		return nil, false
	}
	raw, ok := top["messages"]
	if !ok {
		return nil, false
	}
	if len(raw) > 0 {
		// The list came before the network: read it now.
		p = fastScanner{data: raw}
		if !readMessages() {
			return nil, false
		}
		if p.space(); p.i != len(raw) {
			return nil, false
		}
	}
	flits := 1
	if raw, ok := top["flits"]; ok && (field(raw, "instance", "flits", &flits) != nil || flits < 1) {
		return nil, false
	}
	in.Flits, in.Extra = flits, extra
	if raw, ok := top["name"]; ok && field(raw, "instance", "name", &in.Name) != nil {
		return nil, false
	}
	// top's values alias data: keep none of them.
	if !sink.finish(in, flits) {
		return nil, false
	}
	return in, true
}

// placeName returns the number b spells when it is the name of one of n nodes
// named by their places ("0" .. "n-1": digits, no leading zero, below n).
func placeName(b []byte, n int) (u int, ok bool) {
	if len(b) == 0 || len(b) > 18 || (b[0] == '0' && len(b) > 1) {
		return 0, false
	}
	for _, c := range b {
		if c < '0' || c > '9' {
			return 0, false
		}
		u = 10*u + int(c-'0')
	}
	return u, u < n
}

// parseNetworkFast reads a network object of the common shape, {"nodes": [names],
// "edges": [[from, to], ...]} with any other fields kept in Extra, as
// parseNetwork reads it, checking the JSON as it reads; ok is false, and the
// caller runs parseNetwork's general reading (which gives the errors), on a
// repeated key, an escape in a key or a name, a null, a repeated node, an edge
// naming a node not listed, and anything else. It exists because the general
// reading decodes the object three times with encoding/json and adds the nodes
// and edges one at a time (a sixth of the reading of 10^6 tree paths, on a
// network of 10^5 nodes): here the names are read in place, the nodes' names
// share one string, and the name index is built once, as the names are read
// (the lists after it, buildLists).
func parseNetworkFast(data []byte) (net *Network, ok bool) {
	p := fastScanner{data: data}
	var (
		names, ends        [][]byte // the nodes' names; the edges' ends, two an edge
		hasNodes, hasEdges bool
		extra              Extra
	)
	str := func(to *[][]byte) bool {
		b, ok := p.rawStr()
		*to = append(*to, b)
		return ok
	}
	ok = p.object(func(key []byte) bool {
		switch k := string(key); {
		case k == "nodes" && !hasNodes:
			hasNodes = true
			return p.list(func() bool { return str(&names) })
		case k == "edges" && !hasEdges:
			hasEdges = true
			return p.list(func() bool {
				n := len(ends)
				return p.list(func() bool { return str(&ends) }) && len(ends) == n+2
			})
		case k == "nodes" || k == "edges" || extra[k] != nil:
			return false
		default:
			start := p.i
			if !p.skipValue() || !json.Valid(data[start:p.i]) {
				return false
			}
			if extra == nil {
				extra = Extra{}
			}
			extra[k] = bytes.Clone(data[start:p.i])
			return true
		}
	})
	if p.space(); !ok || p.i != len(data) {
		return nil, false
	}
	if len(names) == 0 && len(ends) == 0 {
		return &Network{Extra: extra}, true
	}
	size := 0
	for _, b := range names {
		size += len(b)
	}
	all := make([]byte, 0, size)
	for _, b := range names {
		all = append(all, b...)
	}
	text := string(all)
	net = &Network{Extra: extra, index: make(map[string]int, len(names))}
	at := 0
	for u, b := range names {
		name := text[at : at+len(b)]
		at += len(b)
		if _, dup := net.index[name]; dup {
			return nil, false
		}
		net.Nodes = append(net.Nodes, name)
		net.index[name] = u
	}
	if len(ends) > 0 {
		net.Edges = make([]Edge, len(ends)/2)
	}
	// Nodes named by their places, "0" .. "n-1" (wormlab gen's trees): an
	// end's node is its name read as a number, where the index's lookups took
	// a quarter of the network's reading at 10^5 nodes.
	numeric := len(names) > 0
	var buf []byte
	for u, b := range names {
		if buf = strconv.AppendInt(buf[:0], int64(u), 10); !bytes.Equal(buf, b) {
			numeric = false
			break
		}
	}
	for e := range net.Edges {
		for j, b := range ends[2*e : 2*e+2] {
			var u int
			var known bool
			if numeric {
				u, known = placeName(b, len(names))
			} else {
				u, known = net.index[string(b)]
			}
			if !known {
				if hasNodes {
					return nil, false
				}
				u = len(net.Nodes)
				net.Nodes = append(net.Nodes, string(b))
				net.index[net.Nodes[u]] = u
			}
			if j == 0 {
				net.Edges[e].From = u
			} else {
				net.Edges[e].To = u
			}
		}
	}
	net.buildLists() // the index is built (ensureIndex would build it again)
	return net, true
}
