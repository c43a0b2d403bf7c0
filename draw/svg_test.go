package draw_test

import (
	"bytes"
	"encoding/xml"
	"io"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/wormlab/wormlab/draw"
	"github.com/wormlab/wormlab/internal/fixture"
	"github.com/wormlab/wormlab/model"
)

// The instance and schedule of MODEL.md.
const exampleInstance = fixture.ExampleInstance

const exampleSchedule = fixture.ExampleSchedule

func example(t *testing.T) (*model.Instance, *model.Schedule) {
	t.Helper()
	in, err := model.ParseInstance([]byte(exampleInstance))
	require.NoError(t, err)
	s, err := model.ParseSchedule([]byte(exampleSchedule))
	require.NoError(t, err)
	return in, s
}

// element is what the tests look at in the SVG.
type element struct {
	name   string
	attr   map[string]string
	text   string
	inside []string // names of the enclosing elements' classes
}

// parse checks that the SVG is well-formed XML and returns its elements.
func parse(t require.TestingT, svg []byte) []element {
	dec := xml.NewDecoder(bytes.NewReader(svg))
	var out []element
	var stack []int // indices into out
	var classes []string
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		require.NoError(t, err, "the SVG is not well-formed XML")
		switch tk := tok.(type) {
		case xml.StartElement:
			el := element{name: tk.Name.Local, attr: map[string]string{}, inside: append([]string(nil), classes...)}
			for _, a := range tk.Attr {
				el.attr[a.Name.Local] = a.Value
			}
			out = append(out, el)
			stack = append(stack, len(out)-1)
			classes = append(classes, el.attr["class"])
		case xml.CharData:
			for _, k := range stack { // an element's text includes its children's
				out[k].text += string(tk)
			}
		case xml.EndElement:
			stack = stack[:len(stack)-1]
			classes = classes[:len(classes)-1]
		}
	}
	require.NotEmpty(t, out)
	require.Equal(t, "svg", out[0].name)
	return out
}

func render(t *testing.T, in *model.Instance, s *model.Schedule) []element {
	t.Helper()
	var b bytes.Buffer
	require.NoError(t, draw.SVG(&b, in, s, draw.Options{}))
	return parse(t, b.Bytes())
}

func withClass(els []element, class string) []element {
	var out []element
	for _, el := range els {
		for _, c := range strings.Fields(el.attr["class"]) {
			if c == class {
				out = append(out, el)
				break
			}
		}
	}
	return out
}

// A legal schedule: one bar per (message, edge) holding, labelled rows for the edges
// used, a legend entry per message, nothing in red.
func TestLegalDiagram(t *testing.T) {
	in, s := example(t)
	els := render(t, in, s)
	bars := withClass(els, "bar")
	got := map[[2]string]int{}
	for _, b := range bars {
		got[[2]string{b.attr["data-msg"], b.attr["data-edge"]}]++
	}
	assert.Equal(t, map[[2]string]int{
		{"m0", "0"}: 1, {"m0", "1"}: 1, {"m1", "1"}: 1, {"m2", "0"}: 1, {"m2", "1"}: 1,
	}, got)
	assert.Empty(t, withClass(els, "conflict"))
	assert.Empty(t, withClass(els, "mark"))
	var texts []string
	for _, el := range els {
		if el.name == "text" {
			texts = append(texts, el.text)
		}
	}
	assert.Contains(t, texts, "a->b")
	assert.Contains(t, texts, "b->c")
	assert.Contains(t, texts, "example: wormhole, makespan 8, 3 messages, legal")
	for _, el := range els {
		assert.NotEqual(t, "red", el.attr["stroke"], "red on a legal schedule: %v", el)
		assert.NotEqual(t, "red", el.attr["fill"], "red on a legal schedule: %v", el)
	}
	// The bar of m1 on b->c spans its holding, times 4..6: three columns.
	for _, b := range bars {
		if b.attr["data-msg"] == "m1" {
			assert.Equal(t, "m1 on b->c: times 4..6", strings.TrimSpace(b.text))
		}
	}
}

// A conflict: both bars outlined in red, a red mark at the cell, a note in red.
func TestConflictIsRed(t *testing.T) {
	in, s := example(t)
	s.Messages[1].Cross = []int{3}
	els := render(t, in, s)
	assert.Len(t, withClass(els, "bar"), 5)
	red := withClass(els, "conflict")
	require.Len(t, red, 2)
	msgs := []string{red[0].attr["data-msg"], red[1].attr["data-msg"]}
	assert.ElementsMatch(t, []string{"m0", "m1"}, msgs)
	for _, b := range red {
		assert.Equal(t, "1", b.attr["data-edge"])
		assert.Equal(t, "red", b.attr["stroke"])
	}
	marks := withClass(els, "mark")
	require.Len(t, marks, 1)
	assert.Contains(t, marks[0].text, `edge 1 (b->c) held by "m0" and "m1" at time 3`)
	var notes []string
	for _, el := range els {
		if el.name == "text" && len(el.inside) > 0 && el.inside[len(el.inside)-1] == "notes" {
			notes = append(notes, el.text)
		}
	}
	assert.Equal(t, []string{`edge 1 (b->c) held by "m0" and "m1" at time 3`}, notes)
}

// Violations that are not conflicts are noted too, and the notes stop at MaxNotes.
func TestNotes(t *testing.T) {
	in, s := example(t)
	s.Makespan = 9
	s.Messages = s.Messages[:2]
	var b bytes.Buffer
	require.NoError(t, draw.SVG(&b, in, s, draw.Options{MaxNotes: 1, Title: "t<1>"}))
	els := parse(t, b.Bytes())
	var notes []string
	for _, el := range els {
		if el.name == "text" && len(el.inside) > 0 && el.inside[len(el.inside)-1] == "notes" {
			notes = append(notes, el.text)
		}
	}
	assert.Equal(t, []string{`message "m2": missing from the schedule`}, notes)
	assert.Len(t, withClass(els, "bar"), 3) // m2 is not drawn
	assert.Contains(t, b.String(), "t&lt;1&gt;")
}
