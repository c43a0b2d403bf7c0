package model

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"io"
	"math/bits"
	"runtime"
	"slices"
	"strconv"
)

// The schedule models of MODEL.md: the two of the JSON format, and the
// store-and-forward model of packets stored whole at every node, whose schedules
// list for each message the step its packet starts to cross each edge (hop times)
// as "cross" (wormlab run --algo store writes them).
const (
	Wormhole        = "wormhole"
	Bufferless      = "bufferless"
	StoreAndForward = "store-and-forward"
)

// Times is one message's entry in a schedule: its head crossing times t_1 .. t_d and,
// for a message that never waits, its start delay (Start = t_1 - 1).
type Times struct {
	ID    string
	Cross []int
	// Start is nil when the "start" field is absent.
	Start *int
	Extra Extra
}

// Schedule is a schedule in the format of MODEL.md.
type Schedule struct {
	Model    string
	Makespan int
	// NoMakespan is set when the JSON had no "makespan" field (MODEL.md does not
	// require it); Makespan is then 0 until FillMakespan computes it.
	NoMakespan bool
	// LowerBound and Optimal are set by solvers; nil when absent.
	LowerBound *int
	Optimal    *bool
	Messages   []Times
	Extra      Extra
}

// Delivery returns the delivery time t_d + L - 1 of a message with crossing times
// cross and length l; 0 for an empty cross list.
func Delivery(cross []int, l int) int {
	if len(cross) == 0 {
		return 0
	}
	return cross[len(cross)-1] + l - 1
}

// NewSchedule builds a schedule from per-message crossing times (indexed like
// in.Messages) and computes its makespan. With model Bufferless every message gets
// its Start.
func NewSchedule(in *Instance, modelName string, cross [][]int) *Schedule {
	s := &Schedule{Model: modelName, Messages: make([]Times, len(in.Messages))}
	for i := range in.Messages {
		t := Times{ID: in.Messages[i].ID, Cross: cross[i]}
		if modelName == Bufferless && len(cross[i]) > 0 {
			st := cross[i][0] - 1
			t.Start = &st
		}
		s.Messages[i] = t
		if dl := Delivery(cross[i], in.Messages[i].L); dl > s.Makespan {
			s.Makespan = dl
		}
	}
	return s
}

// FromStarts builds the bufferless schedule t_k = s_i + k from start delays.
func FromStarts(in *Instance, starts []int) *Schedule {
	cross := make([][]int, len(in.Messages))
	for i := range in.Messages {
		c := make([]int, len(in.Messages[i].Path))
		for k := range c {
			c[k] = starts[i] + k + 1
		}
		cross[i] = c
	}
	return NewSchedule(in, Bufferless, cross)
}

// FillMakespan sets the makespan of a schedule read without one (NoMakespan) to the
// largest delivery time t_d + L - 1 of the instance's messages, when every message
// of the instance has a non-empty cross list in s; otherwise it leaves it at 0 (the
// verifier then reports what is missing). It does nothing when the makespan was
// given.
func (s *Schedule) FillMakespan(in *Instance) {
	if !s.NoMakespan {
		return
	}
	byID := make(map[string]*Times, len(s.Messages))
	for i := range s.Messages {
		byID[s.Messages[i].ID] = &s.Messages[i]
	}
	mk := 0
	for i := range in.Messages {
		t, ok := byID[in.Messages[i].ID]
		if !ok || len(t.Cross) == 0 {
			return
		}
		mk = max(mk, Delivery(t.Cross, in.Messages[i].L))
	}
	s.Makespan = mk
}

// SetBound records a solver's proven lower bound and whether the makespan is optimal.
func (s *Schedule) SetBound(lower int, optimal bool) {
	s.LowerBound = &lower
	s.Optimal = &optimal
}

// SetExtra stores v under key k as an extra field; it panics if v cannot be encoded
// as JSON (a programmer error).
func (s *Schedule) SetExtra(k string, v any) {
	data, err := json.Marshal(v)
	if err != nil {
		panic(fmt.Sprintf("model: SetExtra(%q): %v", k, err))
	}
	if s.Extra == nil {
		s.Extra = Extra{}
	}
	s.Extra[k] = data
}

// SetExtra stores v under key k in the instance's extra fields (see Schedule.SetExtra).
func (in *Instance) SetExtra(k string, v any) {
	data, err := json.Marshal(v)
	if err != nil {
		panic(fmt.Sprintf("model: SetExtra(%q): %v", k, err))
	}
	if in.Extra == nil {
		in.Extra = Extra{}
	}
	in.Extra[k] = data
}

// ReadSchedule reads a schedule in the JSON format of MODEL.md. It checks the format
// only (types, required fields); legality is the verifier's business.
func ReadSchedule(r io.Reader) (*Schedule, error) {
	data, err := readAll(r)
	if err != nil {
		return nil, fmt.Errorf("schedule: %v", err)
	}
	return ParseSchedule(data)
}

// ParseSchedule parses a schedule in the JSON format of MODEL.md.
func ParseSchedule(data []byte) (*Schedule, error) {
	const what = "schedule"
	f, extra, err := splitObject(data, what, "model", "makespan", "lower_bound", "optimal", "messages")
	if err != nil {
		return nil, err
	}
	s := &Schedule{Extra: extra}
	raw, ok := f["model"]
	if !ok {
		return nil, fmt.Errorf("schedule: missing field \"model\"")
	}
	if err := field(raw, what, "model", &s.Model); err != nil {
		return nil, err
	}
	if s.Model != Wormhole && s.Model != Bufferless && s.Model != StoreAndForward {
		return nil, fmt.Errorf("schedule: field \"model\": %q is neither %q, %q nor %q", s.Model, Wormhole, Bufferless, StoreAndForward)
	}
	if raw, ok = f["makespan"]; ok {
		if err := field(raw, what, "makespan", &s.Makespan); err != nil {
			return nil, err
		}
	} else {
		s.NoMakespan = true
	}
	if raw, ok := f["lower_bound"]; ok {
		s.LowerBound = new(int)
		if err := field(raw, what, "lower_bound", s.LowerBound); err != nil {
			return nil, err
		}
	}
	if raw, ok := f["optimal"]; ok {
		s.Optimal = new(bool)
		if err := field(raw, what, "optimal", s.Optimal); err != nil {
			return nil, err
		}
	}
	raw, ok = f["messages"]
	if !ok {
		return nil, fmt.Errorf("schedule: missing field \"messages\"")
	}
	msgs, ok := splitArray(raw)
	if !ok {
		if err := field(raw, what, "messages", &msgs); err != nil {
			return nil, err
		}
	}
	s.Messages = make([]Times, len(msgs))
	for i, mraw := range msgs {
		if parseTimesFast(mraw, &s.Messages[i]) {
			continue
		}
		w := fmt.Sprintf("schedule: message #%d", i)
		mf, mx, err := splitObject(mraw, w, "id", "cross", "start")
		if err != nil {
			return nil, err
		}
		t := &s.Messages[i]
		t.Extra = mx
		raw, ok := mf["id"]
		if !ok {
			return nil, fmt.Errorf("%s: missing field \"id\"", w)
		}
		if err := field(raw, w, "id", &t.ID); err != nil {
			return nil, err
		}
		w = fmt.Sprintf("schedule: message %q", t.ID)
		raw, ok = mf["cross"]
		if !ok {
			return nil, fmt.Errorf("%s: missing field \"cross\"", w)
		}
		if err := field(raw, w, "cross", &t.Cross); err != nil {
			return nil, err
		}
		if raw, ok := mf["start"]; ok {
			t.Start = new(int)
			if err := field(raw, w, "start", t.Start); err != nil {
				return nil, err
			}
		}
	}
	return s, nil
}

// MarshalJSON writes the schedule in the format of MODEL.md, one message a line.
func (s *Schedule) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	if err := s.write(&b); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}

// WriteSchedule writes the schedule as JSON followed by a newline. It streams: the
// memory it takes does not grow with the schedule.
func WriteSchedule(w io.Writer, s *Schedule) error { return s.write(w) }

// WriteBufferless writes the bufferless schedule of the start delays (t_k = s_i + k,
// as FromStarts builds it) with the top-level fields of head (model, makespan,
// lower_bound, optimal, extra fields; head.Messages is ignored), without building the
// crossing times: the same bytes as WriteSchedule of that schedule, in memory that
// does not grow with the instance (issue 24: 10^6 paths in 500 MB).
func WriteBufferless(w io.Writer, head *Schedule, in *Instance, starts []int) error {
	if len(starts) != len(in.Messages) {
		return fmt.Errorf("schedule: %d starts for %d messages", len(starts), len(in.Messages))
	}
	return writeSchedule(w, head, len(starts), func(b *bytes.Buffer, line []byte, i int) ([]byte, error) {
		line = appendStarts(line[:0], in.Messages[i].ID, starts[i], len(in.Messages[i].Path))
		b.Write(line)
		return line, nil
	})
}

// WriteBufferlessPaths is WriteBufferless for the compact form of the instance.
func WriteBufferlessPaths(w io.Writer, head *Schedule, p *Paths, starts []int) error {
	if len(starts) != p.Len() {
		return fmt.Errorf("schedule: %d starts for %d messages", len(starts), p.Len())
	}
	return writeSchedule(w, head, len(starts), func(b *bytes.Buffer, line []byte, i int) ([]byte, error) {
		line = appendStarts(line[:0], p.id(i), starts[i], p.D(i))
		b.Write(line)
		return line, nil
	})
}

// appendStarts appends the entry of a message of d hops started at s, as
// appendTimes writes its Times (start s, crossing times s+1 .. s+d; no start
// when d is 0).
func appendStarts[S string | []byte](b []byte, id S, s, d int) []byte {
	b = append(b, `{ "id": `...)
	b = appendJSONString(b, id)
	if d > 0 {
		b = append(b, `, "start": `...)
		b = strconv.AppendInt(b, int64(s), 10)
	}
	b = append(b, `, "cross": [`...)
	if s < 0 { // not a colouring's start: no shortcut
		for k := range d {
			if k > 0 {
				b = append(b, ',')
			}
			b = strconv.AppendInt(b, int64(s+k+1), 10)
		}
		return append(b, "] }"...)
	}
	// Consecutive numbers: each is the one before with one added to its digits,
	// which costs less than converting every number (a fifth of the writing).
	if d > 0 {
		prev := len(b)
		b = strconv.AppendInt(b, int64(s+1), 10)
		var k int
		b, prev, k = appendCounting(b, prev, d-1)
		for ; k < d-1; k++ {
			b = append(b, ',')
			at := len(b)
			b = append(b, b[prev:at-1]...)
			b = incDecimal(b, at)
			prev = at
		}
	}
	return append(b, "] }"...)
}

// appendCounting appends up to count numbers, each after a comma, each one
// more than the one before, after the decimal number b[at:] (digits only,
// what b ends with), while they have at most 7 digits. It returns b, where
// the last number begins, and how many it appended. A number is kept as its
// digits in one word (the last digit in the lowest byte), counted up by one
// in place (the trailing nines found at once, turned to zeros, the digit
// before them raised) and written with its comma in one 8-byte store: about
// a dozen instructions a number where copying the number before and adding
// to its digits took about 50 (at 10^6 paths, 19 M numbers, 4% of wormlab
// color's instructions).
func appendCounting(b []byte, at, count int) ([]byte, int, int) {
	const nines, ones = 0x3939393939393939, 0x0101010101010101
	n := len(b) - at
	if n > 7 || count == 0 {
		return b, at, 0
	}
	v := uint64(0)
	for _, c := range b[at:] {
		v = v<<8 | uint64(c)
	}
	b = slices.Grow(b, 8*count+8) // a number and its comma take at most 8 bytes
	buf := b[:cap(b)]
	end := len(b)
	// The shifts are masked below 64, which spares the compiler's tests for
	// larger ones; bits counts the digits' bits, 8 n.
	nb := uint(8 * n)
	k := 0
	for ; k < count; k++ {
		// tb: the trailing nines' bits; the bytes above the digits are
		// zeros, so tb <= nb.
		if tb := uint(bits.TrailingZeros64(v^nines)) &^ 7; tb < nb {
			low := uint64(1)<<(tb&63) - 1
			v += low + 1 - 9*ones&low
		} else if nb < 56 {
			v = 0x31<<(nb&63) | 0x3030303030303030&(1<<(nb&63)-1) // every digit a nine: 10^n
			nb += 8
		} else {
			break
		}
		if len(buf)-end < 8 {
			break // not reached: the room was made above
		}
		binary.BigEndian.PutUint64(buf[end:end+8], (','<<(nb&63)|v)<<((56-nb)&63))
		at, end = end+1, end+int(nb/8)+1
	}
	return b[:end], at, k
}

// incDecimal adds one to the decimal number b[at:] (digits only), in place, with a
// new leading digit when every digit was 9.
func incDecimal(b []byte, at int) []byte {
	for i := len(b) - 1; i >= at; i-- {
		if b[i] < '9' {
			b[i]++
			return b
		}
		b[i] = '0'
	}
	// Every digit was a 9 and is now a 0: the number is a 1 followed by them.
	b[at] = '1'
	return append(b, '0')
}

func (s *Schedule) write(w io.Writer) error {
	return writeSchedule(w, s, len(s.Messages), func(b *bytes.Buffer, line []byte, i int) ([]byte, error) {
		t := &s.Messages[i]
		// The common entry, id, start and crossing times only, is written by hand
		// (appendTimes); one with extra fields goes through the object writer.
		if len(t.Extra) == 0 {
			line = appendTimes(line[:0], t)
			b.Write(line)
			return line, nil
		}
		mo := newObj(b, " ")
		mo.val("id", t.ID)
		if t.Start != nil {
			mo.val("start", *t.Start)
		}
		cross := t.Cross
		if cross == nil {
			cross = []int{}
		}
		mo.val("cross", cross)
		mo.extras(t.Extra)
		return line, mo.close(" ")
	})
}

// writeSchedule writes the top-level fields of s and n entries as MODEL.md JSON,
// one message a line, followed by a newline, the entries in writes of a block
// each (writeEntries). entry (entryFunc) must only read what it is given: it
// may be called for two entries at once on two goroutines.
func writeSchedule(w io.Writer, s *Schedule, n int, entry entryFunc) error {
	var b bytes.Buffer
	o := newObj(&b, "\n  ")
	o.val("model", s.Model)
	o.val("makespan", s.Makespan)
	if s.LowerBound != nil {
		o.val("lower_bound", *s.LowerBound)
	}
	if s.Optimal != nil {
		o.val("optimal", *s.Optimal)
	}
	o.key("messages")
	b.WriteByte('[')
	if err := writeEntries(w, &b, n, entry); err != nil {
		return err
	}
	if n > 0 {
		b.WriteString("\n  ")
	}
	b.WriteByte(']')
	o.extras(s.Extra)
	if err := o.close("\n"); err != nil {
		return err
	}
	b.WriteByte('\n')
	_, err := w.Write(b.Bytes())
	return err
}

// entryFunc writes entry i to b, given line as a scratch buffer, and returns
// the scratch buffer for the next entry (writeSchedule).
type entryFunc = func(b *bytes.Buffer, line []byte, i int) ([]byte, error)

// entryBlock is the number of entries writeEntries formats at once: a block of
// 10^6 paths' entries is about 700 kB. A variable so that a test can write a
// small schedule in many blocks.
var entryBlock = 1 << 12

// writeEntries writes the n entries of writeSchedule's list after what b holds,
// each after ",\n    " (the first after "\n    "), in writes of a block of
// entries each; it leaves b empty. With more than one processor and at least
// four blocks, three goroutines share the work: this one formats the even
// blocks, another the odd ones, each into buffers of its own, and a third
// writes what b holds and then the blocks in order: the same bytes. At 10^6
// paths the writes (the system's copy of 170 MB into the file) take twice the
// CPU of the formatting; when this goroutine formatted a third of the blocks
// and wrote them all, it spent three times the other's CPU (wormlab color's
// goroutine, which the command's elapsed time waits for). Now whichever
// goroutine is ready takes a core.
func writeEntries(w io.Writer, b *bytes.Buffer, n int, entry entryFunc) error {
	block := entryBlock
	blocks := (n + block - 1) / block
	format := func(b *bytes.Buffer, line []byte, k int) ([]byte, error) {
		for i := k * block; i < min(n, (k+1)*block); i++ {
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteString("\n    ")
			var err error
			if line, err = entry(b, line, i); err != nil {
				return line, err
			}
		}
		return line, nil
	}
	write := func(b *bytes.Buffer) error {
		_, err := w.Write(b.Bytes())
		b.Reset()
		return err
	}
	var line []byte
	var err error
	if blocks < 4 || runtime.GOMAXPROCS(0) < 2 {
		for k := range blocks {
			if line, err = format(b, line, k); err != nil {
				return err
			}
			if err := write(b); err != nil {
				return err
			}
		}
		return nil
	}
	type formatted struct {
		b   *bytes.Buffer
		err error
	}
	// ready[h] and free[h]: the blocks formatted by formatter h (k % 2 == h),
	// and its buffers back from the writer, two so that it runs ahead.
	var ready [2]chan formatted
	var free [2]chan *bytes.Buffer
	for h := range 2 {
		ready[h], free[h] = make(chan formatted, 2), make(chan *bytes.Buffer, 2)
		for range cap(free[h]) {
			free[h] <- new(bytes.Buffer)
		}
	}
	// The writer stops at the first error, its own or a block's, in the
	// blocks' order; the formatters stop then too, and both are waited for:
	// nothing reads the caller's data once this returns.
	written := make(chan struct{})
	var werr error
	go func() {
		defer close(written)
		if werr = write(b); werr != nil {
			return
		}
		for k := range blocks {
			f := <-ready[k%2]
			if werr = f.err; werr != nil {
				return
			}
			if werr = write(f.b); werr != nil {
				return
			}
			free[k%2] <- f.b
		}
	}()
	formatter := func(h int) {
		var line []byte
		for k := h; k < blocks; k += 2 {
			var ob *bytes.Buffer
			select {
			case ob = <-free[h]:
			case <-written:
				return
			}
			var err error
			line, err = format(ob, line, k)
			select {
			case ready[h] <- formatted{ob, err}:
			case <-written:
				return
			}
			if err != nil {
				return
			}
		}
	}
	odd := make(chan struct{})
	go func() {
		defer close(odd)
		formatter(1)
	}()
	formatter(0)
	<-written
	<-odd
	return werr
}

// appendTimes appends t (no extra fields) as the object writer writes it,
// {"id": ..., "start": ..., "cross": [...]}, with the id as encoding/json quotes it.
func appendTimes(b []byte, t *Times) []byte {
	b = append(b, `{ "id": `...)
	b = appendJSONString(b, t.ID)
	if t.Start != nil {
		b = append(b, `, "start": `...)
		b = strconv.AppendInt(b, int64(*t.Start), 10)
	}
	b = append(b, `, "cross": [`...)
	for k, v := range t.Cross {
		if k > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendInt(b, int64(v), 10)
	}
	return append(b, "] }"...)
}

// appendJSONString appends s quoted as json.Marshal quotes it: by hand when it is
// plain printable ASCII that encoding/json leaves alone, through json.Marshal
// otherwise (escapes, HTML characters, other bytes).
func appendJSONString[S string | []byte](b []byte, s S) []byte {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x7f || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' {
			q, _ := json.Marshal(string(s))
			return append(b, q...)
		}
	}
	b = append(b, '"')
	b = append(b, s...)
	return append(b, '"')
}
