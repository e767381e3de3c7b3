// Package withasm declares a function whose body is in assembly.
package withasm

func kernel(x []float64)
