package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/wormlab/wormlab/model"
)

// TestSolverDocClosedFormCertificate checks docs/solver.md's account of the
// 8x8 mesh of 256 messages, seed 1 (issue 27's family, generated as run.sh
// does): its optimum 60 is a closed-form bound, the edge 4,4->3,4 carries 15
// worms of 4 flits, and the instance's lower bound is 60. With WORMLAB_LONG=1
// it also runs what the page says (solve --model bufferless --certify, then
// check-certificate; 6-14 s of CPU) and checks the certificate is that edge
// bound and is verified.
func TestSolverDocClosedFormCertificate(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join("..", "..", "docs", "solver.md"))
	require.NoError(t, err)
	flat := strings.Join(strings.Fields(string(doc)), " ")
	for _, s := range []string{
		"its optimum 60 is the flit-congestion bound",
		"the edge bound of the edge 4,4->3,4 (15 worms of 4 flits), and `wormlab check-certificate C` re-derives it and says VERIFIED",
	} {
		require.Contains(t, flat, s)
	}

	dir := t.TempDir()
	inst := filepath.Join(dir, "mesh-8x8-256-L4-s1.json")
	var out, errb bytes.Buffer
	require.Equal(t, 0, run([]string{"gen", "mesh:8x8", "--routing", "random-shortest", "--traffic", "random", "--messages", "256",
		"--flits", "4", "--seed", "1", "-o", inst}, strings.NewReader(""), &out, &errb, false), errb.String())
	data, err := os.ReadFile(inst)
	require.NoError(t, err)
	in, err := model.ParseInstance(data)
	require.NoError(t, err)
	require.Equal(t, 60, in.LowerBound().Value)
	edge := -1
	for e := range in.Users() {
		if in.Net.EdgeName(e) == "4,4->3,4" {
			edge = e
		}
	}
	require.GreaterOrEqual(t, edge, 0, "no edge 4,4->3,4")
	us := in.Users()[edge]
	require.Len(t, us, 15, "worms on 4,4->3,4")
	for _, u := range us {
		require.Equal(t, 4, in.Messages[u.Msg].L)
	}

	if testing.Short() || os.Getenv("WORMLAB_LONG") != "1" {
		t.Skip("set WORMLAB_LONG=1 (without -short) to solve and certify the instance")
	}
	cert := filepath.Join(dir, "cert")
	require.Equal(t, 0, run([]string{"solve", "--model", "bufferless", "--certify", cert, inst, "-o", filepath.Join(dir, "s.json")},
		strings.NewReader(""), &out, &errb, false), errb.String())
	man, err := os.ReadFile(filepath.Join(cert, "manifest.json"))
	require.NoError(t, err)
	var m struct {
		Kind  string
		Bound struct {
			Name     string
			EdgeName string `json:"edge_name"`
			Messages []string
		}
	}
	require.NoError(t, json.Unmarshal(man, &m))
	require.Equal(t, "bound", m.Kind)
	require.Equal(t, "edge", m.Bound.Name)
	require.Equal(t, "4,4->3,4", m.Bound.EdgeName)
	require.Len(t, m.Bound.Messages, 15)
	out.Reset()
	require.Equal(t, 0, run([]string{"check-certificate", cert}, nil, &out, &errb, false), out.String())
	require.Contains(t, out.String(), "VERIFIED: makespan 60 is optimal")
}
