package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/laze-go/laze/cmd/exprdemo/internal/interp"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// Exit statuses: a malformed command line is a usage error; anything that
// fails while doing the work (reading files, parsing or evaluating the
// expression, writing the result) is an evaluation error.
const (
	exitOK    = 0
	exitEval  = 1
	exitUsage = 2
)

// usageError marks an error in the command line itself.
type usageError struct{ msg string }

// Error returns the message.
func (e *usageError) Error() string { return e.msg }

func usagef(format string, args ...any) error { return &usageError{fmt.Sprintf(format, args...)} }

const usage = `usage:
  exprdemo                  a tour of laze on built-in data
  exprdemo eval [flags] EXPR
                            evaluate a NumPy-style expression
  exprdemo grad -wrt x[,y…] [flags] EXPR
                            the gradient of a one-element expression with
                            respect to the inputs x, y…

Run 'exprdemo eval -h' for the flags and the expression language,
'exprdemo grad -h' for the gradients.
`

// run executes one command line and returns the exit status. No panic
// escapes it: one whose value is a laze error (a size too large for this
// machine, say) is reported as any other error; one of any other value
// would be a bug, reported on one line as such. Every write to stdout is
// checked: a result that could not be written is a failure.
func run(args []string, stdout, stderr io.Writer) (status int) {
	defer func() {
		if r := recover(); r != nil {
			if err := interp.LazeError(r); err != nil {
				fmt.Fprintf(stderr, "exprdemo: %v\n", err)
			} else {
				fmt.Fprintf(stderr, "exprdemo: internal error (please report it): %v\n", r)
			}
			status = exitEval
		}
	}()
	if len(args) == 0 {
		w := &stickyWriter{w: stdout}
		err := tour(w)
		if err == nil && w.err != nil {
			err = fmt.Errorf("writing the tour: %w", w.err)
		}
		if err != nil {
			fmt.Fprintln(stderr, "exprdemo:", err)
			return exitEval
		}
		return exitOK
	}
	switch args[0] {
	case "eval":
		return report("eval", evalCommand(args[1:], stdout, stderr), stderr)
	case "grad":
		return report("grad", gradCommand(args[1:], stdout, stderr), stderr)
	case "-h", "-help", "--help", "help":
		if _, err := fmt.Fprint(stdout, usage); err != nil {
			fmt.Fprintf(stderr, "exprdemo: writing the help: %v\n", err)
			return exitEval
		}
		return exitOK
	}
	fmt.Fprintf(stderr, "exprdemo: unknown command %q (want eval or grad, or no arguments for the tour; see exprdemo -h)\n", args[0])
	return exitUsage
}

// report prints err, from command cmd, on stderr (already formatted by the
// command) and returns the exit status it calls for.
func report(cmd string, err error, stderr io.Writer) int {
	var ue *usageError
	switch {
	case err == nil:
		return exitOK
	case errors.Is(err, flag.ErrHelp):
		return exitOK
	case errors.As(err, &ue):
		fmt.Fprintf(stderr, "exprdemo: %s (see exprdemo %s -h)\n", strings.TrimSpace(ue.msg), cmd)
		return exitUsage
	}
	fmt.Fprintf(stderr, "exprdemo: %s\n", err)
	return exitEval
}
