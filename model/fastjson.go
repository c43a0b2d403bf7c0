package model

import (
	"encoding/json"
	"strconv"
)

// parseMessageFast reads the common shape of a message object quickly:
//
//	{"id": "m0", "path": ["a", "b"]}   or   {"id": "m0", "edges": [0, 1], "flits": 3}
//
// with keys in any order, strings without escapes and nothing else. It reports
// ok = false, having changed nothing, on anything it does not recognise (an extra
// field, an escape, a null, a number where a string belongs, a second "path" ...);
// the caller then parses the message with the general decoder, which also produces
// the error messages. data must be valid JSON (the caller's decoder has checked it).
// It exists because the general decoder validates nested values once per level,
// which made large instances parse at a few MB/s.
func parseMessageFast(in *Instance, data []byte, m *Message) (ok bool) {
	var (
		id                               string
		nodePath, edges                  []int
		flits                            = in.Flits
		hasID, hasPath, hasEdges, hasFls bool
		edgeBuf                          [64]int
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
			// do not allocate.
			net := in.Net
			net.ensureIndex()
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
					nodePath = append(nodePath, e)
				}
				prev = cur
				return true
			})
			return ok && len(nodePath) > 0
		case "edges":
			if hasEdges {
				return false
			}
			hasEdges = true
			edges = edgeBuf[:0]
			ok = p.list(func() bool {
				v, ok := p.int()
				edges = append(edges, v)
				return ok
			})
			return ok && len(edges) > 0
		}
		return false
	})
	if !ok || !hasID || hasPath == hasEdges {
		return false
	}
	path := nodePath
	if hasEdges {
		path = append([]int(nil), edges...)
	}
	*m = Message{ID: id, Path: path, L: flits, AsEdges: hasEdges}
	return true
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
	data []byte
	i    int
}

func (p *fastScanner) space() {
	for p.i < len(p.data) {
		switch p.data[p.i] {
		case ' ', '\t', '\n', '\r':
			p.i++
		default:
			return
		}
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

// rawStr reads a string without escapes and returns its bytes (not copied).
func (p *fastScanner) rawStr() ([]byte, bool) {
	if !p.byte('"') {
		return nil, false
	}
	start := p.i
	for p.i < len(p.data) {
		switch c := p.data[p.i]; {
		case c == '"':
			b := p.data[start:p.i]
			p.i++
			return b, true
		case c == '\\' || c < 0x20:
			return nil, false
		}
		p.i++
	}
	return nil, false
}

// int reads a plain decimal integer (no fraction, no exponent) that fits an int.
func (p *fastScanner) int() (int, bool) {
	start := p.i
	if p.i < len(p.data) && p.data[p.i] == '-' {
		p.i++
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

// skipValue moves past one JSON value of valid JSON.
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
