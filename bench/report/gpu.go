package main

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
)

// The GPU suites, from bench/cuda_test.go (tag cuda) and
// bench/gpu/torch_bench.py, run in the same session by bench/gpu/suite.sh:
//
//	CUDA/copy/{kernel,memcpy}/n=N        copy references (device time)
//	CUDA/<case>/{fused,unfused}/n=N      elementwise (device time)
//	CUDAReduce/<case>/n=N                reductions (device time)
//	CUDAOverhead/{queued,waited,raw-launch,raw-launch-sync}
//	CUDAGraph/{replay,eager}/kernels=K   host time per K kernels
//	CUDACrossover/<case>/{cpu,gpu}/n=N   host time per Assign
//	CUDAFirstAssign/{cold,warm,off}      first Assign in a new process
//	Torch/copy/n=N, Torch/<case>/{eager,compile}/n=N
//	TorchReduce/<case>/{eager,compile}/n=N
//
// The first format (before issue 16) had CUDA/copy/n=N, a synchronous
// cuMemcpyDtoD timed on the host, and host-timed cases; it still renders,
// with what it lacks left out.
const (
	cudaSuite        = "CUDA/"
	reduceGPUSuite   = "CUDAReduce/"
	overheadSuite    = "CUDAOverhead/"
	graphSuite       = "CUDAGraph/"
	crossoverSuite   = "CUDACrossover/"
	firstAssignSuite = "CUDAFirstAssign/"
	torchSuite       = "Torch/"
	torchReduceSuite = "TorchReduce/"
)

// Targets (issue 16).
const (
	copyShareGoal  = 0.85    // fused elementwise bandwidth over the copy's, at 2^26 and above
	copyShareFrom  = 1 << 26 // the smallest n the copy-share goal applies to
	queuedGoal     = 8e-6    // host time of a cached Assign, queued
	waitedGoal     = 18e-6   // and waited
	firstCacheGoal = 1e-3    // first Assign in a new process, kernel on disk
	torchGoal      = 1.0     // (issue 33) fused elementwise speed over torch.compile's, every case and size
	reduceCopyGoal = 0.80    // (issue 33) a reduction's bandwidth over the copy's
)

// copyShareCases are the cases the copy-share goal is set for (the
// broadcast and transposed cases are measured against it, not held to it).
var copyShareCases = []string{"poly4", "long8"}

// copyRefs are the copy references in the order the table shows them: the
// report divides by the fastest at each n.
var copyRefs = []struct{ path, label string }{
	{"copy/kernel/", "float4 copy kernel"},
	{"copy/memcpy/", "cuMemcpyDtoDAsync"},
	{"copy/", "cuMemcpyDtoD, synchronous"}, // the first format
}

// gpuCases lists the elementwise cases of the GPU suite (every name but
// copy).
func (rs *results) gpuCases() []string {
	var out []string
	for _, c := range rs.level(cudaSuite, 1) {
		if c != "copy" {
			out = append(out, c)
		}
	}
	return out
}

// at returns the median of suite+path in unit, on the most cores that
// suite ran with.
func (rs *results) at(suite, path, unit string) (float64, bool) {
	return rs.median(suite+path, rs.maxProcs(suite), unit)
}

// gpuSpeed returns the median bandwidth of suite/<path>/n=N in bytes per
// second.
func (rs *results) gpuSpeed(suite, path string, n int) (float64, bool) {
	return rs.at(suite, fmt.Sprintf("%sn=%d", path, n), unitSpeed)
}

// copySpeed returns the fastest copy reference at n and its label.
func (rs *results) copySpeed(n int) (float64, string, bool) {
	best, label := 0.0, ""
	for _, r := range copyRefs {
		if bps, ok := rs.gpuSpeed(cudaSuite, r.path, n); ok && bps > best {
			best, label = bps, r.label
		}
	}
	return best, label, best > 0
}

// gpuSection is the GPU tables, or the note that there are no figures yet.
func gpuSection(rs *results) (string, error) {
	if rs == nil || len(rs.gpuCases()) == 0 {
		return "**No GPU figures yet**: there is no docs/bench/gpu.txt. Run the suite on a GPU " +
			"machine (below), save its output there, and run `make report`.\n", nil
	}
	var b strings.Builder
	fmt.Fprintf(&b, "Device: %s; measured %s.", orUnknown(rs.config["device"]), orUnknown(rs.config["date"]))
	if v := rs.config["torch"]; v != "" {
		fmt.Fprintf(&b, " PyTorch %s on %s, in the same session.", v, orUnknown(rs.config["torch-device"]))
	}
	if v := rs.config["timing"]; v != "" {
		fmt.Fprintf(&b, " Kernel figures are device time (%s).", v)
	}
	b.WriteString("\n")
	for _, part := range []func(*results) string{gpuElementwise, gpuCopies, gpuReductions, gpuOverhead, gpuGraphs, gpuCrossover, gpuFirstAssign} {
		if s := part(rs); s != "" {
			b.WriteString("\n" + s)
		}
	}
	return b.String(), nil
}

// gpuElementwise is the elementwise table and its target line.
func gpuElementwise(rs *results) string {
	t := &table{align: "lrrrrrrrr", header: []string{"case", "n", "laze fused", "% of copy", "torch.compile", "laze / torch.compile", "torch eager", "laze unfused", "fused / unfused"}}
	lowest, lowestAt, checked := math.Inf(1), "", false
	worst, worstAt, against := math.Inf(1), "", false // laze over torch.compile
	for _, c := range rs.gpuCases() {
		for _, n := range rs.sizes(cudaSuite+c+"/fused/", 3) {
			fused, ok := rs.gpuSpeed(cudaSuite, c+"/fused/", n)
			if !ok {
				continue
			}
			cp, _, okC := rs.copySpeed(n)
			comp, okT := rs.gpuSpeed(torchSuite, c+"/compile/", n)
			eager, okE := rs.gpuSpeed(torchSuite, c+"/eager/", n)
			unfused, okU := rs.gpuSpeed(cudaSuite, c+"/unfused/", n)
			t.add(c, formatPower(n), formatGBs(fused), pctCell(fused, cp, okC), speedCell(comp, okT), ratioCell(fused, comp, okT),
				speedCell(eager, okE), speedCell(unfused, okU), ratioCell(fused, unfused, okU))
			if okT && fused/comp < worst {
				worst, worstAt, against = fused/comp, fmt.Sprintf("%s at %s", c, formatPower(n)), true
			}
			if okC && n >= copyShareFrom && slices.Contains(copyShareCases, c) {
				checked = true
				if share := fused / cp; share < lowest {
					lowest, lowestAt = share, fmt.Sprintf("%s at %s", c, formatPower(n))
				}
			}
		}
	}
	s := "**Elementwise**, float32. GB/s counts the bytes each case must read and write, over its time; " +
		"\"% of copy\" divides by the fastest copy at the same n (below); \"laze / X\" is X's time over laze's " +
		"(above 1× laze is faster).\n\n" + t.String()
	if checked {
		s += fmt.Sprintf("\nTarget: fused ≥ %.0f%% of copy at %s and above, %s: **%s** (lowest %.0f%%, %s).\n",
			100*copyShareGoal, formatPower(copyShareFrom), strings.Join(copyShareCases, " and "), status(atMost(copyShareGoal, lowest)), 100*lowest, lowestAt)
	}
	if against {
		s += fmt.Sprintf("\nTarget: fused ≥ torch.compile in every case and size: **%s** (lowest %.2f×, %s).\n",
			status(atMost(torchGoal, worst)), worst, worstAt)
	}
	return s
}

// gpuCopies is the table of the copy references.
func gpuCopies(rs *results) string {
	t := &table{align: "rrrrrl", header: []string{"n"}}
	var present []int
	for i, r := range copyRefs {
		if len(rs.sizes(cudaSuite+r.path, strings.Count(cudaSuite+r.path, "/"))) > 0 {
			present = append(present, i)
			t.header = append(t.header, r.label)
		}
	}
	t.header = append(t.header, "torch copy_", "reference")
	t.align = "r" + strings.Repeat("r", len(present)+1) + "l"
	for _, n := range rs.sizes(cudaSuite+"poly4/fused/", 3) {
		cp, label, ok := rs.copySpeed(n)
		if !ok {
			continue
		}
		row := []string{formatPower(n)}
		for _, i := range present {
			bps, ok := rs.gpuSpeed(cudaSuite, copyRefs[i].path, n)
			row = append(row, speedCell(bps, ok))
		}
		tc, okT := rs.gpuSpeed(torchSuite, "copy/", n)
		row = append(row, speedCell(tc, okT), fmt.Sprintf("%s, %s", label, formatGBs(cp)))
		t.add(row...)
	}
	if len(t.rows) == 0 {
		return ""
	}
	return "**Copy references** (bytes read + written per second):\n\n" + t.String()
}

// gpuReductions is the reductions table: laze against the copy's
// bandwidth and against torch.sum on the same data.
func gpuReductions(rs *results) string {
	t := &table{align: "lrrrrrrr", header: []string{"case", "n", "laze", "% of copy", "torch.sum", "laze / torch.sum", "torch.compile", "laze / torch.compile"}}
	lowest, lowestAt := math.Inf(1), ""
	for _, c := range rs.level(reduceGPUSuite, 1) {
		for _, n := range rs.sizes(reduceGPUSuite+c+"/", 2) {
			laze, ok := rs.gpuSpeed(reduceGPUSuite, c+"/", n)
			if !ok {
				continue
			}
			cp, _, okC := rs.copySpeed(n)
			eager, okE := rs.gpuSpeed(torchReduceSuite, c+"/eager/", n)
			comp, okT := rs.gpuSpeed(torchReduceSuite, c+"/compile/", n)
			t.add(c, formatPower(n), formatGBs(laze), pctCell(laze, cp, okC), speedCell(eager, okE), ratioCell(laze, eager, okE),
				speedCell(comp, okT), ratioCell(laze, comp, okT))
			if okC && laze/cp < lowest {
				lowest, lowestAt = laze/cp, c
			}
		}
	}
	if len(t.rows) == 0 {
		return ""
	}
	s := "**Reductions**, float32: `summul` is Sum(a*b) to a scalar, `rows` and `cols` sum an 8192×8192 matrix " +
		"along Axis(1) and Axis(0); torch.sum is the same call in eager PyTorch.\n\n" + t.String()
	if lowestAt != "" {
		s += fmt.Sprintf("\nTarget: every reduction ≥ %.0f%% of copy: **%s** (lowest %.0f%%, %s).\n",
			100*reduceCopyGoal, status(atMost(reduceCopyGoal, lowest)), 100*lowest, lowestAt)
	}
	return s
}

// gpuOverhead is the host's cost of a cached Assign against the driver's
// own launch.
func gpuOverhead(rs *results) string {
	queued, okQ := rs.at(overheadSuite, "queued", unitTime)
	waited, okW := rs.at(overheadSuite, "waited", unitTime)
	if !okQ && !okW {
		return ""
	}
	raw, okR := rs.at(overheadSuite, "raw-launch", unitTime)
	rawSync, okS := rs.at(overheadSuite, "raw-launch-sync", unitTime)
	t := &table{align: "lrrrl", header: []string{"per call, host time", "laze", "raw launch of an empty kernel", "laze − raw", "target"}}
	row := func(name string, laze float64, ok bool, ref float64, okRef bool, goal float64) {
		if !ok {
			return
		}
		diff := "—"
		if okRef {
			diff = formatTime(laze - ref)
		}
		refCell := "—"
		if okRef {
			refCell = formatTime(ref)
		}
		t.add(name, formatTime(laze), refCell, diff, fmt.Sprintf("≤ %s: **%s**", formatTime(goal), status(atMost(laze, goal))))
	}
	row("queued (cuda.Assign; cuLaunchKernel)", queued, okQ, raw, okR, queuedGoal)
	row("waited (kernels.Assign; launch + cuStreamSynchronize)", waited, okW, rawSync, okS, waitedGoal)
	return "**Host overhead** of a cached Assign of a one-element tree (queued calls wait every 1000):\n\n" + t.String()
}

// gpuGraphs is the cost per kernel of a graph's replay against the same
// Assigns queued one by one.
func gpuGraphs(rs *results) string {
	t := &table{align: "rrrr", header: []string{"kernels per graph", "replay, per kernel", "eager Assigns, per kernel", "eager / replay"}}
	for _, k := range rs.sizesNamed(graphSuite+"replay/", 2, "kernels=") {
		replay, ok := rs.at(graphSuite, fmt.Sprintf("replay/kernels=%d", k), unitTime)
		if !ok {
			continue
		}
		eager, okE := rs.at(graphSuite, fmt.Sprintf("eager/kernels=%d", k), unitTime)
		per, perE := replay/float64(k), eager/float64(k)
		t.add(strconv.Itoa(k), formatTime(per), timeCell(perE, okE), ratioCell(perE, per, okE))
	}
	if len(t.rows) == 0 {
		return ""
	}
	return "**CUDA graphs**: host time of a replay (Graph.Launch, then Wait) of k one-element Assigns, per kernel, " +
		"against the k Assigns queued one by one and waited once:\n\n" + t.String()
}

// gpuCrossover is the race of the CPU and GPU evaluators on the same tree,
// and the size below which the CPU wins.
func gpuCrossover(rs *results) string {
	var b strings.Builder
	for _, c := range rs.level(crossoverSuite, 1) {
		t := &table{align: "rrrr", header: []string{"n", "laze CPU", "laze GPU, waited", "GPU speed-up"}}
		crossover, cpuWins, gpuWins := 0, false, false
		for _, n := range rs.sizes(crossoverSuite+c+"/cpu/", 3) {
			cpu, ok1 := rs.at(crossoverSuite, fmt.Sprintf("%s/cpu/n=%d", c, n), unitTime)
			gpu, ok2 := rs.at(crossoverSuite, fmt.Sprintf("%s/gpu/n=%d", c, n), unitTime)
			if !ok1 || !ok2 {
				continue
			}
			t.add(formatPower(n), formatTime(cpu), formatTime(gpu), formatRatio(cpu/gpu))
			switch {
			case cpu < gpu:
				cpuWins, crossover = true, 0
			case crossover == 0:
				crossover, gpuWins = n, true
			}
		}
		if len(t.rows) == 0 {
			continue
		}
		var verdict string
		switch {
		case !cpuWins:
			verdict = "the GPU is faster at every size measured"
		case !gpuWins:
			verdict = "the CPU is faster at every size measured"
		case crossover == 0:
			verdict = "the CPU is faster at the largest size measured"
		default:
			verdict = fmt.Sprintf("the CPU is faster below %s; the GPU from %s on", formatPower(crossover), formatPower(crossover))
		}
		fmt.Fprintf(&b, "**CPU against GPU**, %s in float32, kernels.Assign with the data where it is evaluated "+
			"(the CPU evaluator on %d cores): %s.\n\n%s", c, rs.maxProcs(crossoverSuite), verdict, t.String())
	}
	return b.String()
}

// gpuFirstAssign is the first Assign of a known tree in a new process,
// with the on-disk kernel cache cold, warm and off.
func gpuFirstAssign(rs *results) string {
	t := &table{align: "lrrr", header: []string{"LAZE_CUDA_CACHE", "first Assign", "second Assign", "kernels compiled"}}
	labels := map[string]string{"cold": "cold (empty directory)", "warm": "warm (filled by an earlier process)", "off": "off"}
	var warm float64
	okWarm := false
	for _, c := range rs.level(firstAssignSuite, 1) {
		first, ok := rs.at(firstAssignSuite, c, unitTime)
		if !ok {
			continue
		}
		second, ok2 := rs.at(firstAssignSuite, c, "second-sec/op")
		compiled, ok3 := rs.at(firstAssignSuite, c, "compiled/op")
		label := labels[c]
		if label == "" {
			label = c
		}
		count := "—"
		if ok3 {
			count = strconv.FormatFloat(compiled, 'f', -1, 64)
		}
		t.add(label, formatTime(first), timeCell(second, ok2), count)
		if c == "warm" {
			warm, okWarm = first, true
		}
	}
	if len(t.rows) == 0 {
		return ""
	}
	s := "**First Assign in a new process** (poly4, float32; the process's start and cuda.Open not counted):\n\n" + t.String()
	if okWarm {
		s += fmt.Sprintf("\nTarget: first Assign with the kernel on disk ≤ %s: **%s**.\n", formatTime(firstCacheGoal), status(atMost(warm, firstCacheGoal)))
	}
	return s
}

// sizesNamed lists the values of the i'th element under prefix, written
// as label followed by an integer ("kernels=10"), in increasing order.
func (rs *results) sizesNamed(prefix string, i int, label string) []int {
	var out []int
	for _, s := range rs.level(prefix, i) {
		if v, ok := strings.CutPrefix(s, label); ok {
			if n, err := strconv.Atoi(v); err == nil && !slices.Contains(out, n) {
				out = append(out, n)
			}
		}
	}
	slices.Sort(out)
	return out
}

// atMost reports whether v ≤ limit, allowing for the rounding of a unit
// conversion (8000 ns/op is 8.000000000000001e-06 s).
func atMost(v, limit float64) bool { return v <= limit*(1+1e-9) }

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
