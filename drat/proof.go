package drat

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"strconv"
)

// Format is a proof encoding.
type Format int

const (
	// Auto detects the encoding from the bytes (see the package doc).
	Auto Format = iota
	// Text is the textual DRAT format.
	Text
	// Binary is the binary DRAT format.
	Binary
)

func (f Format) String() string {
	switch f {
	case Text:
		return "text"
	case Binary:
		return "binary"
	}
	return "auto"
}

// Step is one step of a proof: an added lemma or a deleted clause. Pos locates it in
// the proof file: the 1-based line where it starts (text) or the 0-based byte offset
// of its 'a' or 'd' byte (binary).
type Step struct {
	Delete bool
	Clause []int
	Pos    int64
}

type stepRec struct {
	start, end int // literals lits[start:end]
	pos        int64
	del        bool
}

// Proof is a parsed DRAT or DRUP proof. Literals are kept in one flat slice, so a
// proof of n steps and m literals costs about 32n + 4m bytes.
type Proof struct {
	Format Format // Text or Binary, as read
	lits   []int32
	steps  []stepRec
}

// Len returns the number of steps (additions and deletions).
func (p *Proof) Len() int { return len(p.steps) }

// Step returns step i (0-based); its Clause is a fresh slice.
func (p *Proof) Step(i int) Step {
	s := p.steps[i]
	return Step{Delete: s.del, Clause: p.clause(i), Pos: s.pos}
}

func (p *Proof) clause(i int) []int {
	s := p.steps[i]
	c := make([]int, s.end-s.start)
	for k, l := range p.lits[s.start:s.end] {
		c[k] = int(l)
	}
	return c
}

// Add appends a step to the proof (for building proofs in code; Pos is the step's
// 1-based number). It panics on a zero literal, a programmer error.
func (p *Proof) Add(del bool, clause ...int) {
	start := len(p.lits)
	for _, l := range clause {
		if l == 0 || !within(l, MaxVar) {
			panic(fmt.Sprintf("drat: Proof.Add: bad literal %d", l))
		}
		p.lits = append(p.lits, int32(l))
	}
	p.steps = append(p.steps, stepRec{start: start, end: len(p.lits), pos: int64(len(p.steps) + 1), del: del})
}

// ReadProof reads a whole proof, detecting its encoding.
func ReadProof(r io.Reader) (*Proof, error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, fmt.Errorf("proof: %v", err)
	}
	return ParseProof(data, Auto)
}

// Detect returns the encoding of a proof's bytes: Binary when it starts with 'a' or
// contains a 0 byte, Text otherwise (an empty proof is Text).
func Detect(data []byte) Format {
	if len(data) > 0 && data[0] == 'a' || bytes.IndexByte(data, 0) >= 0 {
		return Binary
	}
	return Text
}

// ParseProof parses a proof in the given format (Auto detects it). Errors name the
// line (text) or byte offset (binary).
func ParseProof(data []byte, f Format) (*Proof, error) {
	if f == Auto {
		f = Detect(data)
	}
	p := &Proof{Format: f}
	if f == Binary {
		return p, p.parseBinary(data)
	}
	return p, p.parseText(data)
}

func (p *Proof) parseText(data []byte) error {
	line := int64(1)
	open := false // a step has started and not yet ended with 0
	var cur stepRec
	i := 0
	for i < len(data) {
		b := data[i]
		switch {
		case b == '\n':
			line++
			i++
		case b == ' ' || b == '\t' || b == '\r':
			i++
		case b == 'c' && !open:
			for i < len(data) && data[i] != '\n' {
				i++
			}
		case b == 'd' && !open:
			if i+1 < len(data) && !isSpace(data[i+1]) {
				return fmt.Errorf("proof: line %d: \"d\" must be followed by a space", line)
			}
			open = true
			cur = stepRec{start: len(p.lits), pos: line, del: true}
			i++
		case b == '-' || b >= '0' && b <= '9':
			j := i + 1
			for j < len(data) && data[j] >= '0' && data[j] <= '9' {
				j++
			}
			if j < len(data) && !isSpace(data[j]) {
				return fmt.Errorf("proof: line %d: %q is not a literal", line, tokenAt(data, i))
			}
			v, err := strconv.ParseInt(string(data[i:j]), 10, 64)
			if err != nil || !within(v, MaxVar) {
				return fmt.Errorf("proof: line %d: %q is not a literal", line, tokenAt(data, i))
			}
			if !open {
				open = true
				cur = stepRec{start: len(p.lits), pos: line}
			}
			if v == 0 {
				cur.end = len(p.lits)
				p.steps = append(p.steps, cur)
				open = false
			} else {
				p.lits = append(p.lits, int32(v))
			}
			i = j
		default:
			return fmt.Errorf("proof: line %d: unexpected %q", line, tokenAt(data, i))
		}
	}
	if open {
		return fmt.Errorf("proof: line %d: last step not ended by 0 (truncated proof?)", cur.pos)
	}
	return nil
}

func isSpace(b byte) bool { return b == ' ' || b == '\t' || b == '\r' || b == '\n' }

func tokenAt(data []byte, i int) string {
	j := i
	for j < len(data) && j-i < 20 && !isSpace(data[j]) {
		j++
	}
	if j == i {
		j = i + 1
	}
	return string(data[i:j])
}

func (p *Proof) parseBinary(data []byte) error {
	i := 0
	for i < len(data) {
		at := int64(i)
		var del bool
		switch data[i] {
		case 'a':
		case 'd':
			del = true
		default:
			return fmt.Errorf("proof: byte offset %d: step starts with 0x%02x, want 'a' (0x61) or 'd' (0x64)", at, data[i])
		}
		i++
		cur := stepRec{start: len(p.lits), pos: at, del: del}
		for {
			if i >= len(data) {
				return fmt.Errorf("proof: byte offset %d: step not ended by 0 (truncated proof?)", at)
			}
			var u uint64
			shift := 0
			litAt := i
			for {
				if i >= len(data) {
					return fmt.Errorf("proof: byte offset %d: literal cut off (truncated proof?)", litAt)
				}
				b := data[i]
				i++
				if shift > 28 {
					return fmt.Errorf("proof: byte offset %d: literal too large", litAt)
				}
				u |= uint64(b&0x7f) << shift
				shift += 7
				if b&0x80 == 0 {
					break
				}
			}
			if u == 0 {
				break
			}
			v := u >> 1
			if v == 0 || v > MaxVar {
				return fmt.Errorf("proof: byte offset %d: bad literal code %d", litAt, u)
			}
			l := int32(v)
			if u&1 == 1 {
				l = -l
			}
			p.lits = append(p.lits, l)
		}
		cur.end = len(p.lits)
		p.steps = append(p.steps, cur)
	}
	return nil
}

// WriteText writes the proof in the text format.
func (p *Proof) WriteText(w io.Writer) error {
	bw := bufio.NewWriter(w)
	var buf []byte
	for _, s := range p.steps {
		buf = buf[:0]
		if s.del {
			buf = append(buf, 'd', ' ')
		}
		for _, l := range p.lits[s.start:s.end] {
			buf = strconv.AppendInt(buf, int64(l), 10)
			buf = append(buf, ' ')
		}
		buf = append(buf, '0', '\n')
		bw.Write(buf)
	}
	return bw.Flush()
}

// WriteBinary writes the proof in the binary format.
func (p *Proof) WriteBinary(w io.Writer) error {
	bw := bufio.NewWriter(w)
	for _, s := range p.steps {
		if s.del {
			bw.WriteByte('d')
		} else {
			bw.WriteByte('a')
		}
		for _, l := range p.lits[s.start:s.end] {
			u := uint64(l) << 1
			if l < 0 {
				u = uint64(-l)<<1 | 1
			}
			for u >= 0x80 {
				bw.WriteByte(byte(u) | 0x80)
				u >>= 7
			}
			bw.WriteByte(byte(u))
		}
		bw.WriteByte(0)
	}
	return bw.Flush()
}
