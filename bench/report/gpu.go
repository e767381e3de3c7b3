package main

import (
	"fmt"
	"strings"
)

// The GPU suites: CUDA/copy/n=N, CUDA/<case>/{fused,unfused}/n=N and
// CUDAOverhead/{queued,waited} from bench/cuda_test.go;
// Torch/copy/n=N and Torch/<case>/{eager,compile}/n=N from
// bench/gpu/torch_bench.py.
const (
	cudaSuite     = "CUDA/"
	overheadSuite = "CUDAOverhead/"
	torchSuite    = "Torch/"
)

// gpuCases lists the cases of the GPU suite (every name but copy).
func (rs *results) gpuCases() []string {
	var out []string
	for _, c := range rs.level(cudaSuite, 1) {
		if c != "copy" {
			out = append(out, c)
		}
	}
	return out
}

// gpuSpeed returns the median bandwidth of suite/<path>/n=N in bytes per
// second, on the most cores that suite ran with.
func (rs *results) gpuSpeed(suite, path string, n int) (float64, bool) {
	return rs.median(fmt.Sprintf("%s%sn=%d", suite, path, n), rs.maxProcs(suite), unitSpeed)
}

// gpuSection is the GPU tables, or the note that there are no figures yet.
func gpuSection(rs *results) (string, error) {
	if rs == nil || len(rs.gpuCases()) == 0 {
		return "**No GPU figures yet**: there is no docs/bench/gpu.txt. Run the suite on a GPU " +
			"machine (below), save its output there, and run `make report`.\n", nil
	}
	var b strings.Builder
	fmt.Fprintf(&b, "Device: %s; measured %s.\n\n", orUnknown(rs.config["device"]), orUnknown(rs.config["date"]))
	t := &table{align: "lrrrrrrrr", header: []string{"case", "n", "laze fused", "laze unfused", "copy", "fused / copy", "fused / unfused", "torch eager", "torch.compile"}}
	for _, c := range rs.gpuCases() {
		for _, n := range rs.sizes(cudaSuite+c+"/fused/", 3) {
			fused, ok := rs.gpuSpeed(cudaSuite, c+"/fused/", n)
			if !ok {
				continue
			}
			unfused, okU := rs.gpuSpeed(cudaSuite, c+"/unfused/", n)
			cp, okC := rs.gpuSpeed(cudaSuite, "copy/", n)
			eager, okE := rs.gpuSpeed(torchSuite, c+"/eager/", n)
			comp, okT := rs.gpuSpeed(torchSuite, c+"/compile/", n)
			t.add(c, formatPower(n), formatGBs(fused), speedCell(unfused, okU), speedCell(cp, okC),
				pctCell(fused, cp, okC), ratioCell(fused, unfused, okU), speedCell(eager, okE), speedCell(comp, okT))
		}
	}
	b.WriteString(t.String())
	b.WriteString("\n")
	b.WriteString(overheadLine(rs))
	return b.String(), nil
}

func orUnknown(s string) string {
	if s == "" {
		return "not recorded"
	}
	return s
}

func speedCell(bps float64, ok bool) string {
	if !ok {
		return "—"
	}
	return formatGBs(bps)
}

func pctCell(a, b float64, ok bool) string {
	if !ok || b == 0 {
		return "—"
	}
	return fmt.Sprintf("%.0f%%", 100*a/b)
}

// overheadLine quotes the host's time per cached Assign against the 20 µs
// target.
func overheadLine(rs *results) string {
	procs := rs.maxProcs(overheadSuite)
	queued, ok1 := rs.median(overheadSuite+"queued", procs, unitTime)
	waited, ok2 := rs.median(overheadSuite+"waited", procs, unitTime)
	if !ok1 || !ok2 {
		return "Host overhead per cached Assign: not in this run.\n"
	}
	return fmt.Sprintf("Host overhead per cached Assign (target ≤ 20 µs): queued %s, waited %s: **%s**.\n",
		formatTime(queued), formatTime(waited), status(queued <= 20e-6))
}
