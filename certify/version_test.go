package certify

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/wormlab/wormlab/model"
	"github.com/wormlab/wormlab/offline/optimal"
)

// pinnedInstances are built by hand (no generator), so their formulas change only
// when the encoder does.
func pinnedInstances(t *testing.T) []*model.Instance {
	example, err := model.ParseInstance([]byte(`{"name": "example",
		"network": {"nodes": ["a", "b", "c"], "edges": [["a", "b"], ["b", "c"]]},
		"flits": 2,
		"messages": [{"id": "m0", "path": ["a", "b", "c"]}, {"id": "m1", "path": ["b", "c"], "flits": 3},
			{"id": "m2", "edges": [0, 1]}]}`))
	require.NoError(t, err)
	bundle, err := model.ParseInstance([]byte(`{"name": "bundle",
		"network": {"edges": [["0", "1"], ["1", "2"], ["2", "3"], ["4", "1"], ["2", "5"]]},
		"flits": 3,
		"messages": [{"id": "a", "path": ["0", "1", "2", "3"]}, {"id": "b", "path": ["4", "1", "2", "5"]},
			{"id": "c", "path": ["1", "2", "3"], "flits": 2}, {"id": "d", "path": ["4", "1", "2", "3"], "flits": 4},
			{"id": "e", "path": ["0", "1", "2", "5"], "flits": 1}]}`))
	require.NoError(t, err)
	return []*model.Instance{example, bundle}
}

// An encoding version names one formula per instance and horizon: certificates
// record the version and Check re-encodes with this build's encoder, so a change of
// the formula under an unchanged version would make old certificates fail with a
// hash mismatch instead of a clear "other encoding". testdata/encodings.txt pins
// the SHA-256 of the formulas of pinnedInstances (both models, three horizons) for
// each version; a version not listed there is reported (the test is skipped) so
// that its line can be added.
func TestEncodingVersionPinned(t *testing.T) {
	h := sha256.New()
	for _, in := range pinnedInstances(t) {
		lb := in.LowerBound().Value
		for _, m := range []string{model.Wormhole, model.Bufferless} {
			for _, T := range []int{max(1, lb-1), lb, lb + 2} {
				f, err := optimal.Encode(in, m, T)
				require.NoError(t, err)
				var b bytes.Buffer
				require.NoError(t, f.WriteDIMACS(&b))
				fmt.Fprintf(h, "%s %s %d %d\n", in.Name, m, T, b.Len())
				h.Write(b.Bytes())
			}
		}
	}
	got := hex.EncodeToString(h.Sum(nil))
	data, err := os.ReadFile("testdata/encodings.txt")
	require.NoError(t, err)
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) == 2 && f[0] == optimal.EncodingVersion {
			require.Equal(t, f[1], got, "the formulas of encoding %s changed: give the encoder a new EncodingVersion", optimal.EncodingVersion)
			return
		}
	}
	t.Skipf("encoding %s is not pinned yet: add the line %q to certify/testdata/encodings.txt", optimal.EncodingVersion, optimal.EncodingVersion+" "+got)
}
