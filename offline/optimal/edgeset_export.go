package optimal

import (
	"context"
	"time"

	"github.com/wormlab/wormlab/model"
)

// EdgeSetBound is the edge-set bound of Solve (edgeset.go) on its own: from a
// proven lower bound lower, it refutes the horizons lower, lower + 1, ... on the
// relaxation to the tight edges until one fails, budget runs out or ctx is
// cancelled, and returns the bound proven (never below lower) and how (empty when
// no horizon was refuted). A bound of the wormhole model holds in the bufferless
// model too.
func EdgeSetBound(ctx context.Context, in *model.Instance, modelName string, lower int, budget time.Duration) (int, string, error) {
	return subBound(ctx, in, modelName, lower, budget)
}
