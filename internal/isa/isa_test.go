package isa

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestParseNamesEveryLevel(t *testing.T) {
	for _, l := range []Level{Generic, AVX2, AVX512, NEON} {
		got, err := Parse(strings.ToUpper(l.String()))
		if err != nil || got != l {
			t.Errorf("Parse(%q) = %v, %v; want %v", l, got, err, l)
		}
	}
	if _, err := Parse("sse9"); err == nil || !strings.Contains(err.Error(), `"sse9"`) {
		t.Errorf("Parse(sse9) error = %v; want one naming the value", err)
	}
}

func TestEnvironmentChoosesOnlyWhatRuns(t *testing.T) {
	tests := []struct {
		env     string
		want    Level
		wantErr string
	}{
		{env: "", want: Detected()},
		{env: "generic", want: Generic},
		{env: "GENERIC", want: Generic},
		{env: "avx3", wantErr: "LAZE_CPU=avx3: isa: unknown level"},
	}
	for _, l := range []Level{AVX2, AVX512, NEON} {
		if Runs(l) {
			tests = append(tests, struct {
				env     string
				want    Level
				wantErr string
			}{env: l.String(), want: l})
		} else {
			tests = append(tests, struct {
				env     string
				want    Level
				wantErr string
			}{env: l.String(), wantErr: "this CPU cannot run " + l.String()})
		}
	}
	for _, tc := range tests {
		got, err := fromEnv(tc.env)
		if tc.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Errorf("fromEnv(%q) error = %v; want it to contain %q", tc.env, err, tc.wantErr)
			}
			continue
		}
		if err != nil || got != tc.want {
			t.Errorf("fromEnv(%q) = %v, %v; want %v", tc.env, got, err, tc.want)
		}
	}
}

func TestUseSwitchesAndRefuses(t *testing.T) {
	before := Selected()
	defer Use(before)
	for _, l := range Supported() {
		if _, err := Use(l); err != nil {
			t.Fatalf("Use(%v): %v", l, err)
		}
		if Selected() != l {
			t.Errorf("after Use(%v), Selected() = %v", l, Selected())
		}
	}
	for _, l := range []Level{AVX2, AVX512, NEON} {
		if Runs(l) {
			continue
		}
		if _, err := Use(l); err == nil {
			t.Errorf("Use(%v) on a CPU without it: no error", l)
		}
	}
}

func TestSupportedStartsGenericEndsDetected(t *testing.T) {
	s := Supported()
	if s[0] != Generic || s[len(s)-1] != Detected() {
		t.Errorf("Supported() = %v; want Generic first and %v last", s, Detected())
	}
	if diff := cmp.Diff(true, Runs(Generic)); diff != "" {
		t.Errorf("Runs(Generic) (-want +got):\n%s", diff)
	}
}
