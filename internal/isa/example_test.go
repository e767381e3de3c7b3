package isa_test

import (
	"fmt"

	"github.com/laze-go/laze/internal/isa"
)

// Run a piece of work on the portable kernels whatever the CPU has, then go
// back to the level used before.
func ExampleUse() {
	prev, err := isa.Use(isa.Generic)
	if err != nil {
		panic(err)
	}
	defer isa.Use(prev)
	fmt.Println(isa.Selected())
	// Output: generic
}
