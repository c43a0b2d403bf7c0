package instances_test

import (
	"fmt"

	"github.com/wormlab/wormlab/instances"
)

func ExampleGenerate() {
	in, err := instances.Generate(instances.Spec{Kind: "mesh", Sides: []int{4, 4}, Traffic: "transpose", Flits: 2})
	if err != nil {
		fmt.Println(err)
		return
	}
	ms := in.Measure()
	// 16 nodes send to their transposes; the 4 on the diagonal would send to
	// themselves and are skipped.
	fmt.Printf("%s: %d messages, c = %d, d = %d, c_L = %d\n", in.Name, len(in.Messages), ms.C, ms.D, ms.CL)
	fmt.Println(in.Net.NodesOf(in.Messages[0].Path))
	_, err = instances.Generate(instances.Spec{Kind: "butterfly", Size: 12})
	fmt.Println(err)
	// Output:
	// mesh4x4-transpose: 12 messages, c = 3, d = 6, c_L = 6
	// [0,1 1,1 1,0]
	// --size: butterfly of 12 inputs: want a power of 2 from 2 to 4194304
}

func ExampleTopology_Path() {
	ft, _ := instances.FatTree(16)
	src, _ := ft.Net.Node("0,0")
	dst, _ := ft.Net.Node("0,15")
	// Up to a least common ancestor at level 2, then down: 4 edges.
	p, _ := ft.Path(src, dst, instances.Deterministic, nil)
	fmt.Println(ft.Net.NodesOf(p))
	bf, _ := instances.Butterfly(8)
	// Input row 0 to output row 5 = 101 in binary: cross at levels 0 and 2.
	p, _ = bf.Path(bf.Sources[0], bf.Dests[5], "", nil)
	fmt.Println(bf.Net.NodesOf(p))
	// Output:
	// [0,0 1,0 2,1 1,3 0,15]
	// [0,0 1,1 1,2 5,3]
}
