package certify

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// repeatedKey finds a key given twice in one object at any depth, spelt with an
// escape or not, and nothing in a text whose objects repeat no key (the same key
// in two objects, a colon or a brace inside a string).
func TestRepeatedKey(t *testing.T) {
	for text, want := range map[string]string{
		`{"kind": "a", "format": "f", "kind": "b"}`:                 "kind",
		`{"a": {"x": 1, "y": [1, {"z": 2, "z": 3}]}}`:               "z",
		`{"a": [{"x": 1}, {"x": 2}], "b": {"x": 3}, "a": 1}`:        "a",
		`{"k\u0069nd": "a", "kind": "b"}`:                           "kind",
		`{"a": {"x": 1}, "b": {"x": 2}, "c": [{"x": 1}, {"x": 1}]}`: "",
		`{"a:}": "{\"a\": 1, \"a\": 2}", "b": [], "c": {}}`:         "",
	} {
		k, _, ok := repeatedKey([]byte(text))
		assert.Equal(t, want != "", ok, text)
		assert.Equal(t, want, k, text)
	}
}
