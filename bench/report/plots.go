package main

import (
	"fmt"
	"math"
	"path/filepath"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
)

// Every plot is this size, in SVG.
const (
	plotWidth  = 6 * vg.Inch
	plotHeight = 4 * vg.Inch
)

func init() {
	plot.DefaultFont = font.Font{Typeface: "Liberation", Variant: "Sans"}
}

// savePlot writes p, width wide, to dir/name and returns the path.
func savePlot(p *plot.Plot, width vg.Length, dir, name string) (string, error) {
	file := filepath.Join(dir, name)
	return file, p.Save(width, plotHeight, file)
}

// sizeTicks labels exactly the sizes measured, as powers of ten or two.
func sizeTicks(ns []int) plot.ConstantTicks {
	ticks := make(plot.ConstantTicks, len(ns))
	for i, n := range ns {
		ticks[i] = plot.Tick{Value: float64(n), Label: sizeLabel(n)}
	}
	return ticks
}

// sizeLabel writes 1e7 for a power of ten, 2^26 for a power of two.
func sizeLabel(n int) string {
	if k := math.Log10(float64(n)); k == math.Trunc(k) {
		return fmt.Sprintf("1e%d", int(k))
	}
	return formatPower(n)
}

// throughputPlot draws one line per named series of (n, bytes/s) points,
// in GB/s, with n on a log axis. A log throughput axis suits series that
// differ by orders of magnitude; a linear one from zero, with headroom for
// the legend, suits those that do not (the GPU's).
func throughputPlot(title string, logY bool, ns []int, series []string, speed func(series string, n int) (float64, bool)) (*plot.Plot, error) {
	p := plot.New()
	p.Title.Text = title
	p.X.Label.Text = "n (elements)"
	p.Y.Label.Text = "GB/s (bytes read and written per second)"
	p.X.Scale = plot.LogScale{}
	p.X.Tick.Marker = sizeTicks(ns)
	if logY {
		p.Y.Scale = plot.LogScale{}
		p.Y.Tick.Marker = plot.LogTicks{Prec: -1}
	}
	p.Legend.Top, p.Legend.Left = true, false
	p.Add(plotter.NewGrid())
	var lines []any
	top := 0.0
	for _, s := range series {
		var xys plotter.XYs
		for _, n := range ns {
			if bps, ok := speed(s, n); ok && bps > 0 {
				xys = append(xys, plotter.XY{X: float64(n), Y: bps / 1e9})
				top = max(top, bps/1e9)
			}
		}
		if len(xys) > 0 {
			lines = append(lines, s, xys)
		}
	}
	if len(lines) == 0 {
		return nil, fmt.Errorf("%s: nothing to plot", title)
	}
	if err := plotutil.AddLinePoints(p, lines...); err != nil {
		return nil, err
	}
	if !logY {
		p.Y.Min, p.Y.Max = 0, 1.9*top
	}
	return p, nil
}

// elementwisePlots draws, for each case, the throughput of every
// implementation the run has (laze-simd and the peers included) against n
// on one core, into dir/elementwise-<case>.svg.
func elementwisePlots(rs *results, dir string) ([]string, error) {
	var files []string
	have, _ := rs.ewImpls()
	impl := map[string]string{} // legend label to implementation
	var labels []string
	for _, im := range have {
		impl[implLabel(im)] = im
		labels = append(labels, implLabel(im))
	}
	for _, c := range rs.ewCases() {
		p, err := throughputPlot(c+" (one core)", true, rs.ewSizes(), labels, func(label string, n int) (float64, bool) {
			return rs.median(ewName(c, impl[label], n), 1, unitSpeed)
		})
		if err != nil {
			return nil, err
		}
		file, err := savePlot(p, plotWidth, dir, "elementwise-"+c+".svg")
		if err != nil {
			return nil, err
		}
		files = append(files, file)
	}
	return files, nil
}

// scalingPlot draws, for each elementwise case at the largest size and each
// reduction, the speed-up on all cores over one core, for laze and for the
// serial hand loop, against the ideal.
func scalingPlot(rs *results, dir string) (string, error) {
	procs := rs.maxProcs(elementwise)
	if procs < 2 {
		return "", fmt.Errorf("scaling: no runs with more than one core")
	}
	var names []string
	var laze, hand plotter.Values
	speedup := func(name string) float64 { // 0 draws no bar
		up, ok := rs.speedup(name, procs)
		if !ok {
			return 0
		}
		return up
	}
	n := rs.largest()
	for _, c := range rs.ewCases() {
		names = append(names, c)
		laze = append(laze, speedup(ewName(c, "laze", n)))
		hand = append(hand, speedup(ewName(c, "handloop", n)))
	}
	for _, c := range rs.level(reduce, 1) {
		names = append(names, "reduce "+c)
		laze = append(laze, speedup(reduce+c+"/laze"))
		hand = append(hand, speedup(reduce+c+"/handloop"))
	}
	p := plot.New()
	p.Title.Text = fmt.Sprintf("Speed-up on %d cores over one (elementwise at n = %s; reductions)", procs, sizeLabel(n))
	p.Y.Label.Text = fmt.Sprintf("time at -cpu 1 / time at -cpu %d", procs)
	p.Legend.Top, p.Legend.Left = true, true
	p.Add(plotter.NewGrid())
	width := vg.Points(12)
	for i, v := range []struct {
		name string
		vals plotter.Values
	}{{"laze", laze}, {"handloop (serial)", hand}} {
		bars, err := plotter.NewBarChart(v.vals, width)
		if err != nil {
			return "", err
		}
		bars.Color = plotutil.Color(i)
		bars.LineStyle.Width = 0
		bars.Offset = width * vg.Length(2*i-1) / 2
		p.Add(bars)
		p.Legend.Add(v.name, bars)
	}
	ideal := plotter.NewFunction(func(float64) float64 { return float64(procs) })
	ideal.Dashes = plotutil.Dashes(1)
	p.Add(ideal)
	p.Legend.Add("ideal", ideal)
	p.NominalX(names...)
	p.Y.Min, p.Y.Max = 0, float64(procs)*1.25
	return savePlot(p, plotWidth+vg.Inch, dir, "scaling.svg")
}

// gpuPlots draws, for each GPU case, laze fused and unfused, the fastest
// copy and PyTorch against n, into dir/gpu-<case>.svg.
func gpuPlots(rs *results, dir string) ([]string, error) {
	series := []struct{ label, suite, path string }{
		{"laze fused", cudaSuite, "%s/fused/"},
		{"laze unfused", cudaSuite, "%s/unfused/"},
		{"fastest copy", cudaSuite, "copy/"},
		{"torch eager", torchSuite, "%s/eager/"},
		{"torch.compile", torchSuite, "%s/compile/"},
	}
	var labels []string
	for _, s := range series {
		labels = append(labels, s.label)
	}
	var files []string
	for _, c := range rs.gpuCases() {
		ns := rs.sizes(cudaSuite+c+"/fused/", 3)
		p, err := throughputPlot(fmt.Sprintf("%s on %s", c, orUnknown(rs.config["device"])), false, ns, labels, func(label string, n int) (float64, bool) {
			for _, s := range series {
				switch {
				case s.label != label:
				case s.path == "copy/":
					bps, _, ok := rs.copySpeed(n)
					return bps, ok
				default:
					return rs.gpuSpeed(s.suite, fmt.Sprintf(s.path, c), n)
				}
			}
			return 0, false
		})
		if err != nil {
			return nil, err
		}
		file, err := savePlot(p, plotWidth, dir, "gpu-"+c+".svg")
		if err != nil {
			return nil, err
		}
		files = append(files, file)
	}
	return files, nil
}
