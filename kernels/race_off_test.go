//go:build !race

package kernels

// raceEnabled reports a build with the race detector.
const raceEnabled = false
