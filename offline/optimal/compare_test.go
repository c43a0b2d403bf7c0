package optimal

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/go-air/gini"
	"github.com/stretchr/testify/require"
	"github.com/wormlab/wormlab/model"
)

// TestCompareCNF writes, for hard instances, the CNF of horizon optimum-1 (with and
// without the cardinality constraints) into WORMLAB_CNF_DIR and times gini on the
// very file, so that an external solver can be timed on the same bytes:
//
//	WORMLAB_LONG=1 WORMLAB_CNF_DIR=/tmp/cnf go test ./offline/optimal -run TestCompareCNF -v
//	cadical -q /tmp/cnf/NAME.cnf; minisat /tmp/cnf/NAME.cnf
func TestCompareCNF(t *testing.T) {
	dir := os.Getenv("WORMLAB_CNF_DIR")
	if testing.Short() || os.Getenv("WORMLAB_LONG") == "" || dir == "" {
		t.Skip("set WORMLAB_LONG=1 and WORMLAB_CNF_DIR to write the comparison formulas")
	}
	for _, c := range []struct {
		file      string
		modelName string
		horizon   int
	}{
		{"prime-p3-repaired.json", model.Wormhole, 68},
		{"prime-p3-repaired.json", model.Bufferless, 68},
		{"prime-p5-L5-repaired.json", model.Bufferless, 134},
		{"prime-p5-repaired.json", model.Bufferless, 284},
		{"p5first10.json", model.Bufferless, 119},
		{"p5first11.json", model.Bufferless, 130},
		{"p5first12.json", model.Bufferless, 141},
	} {
		if f := os.Getenv("WORMLAB_CNF_ONLY"); f != "" && f != c.file {
			continue
		}
		data, err := os.ReadFile(filepath.Join(dir, c.file))
		require.NoError(t, err)
		in, err := model.ParseInstance(data)
		require.NoError(t, err)
		for _, opt := range []encodeOptions{{symmetry: true}, {symmetry: true, cards: true}} {
			f, err := encode(in, c.modelName, c.horizon, opt)
			require.NoError(t, err)
			name := fmt.Sprintf("%s-%s-T%d-cards%v.cnf", c.file[:len(c.file)-5], c.modelName, c.horizon, opt.cards)
			path := filepath.Join(dir, name)
			fh, err := os.Create(path)
			require.NoError(t, err)
			require.NoError(t, f.WriteDIMACS(fh))
			require.NoError(t, fh.Close())
			rd, err := os.Open(path)
			require.NoError(t, err)
			g, err := gini.NewDimacs(rd)
			rd.Close()
			require.NoError(t, err)
			start := time.Now()
			r := g.GoSolve()
			limit := 300 * time.Second
			if d, err := time.ParseDuration(os.Getenv("WORMLAB_LIMIT")); err == nil {
				limit = d
			}
			res := r.Try(limit)
			t.Logf("%s vars %d clauses %d gini %d in %.2fs conflicts %d", name, f.Vars, len(f.Clauses), res, time.Since(start).Seconds(), conflicts(g))
		}
	}
}
