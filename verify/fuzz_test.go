package verify_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/wormlab/wormlab/model"
	"github.com/wormlab/wormlab/verify"
)

// FuzzVerify parses an instance and a schedule from bytes and verifies the pair: it
// must not panic, and Schedule must report exactly the first violation of All.
func FuzzVerify(f *testing.F) {
	f.Add([]byte(exampleInstance), []byte(exampleSchedule))
	f.Add([]byte(exampleInstance), []byte(`{"model":"bufferless","makespan":3,"messages":[{"id":"m0","cross":[1,2]},{"id":"m1","cross":[1]},{"id":"m0","cross":[0]}]}`))
	f.Add([]byte(exampleInstance), []byte(`{"model":"wormhole","makespan":0,"lower_bound":9,"optimal":true,"messages":[{"id":"m2","start":-1,"cross":[4611686018427387903,4611686018427387904]}]}`))
	f.Add([]byte(`{"network":{"edges":[["a","b"],["a","b"]]},"flits":9223372036854775807,"messages":[{"id":"x","edges":[1]},{"id":"y","edges":[0]}]}`),
		[]byte(`{"model":"wormhole","makespan":1,"messages":[{"id":"x","cross":[1]},{"id":"y","cross":[1]}]}`))
	f.Fuzz(func(t *testing.T, inst, sched []byte) {
		in, err := model.ParseInstance(inst)
		if err != nil {
			return
		}
		s, err := model.ParseSchedule(sched)
		if err != nil {
			return
		}
		all := verify.All(in, s)
		err = verify.Schedule(in, s)
		if len(all) == 0 {
			require.NoError(t, err)
			return
		}
		var ve *verify.Error
		require.ErrorAs(t, err, &ve)
		require.Equal(t, all[0], ve.Violation)
		for _, v := range all {
			require.NotEmpty(t, v.Error())
		}
	})
}
