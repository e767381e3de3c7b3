package main

import (
	"bytes"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestUnknownFlags checks how an argument that starts with '-' and names
// no flag is reported: an unknown flag as one, an expression as one that
// must come after --, and -name, where an input is called name, as both.
func TestUnknownFlags(t *testing.T) {
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"unknown flag", []string{"eval", "-bogus", "1"},
			"exprdemo: unknown flag -bogus (the flags are -device, -explain, -i, -o, -rand, -seed) (see exprdemo eval -h)\n"},
		{"unknown flag with two dashes and a value", []string{"eval", "--bogus=3", "1"},
			"exprdemo: unknown flag --bogus=3 (the flags are -device, -explain, -i, -o, -rand, -seed) (see exprdemo eval -h)\n"},
		{"unknown flag of grad", []string{"grad", "-wrt", "x", "-rand", "x=3", "-bogus", "sum(x)"},
			"exprdemo: unknown flag -bogus (the flags are -device, -explain, -i, -o, -rand, -seed, -tree, -v, -wrt) (see exprdemo grad -h)\n"},
		{"a negative number", []string{"eval", "-1"},
			`exprdemo: "-1" is not a flag: an expression that starts with '-' must come after -- (exprdemo eval [flags] -- -1) (see exprdemo eval -h)` + "\n"},
		{"an expression", []string{"eval", "-rand", "i=3", "-i // 4"},
			`exprdemo: "-i // 4" is not a flag: an expression that starts with '-' must come after -- (exprdemo eval [flags] -- '-i // 4') (see exprdemo eval -h)` + "\n"},
		{"a negated input", []string{"eval", "-a", "-rand", "a=3"},
			"exprdemo: unknown flag -a; if -a is the expression, negating input a, put it after -- (exprdemo eval [flags] -- -a) (see exprdemo eval -h)\n"},
		{"a negated input of grad", []string{"grad", "-wrt", "a", "-rand=a=3", "-a"},
			"exprdemo: unknown flag -a; if -a is the expression, negating input a, put it after -- (exprdemo grad [flags] -- -a) (see exprdemo grad -h)\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			if code := run(tt.args, &stdout, &stderr); code != exitUsage {
				t.Errorf("exit status %d, want %d", code, exitUsage)
			}
			if diff := cmp.Diff(tt.want, stderr.String()); diff != "" {
				t.Errorf("message (-want +got):\n%s", diff)
			}
			if stdout.Len() != 0 {
				t.Errorf("printed %q", stdout.String())
			}
		})
	}
}
