package main

import (
	"fmt"
	"math"
	"regexp"
	"strings"
)

// A section is one generated block of the document.
type section struct {
	name   string
	render func(in inputs) (string, error)
}

// inputs are the summarised raw files; gpu is nil where there are no GPU
// figures.
type inputs struct {
	cpu, gpu *results
	vocab    *results // the vocabulary run alone (make bench-vocabulary), or nil
}

// sections lists every block the report writes into docs/performance.md.
var sections = []section{
	{"machine", func(in inputs) (string, error) { return machineLine(in.cpu), nil }},
	{"elementwise-one-core", cpuOnly(elementwiseOneCore)},
	{"elementwise-targets", cpuOnly(elementwiseTargetsTable)},
	{"elementwise-peer-targets", cpuOnly(elementwisePeerTargetsTable)},
	{"elementwise-cores", cpuOnly(elementwiseTwoCores)},
	{"elementwise-allocs", cpuOnly(elementwiseAllocs)},
	{"matmul", cpuOnly(matmulTable)},
	{"matmul-fused", cpuOnly(matmulFusedTable)},
	{"gemm", cpuOnly(gemmTable)},
	{"gemm-epilogue", cpuOnly(gemmEpilogueTable)},
	{"reduce", cpuOnly(reduceTable)},
	{"reduce-targets", cpuOnly(reduceTargets)},
	{"workloads", cpuOnly(workloadsTable)},
	{"vocabulary", vocabularySection},
	{"gpu", func(in inputs) (string, error) { return gpuSection(in.gpu) }},
}

// vocabularySection renders the vocabulary from its own run when there is
// one (make bench-vocabulary), introduced by that run's machine line, else
// from the CPU suite's.
func vocabularySection(in inputs) (string, error) {
	if in.vocab == nil {
		return vocabularyTable(in.cpu)
	}
	body, err := vocabularyTable(in.vocab)
	line, _, _ := strings.Cut(strings.TrimSuffix(machineLine(in.vocab), "\n"), " Peers:")
	if np := in.vocab.config["numpy"]; np != "" {
		line += fmt.Sprintf(" Peer: NumPy %s, one thread.", np)
	}
	return "From `make bench-vocabulary`. " + line + "\n\n" + body, err
}

func cpuOnly(f func(*results) (string, error)) func(inputs) (string, error) {
	return func(in inputs) (string, error) { return f(in.cpu) }
}

// machineLine names the machine, the toolchain, the date and the runs.
func machineLine(rs *results) string {
	c := rs.config
	cores := c["cores"]
	if cores == "" {
		cores = "unknown"
	}
	line := fmt.Sprintf("Machine: %s (%s cores), %s %s/%s, measured %s. Every figure is the median of %d or more runs",
		orUnknown(c["cpu"]), cores, orUnknown(c["go"]), c["goos"], c["goarch"], orUnknown(c["date"]), rs.minRuns())
	worst, width := rs.widest()
	if math.IsInf(width, 0) || math.IsNaN(width) {
		return line + "; too few for a 95% confidence interval (benchstat needs 6)." + peersLine(rs) + "\n"
	}
	wide, all := rs.noisy(0.05)
	return line + fmt.Sprintf("; %d of the %d timings have a 95%% confidence interval wider than ±5%%, the widest ±%.1f%% (`%s`, `-cpu %d`).",
		wide, all, 100*width, worst.name, worst.procs) + peersLine(rs) + "\n"
}

// peersLine names the peers' versions, from the configuration lines
// bench/peers/peers.py writes, or says they did not run.
func peersLine(rs *results) string {
	c := rs.config
	switch {
	case c["numpy"] == "":
		return " Peers: none in this run (`make bench-deps` installs NumPy and numexpr)."
	case c["numexpr"] == "" || c["numexpr"] == "missing":
		return fmt.Sprintf(" Peers: NumPy %s on Python %s; numexpr missing (`make bench-deps`).", c["numpy"], orUnknown(c["python"])) + workloadPeersLine(rs)
	}
	return fmt.Sprintf(" Peers: NumPy %s and numexpr %s on Python %s.", c["numpy"], c["numexpr"], orUnknown(c["python"])) + workloadPeersLine(rs)
}

// workloadPeersLine names PyTorch's version and the BLAS under NumPy's
// products, from the configuration lines bench/peers/workloads.py writes,
// where it ran.
func workloadPeersLine(rs *results) string {
	c := rs.config
	var parts []string
	switch c["torch"] {
	case "":
	case "missing":
		parts = append(parts, "PyTorch missing (`make bench-deps`)")
	default:
		parts = append(parts, fmt.Sprintf("PyTorch %s (CPU, eager)", c["torch"]))
	}
	if c["blas"] != "" {
		parts = append(parts, fmt.Sprintf("NumPy's products on `%s`", c["blas"]))
	}
	if len(parts) == 0 {
		return ""
	}
	return " Workloads: " + strings.Join(parts, "; ") + "."
}

// markerPattern finds the start markers in a document.
var markerPattern = regexp.MustCompile(`<!-- report:([a-z0-9-]+) -->`)

// MarkerError is a document whose markers do not match the sections.
type MarkerError struct {
	Name   string // the section
	Reason string // "missing", "not closed" or "unknown"
}

// Error says which section's marker is wrong and how.
func (e *MarkerError) Error() string {
	return fmt.Sprintf("performance document: section %q: marker %s", e.Name, e.Reason)
}

// fill replaces each section's block in doc with its rendering. Every
// section must have its pair of markers, and every marker a section.
func fill(doc string, in inputs) (string, error) {
	known := map[string]bool{}
	for _, s := range sections {
		known[s.name] = true
	}
	for _, m := range markerPattern.FindAllStringSubmatch(doc, -1) {
		if !known[m[1]] {
			return "", &MarkerError{Name: m[1], Reason: "unknown"}
		}
	}
	for _, s := range sections {
		body, err := s.render(in)
		if err != nil {
			return "", fmt.Errorf("section %q: %w", s.name, err)
		}
		if doc, err = replaceBlock(doc, s.name, body); err != nil {
			return "", err
		}
	}
	return doc, nil
}

// replaceBlock puts body between the markers of section name.
func replaceBlock(doc, name, body string) (string, error) {
	start, end := "<!-- report:"+name+" -->", "<!-- /report:"+name+" -->"
	i := strings.Index(doc, start)
	if i < 0 {
		return "", &MarkerError{Name: name, Reason: "missing"}
	}
	j := strings.Index(doc[i:], end)
	if j < 0 {
		return "", &MarkerError{Name: name, Reason: "not closed"}
	}
	j += i
	return doc[:i] + start + "\n" + strings.TrimRight(body, "\n") + "\n" + doc[j:], nil
}
