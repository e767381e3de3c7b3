//go:build cuda

package main

import (
	"github.com/laze-go/laze/alloc"
	"github.com/laze-go/laze/cuda"
)

// In a binary built with -tags cuda, -device cuda evaluates on GPU 0.
func init() {
	openCUDA = func() (alloc.Device, error) {
		d, err := cuda.Open(0)
		if err != nil {
			return alloc.CPU, err
		}
		return d.Device(), nil
	}
}
