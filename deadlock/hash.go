package deadlock

// Two open-addressing hash tables for the state graph's construction (graph.go):
// Go maps keyed by a 48-byte state spent 45% of the enumeration in hashing and
// growth (issue 24's profile). Both use linear probing on power-of-two tables kept
// at most half full.

import "unsafe"

const stateSize = int(unsafe.Sizeof(state{}))

// mix is a 64-bit finaliser (splitmix64's).
func mix(x uint64) uint64 {
	x ^= x >> 30
	x *= 0xbf58476d1ce4e5b9
	x ^= x >> 27
	x *= 0x94d049bb133111eb
	x ^= x >> 31
	return x
}

// stateTable maps the states of one source-destination pair to their classes;
// reset empties it in O(1) by a generation stamp.
type stateTable struct {
	keys  []state
	vals  []int32
	stamp []uint32
	gen   uint32
	n     int
}

func (t *stateTable) init(size int) {
	t.keys = make([]state, size)
	t.vals = make([]int32, size)
	t.stamp = make([]uint32, size)
	t.gen = 1
	t.n = 0
}

func (t *stateTable) reset() {
	t.gen++
	t.n = 0
	if t.gen == 0 {
		clear(t.stamp)
		t.gen = 1
	}
}

func (t *stateTable) bytes() int64 { return int64(len(t.keys)) * int64(stateSize+8) }

// hashState multiplies the state's six 64-bit words by odd constants, sums them
// and mixes the sum once.
func hashState(s *state) uint64 {
	w := (*[6]uint64)(unsafe.Pointer(s))
	x := w[0]*0x9e3779b97f4a7c15 + w[1]*0xc2b2ae3d27d4eb4f + w[2]*0x165667b19e3779f9 +
		w[3]*0xd6e8feb86659fd93 + w[4]*0xff51afd7ed558ccd + w[5]*0xc4ceb9fe1a85ec53
	return mix(x)
}

func (t *stateTable) get(s *state) (int32, bool) {
	m := uint64(len(t.keys) - 1)
	for i := hashState(s) & m; ; i = (i + 1) & m {
		if t.stamp[i] != t.gen {
			return 0, false
		}
		if t.keys[i] == *s {
			return t.vals[i], true
		}
	}
}

func (t *stateTable) put(s *state, v int32) {
	if 2*(t.n+1) > len(t.keys) {
		t.grow()
	}
	m := uint64(len(t.keys) - 1)
	for i := hashState(s) & m; ; i = (i + 1) & m {
		if t.stamp[i] != t.gen {
			t.keys[i], t.vals[i], t.stamp[i] = *s, v, t.gen
			t.n++
			return
		}
		if t.keys[i] == *s {
			t.vals[i] = v
			return
		}
	}
}

func (t *stateTable) grow() {
	keys, vals, stamp, gen := t.keys, t.vals, t.stamp, t.gen
	t.init(2 * len(keys))
	for i := range keys {
		if stamp[i] == gen {
			t.put(&keys[i], vals[i])
		}
	}
}

// sigTable interns signatures (slices of int32) and numbers them in order of
// first appearance. A slot holds the hash and the class, so that a probe reads one
// array until the hashes match.
type sigTable struct {
	slot []sigSlot
	off  []int32 // class c's signature is pool[off[c]:off[c+1]]
	pool []int32
	n    int
}

type sigSlot struct {
	hash  uint64
	class int32 // class + 1, 0 empty
}

func (t *sigTable) init(size int) {
	t.slot = make([]sigSlot, size)
	t.off = []int32{0}
}

func (t *sigTable) bytes() int64 {
	return int64(len(t.slot))*16 + int64(len(t.off))*4 + int64(len(t.pool))*4
}

func hashSig(sig []int32) uint64 {
	x := uint64(len(sig))
	for _, v := range sig {
		x = (x ^ uint64(uint32(v))) * 0x100000001b3
		x ^= x >> 29
	}
	return mix(x)
}

// intern returns the class of sig, numbering it next (the number of classes so
// far) when it is new.
func (t *sigTable) intern(sig []int32, next int32) (class int32, fresh bool) {
	if 2*(t.n+1) > len(t.slot) {
		t.grow()
	}
	hv := hashSig(sig)
	m := uint64(len(t.slot) - 1)
	for i := hv & m; ; i = (i + 1) & m {
		s := &t.slot[i]
		if s.class == 0 {
			s.hash, s.class = hv, next+1
			t.pool = append(t.pool, sig...)
			t.off = append(t.off, int32(len(t.pool)))
			t.n++
			return next, true
		}
		if s.hash == hv {
			c := s.class - 1
			if old := t.pool[t.off[c]:t.off[c+1]]; len(old) == len(sig) && equal(old, sig) {
				return c, false
			}
		}
	}
}

func equal(a, b []int32) bool {
	b = b[:len(a)]
	for i, v := range a {
		if b[i] != v {
			return false
		}
	}
	return true
}

func (t *sigTable) grow() {
	old := t.slot
	t.slot = make([]sigSlot, 2*len(old))
	m := uint64(len(t.slot) - 1)
	for _, s := range old {
		if s.class == 0 {
			continue
		}
		i := s.hash & m
		for t.slot[i].class != 0 {
			i = (i + 1) & m
		}
		t.slot[i] = s
	}
}

// hashState reads a state as six 64-bit words.
var _ = [1]struct{}{}[stateSize-48]
