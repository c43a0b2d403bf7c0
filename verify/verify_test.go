package verify_test

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/wormlab/wormlab/internal/fixture"
	"github.com/wormlab/wormlab/model"
	"github.com/wormlab/wormlab/verify"
)

// exampleInstance and exampleSchedule are the instance and schedule of MODEL.md.
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

func TestModelExampleIsLegal(t *testing.T) {
	in, s := example(t)
	require.NoError(t, verify.Schedule(in, s))
	assert.Empty(t, verify.All(in, s))
}

// In MODEL.md's example m0 holds edge 1 at times 2 and 3, so m1 may not cross it in
// step 3 (nor 2), but may in step 4.
func TestModelExampleBoundary(t *testing.T) {
	for _, t1 := range []int{2, 3} {
		in, s := example(t)
		s.Messages[1].Cross = []int{t1}
		err := verify.Schedule(in, s)
		require.Error(t, err)
		var ve *verify.Error
		require.ErrorAs(t, err, &ve)
		assert.Equal(t, verify.RuleConflict, ve.Rule)
		assert.Equal(t, 1, ve.Edge)
		assert.Equal(t, t1, ve.Time)
		assert.Equal(t, "m0", ve.Msg)
		assert.Equal(t, "m1", ve.Other)
		assert.Equal(t, fmt.Sprintf(`illegal schedule: edge 1 (b->c) held by "m0" and "m1" at time %d`, t1), err.Error())
	}
}
