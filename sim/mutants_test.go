package sim_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// scripts/sim-mutants.sh applies each mutant of scripts/sim-mutants/mutants.json
// (its edits in the table's order, each a text found exactly once in its file
// after the mutant's earlier edits) and stops at the first text it cannot find:
// every edit of the table still finds its text in today's code, once, and
// changes it; and docs/simulator.md's count of the mutants and its table (a row
// a mutant) are the table's.
func TestMutantsMatchCode(t *testing.T) {
	root := ".."
	raw, err := os.ReadFile(filepath.Join(root, "scripts/sim-mutants/mutants.json"))
	require.NoError(t, err)
	var table []struct{ Name, What, File, Old, New string }
	require.NoError(t, json.Unmarshal(raw, &table))
	var names []string
	edited := map[string]map[string]string{} // a mutant's files as its edits leave them
	for i, m := range table {
		require.NotEmpty(t, m.Name, "mutant %d: no name", i)
		require.NotEmpty(t, m.What, "mutant %s: no what", m.Name)
		require.NotEqual(t, m.Old, m.New, "mutant %s: an edit that changes nothing", m.Name)
		files, ok := edited[m.Name]
		if !ok {
			files = map[string]string{}
			edited[m.Name] = files
			names = append(names, m.Name)
		}
		src, ok := files[m.File]
		if !ok {
			b, err := os.ReadFile(filepath.Join(root, m.File))
			require.NoError(t, err, "mutant %s", m.Name)
			src = string(b)
		}
		require.Equal(t, 1, strings.Count(src, m.Old), "mutant %s: %s: the text to replace, want it once:\n%s", m.Name, m.File, m.Old)
		files[m.File] = strings.Replace(src, m.Old, m.New, 1)
	}
	doc, err := os.ReadFile(filepath.Join(root, "docs/simulator.md"))
	require.NoError(t, err)
	n := regexp.MustCompile(`applies each of the\s+(\d+) mutants of`).FindSubmatch(doc)
	require.NotNil(t, n, "docs/simulator.md: the count of the mutants")
	require.Equal(t, strconv.Itoa(len(names)), string(n[1]), "docs/simulator.md: the count of the mutants")
	rows := 0
	in := false
	for _, line := range strings.Split(string(doc), "\n") {
		switch {
		case strings.HasPrefix(line, "| mutant | caught by"):
			in = true
		case in && strings.HasPrefix(line, "| ---"):
		case in && strings.HasPrefix(line, "|"):
			rows++
		case in:
			in = false
		}
	}
	require.Equal(t, len(names), rows, "docs/simulator.md: the table of the mutants, a row each")
}
