//go:build race

package kernels

// raceEnabled reports a build with the race detector.
const raceEnabled = true

// raceScaled is the number of random scenes a differential test runs: a
// fifth of n under the race detector, which makes them five to ten times
// slower (what it looks for, the parallel evaluator's sharing, every
// scene exercises alike). make test runs every test in full without it
// first (its coverage run); its race run is -short (RACE_PKGS in the Makefile).
func raceScaled(n int) int { return n / 5 }
