//go:build !race

package kernels

import "testing"

// raceEnabled reports a build with the race detector.
const raceEnabled = false

// raceScaled is the number of random scenes a differential test runs: n
// without the race detector (see race_on_test.go), a fifth of it in -short
// mode (the SIMD build's run in make test, and make test-arm64 under qemu).
func raceScaled(n int) int {
	if testing.Short() {
		return n / 5
	}
	return n
}
