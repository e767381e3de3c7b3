package main

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"
)

// TestBodiesAnalyzer checks the one analyzer crossvet adds to go vet's: a bodyless function
// is reported in a package without assembly, and not where an assembly file or a
// //go:linkname directive provides the body.
func TestBodiesAnalyzer(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), bodiesAnalyzer, "nobody", "withasm", "linknamed")
}

// TestVetAnalyzersAreValid checks that the analyzer list is one multichecker accepts
// (unique names, their requirements present).
func TestVetAnalyzersAreValid(t *testing.T) {
	if err := analysisValidate(); err != nil {
		t.Fatal(err)
	}
}
