package optimal

import (
	"context"
	"testing"

	"github.com/wormlab/wormlab/model"
	"pgregory.net/rapid"
)

func TestDebug(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		in := tinyInstance(t, 3, 3, 3)
		modelName := rapid.SampledFrom([]string{model.Wormhole, model.Bufferless}).Draw(t, "model")
		Solve(context.Background(), in, Options{Model: modelName, NoSymmetry: true, NoClique: true, NoCards: true})
	})
}
