//go:build race

package loops

const raceEnabled = true
