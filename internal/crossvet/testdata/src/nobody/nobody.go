// Package nobody declares a function whose body nothing provides.
package nobody

func kernel(x []float64) // want `missing function body: kernel has no body and package nobody has no assembly for this platform`

func withBody() {}
