// Package friend lets laze's evaluators reach a tensor's storage without the
// pinning that the public accessors do. Its Key can be named only inside the
// laze module, so the methods that take one cannot be called from outside.
package friend

import "github.com/laze-go/laze/shape"

// Key is the proof, passed to tensor methods meant for laze's own
// evaluators, that the caller is part of laze.
type Key struct{ _ [0]func() }

// K is the one value of Key.
var K Key

// Tensor is a tensor of any element type as laze's layers above package
// tensor see it, through methods that take a Key: the memory it addresses
// (for the overlap rule, shape.MayOverlap) and a hold on its storage for
// the length of an evaluation. Every *tensor.Tensor[T] is one.
type Tensor interface {
	Region(Key) shape.Region
	Hold(Key, string) interface{ Drop() }
}
