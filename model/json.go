package model

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"sort"
	"strings"
)

// maxInputBytes bounds what ReadInstance and ReadSchedule accept (1 GiB).
const maxInputBytes = 1 << 30

// mapMin is the least file ReadPaths maps into memory instead of reading
// (mapText); a test lowers it.
var mapMin = 1 << 20

// fastReaders turns on the fast readers of instances (parseFast,
// parseNetworkFast, parseMessageFast); a test turns them off to read each text
// with encoding/json alone (TestFastReadersAreGeneral).
var fastReaders = true

// fastOr reads data with fast where the fast readers are on and fast takes it,
// else (and for every error) with general.
func fastOr[T any](data []byte, fast func([]byte) (T, bool), general func([]byte) (T, error)) (T, error) {
	if fastReaders {
		if v, ok := fast(data); ok {
			return v, nil
		}
	}
	return general(data)
}

// splitObject decodes a JSON object into the known fields and the rest.
func splitObject(data []byte, what string, known ...string) (map[string]json.RawMessage, Extra, error) {
	var all map[string]json.RawMessage
	if err := json.Unmarshal(data, &all); err != nil {
		return nil, nil, fmt.Errorf("%s: %s", what, jsonErr(err))
	}
	if all == nil {
		return nil, nil, fmt.Errorf("%s: want a JSON object, got null", what)
	}
	if objectKeys(data) != len(all) {
		// encoding/json keeps a repeated key's last value, which a reader that
		// keeps the first would read as another instance, schedule or message.
		return nil, nil, fmt.Errorf("%s: key %q appears twice", what, repeatedKey(data))
	}
	got := make(map[string]json.RawMessage)
	var extra Extra
	for k, v := range all {
		isKnown := false
		for _, kk := range known {
			if k == kk {
				isKnown = true
				break
			}
		}
		if isKnown {
			got[k] = v
		} else {
			if extra == nil {
				extra = Extra{}
			}
			extra[k] = v
		}
	}
	return got, extra, nil
}

// objectKeys counts the keys of the JSON object data (valid JSON): the colons
// outside strings at depth 1. Keys spelt with escapes are counted as written, so
// a count above the number of distinct keys means a key appears twice.
func objectKeys(data []byte) int {
	depth, n := 0, 0
	for i := 0; i < len(data); i++ {
		switch data[i] {
		case '"':
			// Skip the string: a backslash escapes the byte after it.
			for i++; i < len(data) && data[i] != '"'; i++ {
				if data[i] == '\\' {
					i++
				}
			}
		case '{', '[':
			depth++
		case '}', ']':
			depth--
		case ':':
			if depth == 1 {
				n++
			}
		}
	}
	return n
}

// repeatedKey returns the first key of the JSON object data (valid JSON) that
// appears a second time, unescaped, or "" when none does.
func repeatedKey(data []byte) string {
	dec := json.NewDecoder(bytes.NewReader(data))
	if _, err := dec.Token(); err != nil {
		return ""
	}
	seen := map[string]bool{}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return ""
		}
		k, _ := tok.(string)
		if seen[k] {
			return k
		}
		seen[k] = true
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil {
			return ""
		}
	}
	return ""
}

// jsonErr shortens encoding/json's messages to what a user needs.
func jsonErr(err error) string {
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	switch {
	case errors.As(err, &se):
		return fmt.Sprintf("invalid JSON at byte %d: %v", se.Offset, se)
	case errors.As(err, &te):
		return fmt.Sprintf("want %s, got JSON %s", goTypeName(te.Type.String()), te.Value)
	}
	return "invalid JSON: " + err.Error()
}

func goTypeName(t string) string {
	switch {
	case strings.HasPrefix(t, "[]"):
		return "a list"
	case strings.HasPrefix(t, "map"):
		return "an object"
	case t == "int":
		return "an integer"
	case t == "string":
		return "a string"
	case t == "bool":
		return "true or false"
	}
	return t
}

func field(raw json.RawMessage, what, name string, dst any) error {
	// encoding/json leaves the destination unchanged on null, which would read a
	// null as the field's zero value or default: reject it instead.
	if bytes.Equal(bytes.TrimSpace(raw), []byte("null")) {
		return fmt.Errorf("%s: field %q: want %s, got null", what, name, goTypeName(strings.TrimPrefix(fmt.Sprintf("%T", dst), "*")))
	}
	if err := json.Unmarshal(raw, dst); err != nil {
		return fmt.Errorf("%s: field %q: %s", what, name, jsonErr(err))
	}
	return nil
}

// readAll reads r, refusing more than maxInputBytes (readWithin).
func readAll(r io.Reader) ([]byte, error) {
	data, err := readWithin(r, maxInputBytes)
	if tl := (*TooLargeError)(nil); errors.As(err, &tl) {
		if tl.Size >= 0 {
			return nil, tooLarge(tl.Size)
		}
		return nil, fmt.Errorf("more than 1 GiB (%d bytes), the most an input may have", maxInputBytes)
	}
	return data, err
}

// TooLargeError is the refusal of an input of more than Limit bytes. Size is
// the input's size where it was known before reading (a regular file), else -1.
type TooLargeError struct{ Size, Limit int64 }

func (e *TooLargeError) Error() string {
	if e.Size >= 0 {
		return fmt.Sprintf("%d bytes, more than %d", e.Size, e.Limit)
	}
	return fmt.Sprintf("more than %d bytes", e.Limit)
}

// ReadWithin reads r whole, refusing more than limit bytes, so that a file from
// /dev/zero or a pipe that never closes is refused once that much has come, not
// read until the process is killed (docs/cli.md, Memory); what names the input
// in the refusal ("more than N bytes, the most a proof may have"). It reads as
// the instance readers do (readWithin).
func ReadWithin(r io.Reader, limit int64, what string) ([]byte, error) {
	data, err := readWithin(r, limit)
	if tl := (*TooLargeError)(nil); errors.As(err, &tl) {
		return nil, fmt.Errorf("%v, the most %s may have", tl, what)
	}
	return data, err
}

// readWithin reads r whole, refusing more than limit bytes with a
// *TooLargeError: into one buffer of the file's size when r is a regular file
// that can tell it (an *os.File), instead of io.ReadAll's doublings, which held
// up to twice the text at once, and a file larger than limit is refused before
// it is read; anything else by io.ReadAll, which grows by about a quarter at a
// time, so about 1.25 times limit at most is held before the refusal.
func readWithin(r io.Reader, limit int64) ([]byte, error) {
	if st, ok := r.(interface{ Stat() (fs.FileInfo, error) }); ok {
		if fi, err := st.Stat(); err == nil && fi.Mode().IsRegular() {
			if fi.Size() > limit {
				return nil, &TooLargeError{fi.Size(), limit}
			}
			// bytes.Buffer reads with at least bytes.MinRead free at the end.
			b := bytes.NewBuffer(make([]byte, 0, fi.Size()+bytes.MinRead))
			if _, err := b.ReadFrom(io.LimitReader(r, limit+1)); err != nil {
				return nil, err
			}
			return within(b.Bytes(), limit)
		}
	}
	data, err := io.ReadAll(io.LimitReader(r, limit+1))
	if err != nil {
		return nil, err
	}
	return within(data, limit)
}

// within returns data, or the refusal of more than limit bytes (data then
// holds one byte more, as readWithin reads).
func within(data []byte, limit int64) ([]byte, error) {
	if int64(len(data)) > limit {
		return nil, &TooLargeError{-1, limit}
	}
	return data, nil
}

func tooLarge(size int64) error {
	return fmt.Errorf("%d bytes: more than 1 GiB (%d bytes), the most an input may have", size, maxInputBytes)
}

// ReadInstance reads and validates an instance in the JSON format of MODEL.md.
func ReadInstance(r io.Reader) (*Instance, error) {
	data, err := readAll(r)
	if err != nil {
		return nil, fmt.Errorf("instance: %v", err)
	}
	return ParseInstance(data)
}

// ParseInstance parses and validates an instance in the JSON format of MODEL.md.
//
// A document of the common shape is read by parseInstanceFast in one pass that
// checks the JSON as it goes; anything else, and every error, goes through
// encoding/json (parseInstanceGeneral), so both read a document the same way and
// the error messages are the general path's.
func ParseInstance(data []byte) (*Instance, error) {
	return fastOr(data, parseInstanceFast, parseInstanceGeneral)
}

func parseInstanceGeneral(data []byte) (*Instance, error) {
	top, extra, err := splitObject(data, "instance", "name", "network", "flits", "messages")
	if err != nil {
		return nil, err
	}
	in, err := parseTop(top, extra)
	if err != nil {
		return nil, err
	}
	raw, ok := top["messages"]
	if !ok {
		return nil, fmt.Errorf("instance: missing field \"messages\"")
	}
	// The top-level decode has validated raw; split it without a second pass.
	msgs, ok := splitArray(raw)
	if !ok {
		if err := field(raw, "instance", "messages", &msgs); err != nil {
			return nil, err
		}
	}
	in.Messages = make([]Message, len(msgs))
	var a pathArena
	for i, mraw := range msgs {
		if fastReaders && parseMessageFast(in, mraw, &in.Messages[i], &a) {
			continue
		}
		if err := parseMessage(in, i, mraw, &in.Messages[i]); err != nil {
			return nil, err
		}
	}
	if err := in.Validate(); err != nil {
		return nil, err
	}
	return in, nil
}

// parseTop reads an instance's fields other than its messages.
func parseTop(top map[string]json.RawMessage, extra Extra) (*Instance, error) {
	in := &Instance{Extra: extra, Flits: 1}
	if raw, ok := top["name"]; ok {
		if err := field(raw, "instance", "name", &in.Name); err != nil {
			return nil, err
		}
	}
	if raw, ok := top["flits"]; ok {
		if err := field(raw, "instance", "flits", &in.Flits); err != nil {
			return nil, err
		}
		if in.Flits < 1 {
			return nil, fmt.Errorf("instance: field \"flits\": %d is below 1", in.Flits)
		}
	}
	raw, ok := top["network"]
	if !ok {
		return nil, fmt.Errorf("instance: missing field \"network\"")
	}
	var err error
	if in.Net, err = parseNetwork(raw); err != nil {
		return nil, err
	}
	return in, nil
}

func parseNetwork(data []byte) (*Network, error) {
	return fastOr(data, parseNetworkFast, parseNetworkGeneral)
}

// parseNetworkGeneral is parseNetwork through encoding/json, for any network
// object, with the errors.
func parseNetworkGeneral(data []byte) (*Network, error) {
	const what = "instance: network"
	f, extra, err := splitObject(data, what, "nodes", "edges")
	if err != nil {
		return nil, err
	}
	net := &Network{Extra: extra}
	var nodes []string
	if raw, ok := f["nodes"]; ok {
		if err := field(raw, what, "nodes", &nodes); err != nil {
			return nil, err
		}
	}
	for _, name := range nodes {
		if _, dup := net.Node(name); dup {
			return nil, fmt.Errorf("%s: duplicate node %q", what, name)
		}
		net.AddNode(name)
	}
	var edges [][]string
	if raw, ok := f["edges"]; ok {
		if err := field(raw, what, "edges", &edges); err != nil {
			return nil, err
		}
	}
	for e, pair := range edges {
		if len(pair) != 2 {
			return nil, fmt.Errorf("%s: edge %d: want [from, to], got %d names", what, e, len(pair))
		}
		var ends [2]int
		for j, name := range pair {
			i, ok := net.Node(name)
			if !ok {
				if nodes != nil {
					return nil, fmt.Errorf("%s: edge %d: unknown node %q", what, e, name)
				}
				i = net.AddNode(name)
			}
			ends[j] = i
		}
		net.AddEdge(ends[0], ends[1])
	}
	return net, nil
}

func parseMessage(in *Instance, i int, data []byte, m *Message) error {
	what := fmt.Sprintf("instance: message #%d", i)
	f, extra, err := splitObject(data, what, "id", "path", "edges", "flits")
	if err != nil {
		return err
	}
	m.Extra = extra
	raw, ok := f["id"]
	if !ok {
		return fmt.Errorf("%s: missing field \"id\"", what)
	}
	if err := field(raw, what, "id", &m.ID); err != nil {
		return err
	}
	what = fmt.Sprintf("instance: message %q", m.ID)
	m.L = in.Flits
	if raw, ok := f["flits"]; ok {
		if err := field(raw, what, "flits", &m.L); err != nil {
			return err
		}
		if m.L < 1 {
			return fmt.Errorf("%s: flits %d is below 1", what, m.L)
		}
	}
	rawPath, hasPath := f["path"]
	rawEdges, hasEdges := f["edges"]
	switch {
	case hasPath && hasEdges:
		return fmt.Errorf("%s: give either \"path\" or \"edges\", not both", what)
	case hasPath:
		var names []string
		if err := field(rawPath, what, "path", &names); err != nil {
			return err
		}
		if len(names) == 0 {
			return fmt.Errorf("%s: empty path", what)
		}
		if m.Path, err = in.Net.PathFromNodes(names); err != nil {
			return fmt.Errorf("%s: %v", what, err)
		}
	case hasEdges:
		m.AsEdges = true
		if err := field(rawEdges, what, "edges", &m.Path); err != nil {
			return err
		}
		if len(m.Path) == 0 {
			return fmt.Errorf("%s: empty path", what)
		}
	default:
		return fmt.Errorf("%s: no path (want \"path\" or \"edges\")", what)
	}
	return nil
}

// objWriter writes a JSON object with keys in a fixed order, then extras sorted.
type objWriter struct {
	b     *bytes.Buffer
	first bool
	sep   string
	err   error
}

func newObj(b *bytes.Buffer, sep string) *objWriter {
	b.WriteByte('{')
	return &objWriter{b: b, first: true, sep: sep}
}

func (o *objWriter) key(k string) {
	if !o.first {
		o.b.WriteByte(',')
	}
	o.first = false
	o.b.WriteString(o.sep)
	kb, _ := json.Marshal(k)
	o.b.Write(kb)
	o.b.WriteString(": ")
}

func (o *objWriter) val(k string, v any) {
	o.key(k)
	vb, err := json.Marshal(v)
	if err != nil && o.err == nil {
		o.err = err
	}
	o.b.Write(vb)
}

func (o *objWriter) raw(k string, v []byte) {
	o.key(k)
	o.b.Write(v)
}

func (o *objWriter) extras(x Extra) {
	keys := make([]string, 0, len(x))
	for k := range x {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		var c bytes.Buffer
		if err := json.Compact(&c, x[k]); err != nil {
			if o.err == nil {
				o.err = fmt.Errorf("extra field %q: %v", k, err)
			}
			continue
		}
		o.raw(k, c.Bytes())
	}
}

func (o *objWriter) close(end string) error {
	o.b.WriteString(end)
	o.b.WriteByte('}')
	return o.err
}

// MarshalJSON writes the instance in the format of MODEL.md, one message a line.
func (in *Instance) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	o := newObj(&b, "\n  ")
	if in.Name != "" {
		o.val("name", in.Name)
	}
	o.key("network")
	nb := in.Net.marshal()
	b.Write(nb)
	flits := in.Flits
	if flits < 1 {
		flits = 1
	}
	o.val("flits", flits)
	o.key("messages")
	b.WriteByte('[')
	for i := range in.Messages {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString("\n    ")
		in.marshalMessage(&b, &in.Messages[i], flits)
	}
	if len(in.Messages) > 0 {
		b.WriteString("\n  ")
	}
	b.WriteByte(']')
	o.extras(in.Extra)
	err := o.close("\n")
	return b.Bytes(), err
}

func (n *Network) marshal() []byte {
	var b bytes.Buffer
	o := newObj(&b, "\n    ")
	nodes := n.Nodes
	if nodes == nil {
		nodes = []string{}
	}
	o.val("nodes", nodes)
	o.key("edges")
	b.WriteByte('[')
	for e, ed := range n.Edges {
		if e > 0 {
			b.WriteString(", ")
		}
		pair, _ := json.Marshal([2]string{n.Nodes[ed.From], n.Nodes[ed.To]})
		b.Write(pair)
	}
	b.WriteByte(']')
	o.extras(n.Extra)
	o.close("\n  ")
	return b.Bytes()
}

func (in *Instance) marshalMessage(b *bytes.Buffer, m *Message, flits int) {
	o := newObj(b, " ")
	o.val("id", m.ID)
	if !m.AsEdges && in.unambiguous(m.Path) {
		o.val("path", in.Net.NodesOf(m.Path))
	} else {
		o.val("edges", m.Path)
	}
	if m.L != flits {
		o.val("flits", m.L)
	}
	o.extras(m.Extra)
	o.close(" ")
}

func (in *Instance) unambiguous(path []int) bool {
	if len(path) == 0 {
		return false
	}
	for _, e := range path {
		if e < 0 || e >= len(in.Net.Edges) {
			return false
		}
		ed := in.Net.Edges[e]
		if _, n := in.Net.edgeBetween(ed.From, ed.To); n != 1 {
			return false
		}
	}
	return true
}

// WriteInstance writes the instance as JSON followed by a newline.
func WriteInstance(w io.Writer, in *Instance) error {
	data, err := in.MarshalJSON()
	if err != nil {
		return err
	}
	data = append(data, '\n')
	_, err = w.Write(data)
	return err
}
