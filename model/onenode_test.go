package model_test

import (
	"bytes"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/wormlab/wormlab/model"
)

// A path of one node is refused naming that node as JSON spells it, so that
// the error says which name the path held: printed bare, a node named "4,2"
// read as a path of two nodes, one named "" as an empty path, and one named
// with a newline broke the error's line (ParseInstance and ReadPaths alike).
func TestOneNodePathNamesTheNode(t *testing.T) {
	for _, c := range []struct{ name, want string }{
		{`4,2`, `path ["4,2"]: needs at least two nodes`},
		{``, `path [""]: needs at least two nodes`},
		{`a\nb`, `path ["a\nb"]: needs at least two nodes`},
		{`a b`, `path ["a b"]: needs at least two nodes`},
	} {
		text := []byte(`{"network": {"edges": [["` + c.name + `", "z"]]}, "messages": [{"id": "m", "path": ["` + c.name + `"]}]}`)
		_, err := model.ParseInstance(text)
		require.EqualError(t, err, `instance: message "m": `+c.want)
		_, err = model.ReadPaths(bytes.NewReader(text))
		require.EqualError(t, err, `instance: message "m": `+c.want)
	}
}
