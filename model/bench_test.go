package model_test

import (
	"bytes"
	"testing"

	"github.com/wormlab/wormlab/instances"
	"github.com/wormlab/wormlab/model"
)

// BenchmarkModel10e5 measures the core on a 10^5-message instance (random traffic,
// dimension-order paths on a 100x100 mesh, about 6.7 * 10^6 hops): parsing its
// JSON (57 MB), writing it, the measures, the dependency cycle search and the lower
// bounds.
func BenchmarkModel10e5(b *testing.B) {
	in, err := instances.Generate(instances.Spec{Kind: "mesh", Sides: []int{100, 100}, Messages: 100000, Seed: 1})
	if err != nil {
		b.Fatal(err)
	}
	var buf bytes.Buffer
	if err := model.WriteInstance(&buf, in); err != nil {
		b.Fatal(err)
	}
	data := buf.Bytes()
	b.Run("parse", func(b *testing.B) {
		b.SetBytes(int64(len(data)))
		for b.Loop() {
			if _, err := model.ParseInstance(data); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("write", func(b *testing.B) {
		for b.Loop() {
			var w bytes.Buffer
			if err := model.WriteInstance(&w, in); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("measure", func(b *testing.B) {
		for b.Loop() {
			in.Measure()
		}
	})
	b.Run("dependencies", func(b *testing.B) {
		for b.Loop() {
			in.Dependencies().Cycle()
		}
	})
	b.Run("lower-bounds", func(b *testing.B) {
		for b.Loop() {
			in.LowerBounds()
		}
	})
}
