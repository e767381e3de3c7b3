//go:build !amd64

package loops

import (
	"github.com/laze-go/laze/internal/ops"
	"github.com/laze-go/laze/tensor"
)

// laneKind says what a lane loop's number names (lanes_amd64.go); there
// are no lane loops on this architecture.
type laneKind uint8

const (
	laneOp laneKind = iota
	lanePair
	laneTriple
)

// lanesOn reports that there are no lane loops to run.
func lanesOn() bool { return false }

// computeLanes computes nothing: the scalar loops compute every block.
func computeLanes[T tensor.Number](laneKind, int, uint8, []T, *[3]Value[T], []T) int { return 0 }

// laneTail is unused without lane loops.
func laneTail[T tensor.Number](pat uint8, args *[3]Value[T], n int) [3]Value[T] { return *args }

// laneFold folds nothing: the scalar fold computes every block.
func laneFold[T tensor.Number](ops.Op, []T) (r T, ok bool) { return r, false }

// lanePartialSums is 0: no lane loops add here.
func lanePartialSums[T tensor.Number]() int { return 0 }

// reverseLanes copies nothing: the scalar gather reverses every element.
func reverseLanes[T tensor.Number](d, src []T, off int) int { return 0 }

// twiceLanes writes nothing: the scalar loop doubles every element.
func twiceLanes[T tensor.Number](d, src []T) int { return 0 }
