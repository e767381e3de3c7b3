// Package friend lets laze's evaluators reach a tensor's storage without the
// pinning that the public accessors do. Its Key can be named only inside the
// laze module, so the methods that take one cannot be called from outside.
package friend

// Key is the proof, passed to tensor methods meant for laze's own
// evaluators, that the caller is part of laze.
type Key struct{ _ [0]func() }

// K is the one value of Key.
var K Key
