package pkg

import "fmt"

// A fixture for docsnip's tests: a function whose body Body returns.
func ExampleSample() {
	for i := range 2 {
		fmt.Println(i) // indented once in the guide
	}
	// Output:
	// 0
	// 1
}
