package draw_test

import (
	"fmt"
	"strings"

	"github.com/wormlab/wormlab/draw"
	"github.com/wormlab/wormlab/model"
)

// Draw MODEL.md's example; the SVG has one bar per holding.
func ExampleSVG() {
	in, _ := model.ParseInstance([]byte(exampleInstance))
	s, _ := model.ParseSchedule([]byte(exampleSchedule))
	var b strings.Builder
	if err := draw.SVG(&b, in, s, draw.Options{}); err != nil {
		fmt.Println(err)
	}
	fmt.Println(strings.Count(b.String(), `class="bar"`), "bars")
	// Output:
	// 5 bars
}
