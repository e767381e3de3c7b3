// Package par runs the pieces of one parallel step on a pool of goroutines
// that stay awake for a short while between steps.
//
// laze splits large Assigns, reductions and products among GOMAXPROCS
// goroutines. Started fresh each time, such a goroutine waits for the
// runtime to wake an idle thread, and on virtual machines that wake can take
// longer than the work: on the project's 2-core AMD EPYC guest, a goroutine
// started while the caller computes begins a median 130 µs later
// (BenchmarkStart measures it), so a 400 µs reduction over 4 million
// elements ran slower on two threads than on one. Do hands the pieces to
// pool goroutines that, after each piece, poll for the next one for a
// while (DefaultSpin, 200 µs, unless SetSpin changes it) before they sleep, as OpenMP runtimes' threads do
// between parallel regions (libgomp spins for a bounded count by default),
// so that back-to-back steps start at once. A sleeping pool goroutine is
// woken as a fresh one would be, so nothing is slower than before; what the
// spin costs is CPU time while idle, at most that long after each step.
package par
