package main

import (
	"flag"
	"fmt"
	"os"
)

func main() {
	cpu := flag.String("cpu", "docs/bench/cpu.txt", "raw output of the CPU suite")
	gpu := flag.String("gpu", "docs/bench/gpu.txt", "raw output of the GPU suite and torch_bench.py (optional)")
	vocab := flag.String("vocab", "docs/bench/vocabulary.txt", "raw output of the vocabulary alone (make bench-vocabulary; optional: else the CPU suite's)")
	doc := flag.String("doc", "docs/performance.md", "the document whose marked sections are regenerated")
	img := flag.String("img", "docs/img", "the folder the SVG plots are written to")
	flag.Parse()
	files, err := report(*cpu, *gpu, *vocab, *doc, *img)
	if err != nil {
		fmt.Fprintln(os.Stderr, "report:", err)
		os.Exit(1)
	}
	for _, f := range files {
		fmt.Println("wrote", f)
	}
}

// report reads the raw files, rewrites the document's sections and draws
// the plots, returning the files it wrote. The document is written only
// when every section renders.
func report(cpuFile, gpuFile, vocabFile, docFile, imgDir string) ([]string, error) {
	var in inputs
	var err error
	if in.cpu, err = readFile(cpuFile, false); err != nil {
		return nil, err
	}
	if in.gpu, err = readFile(gpuFile, true); err != nil {
		return nil, err
	}
	if in.vocab, err = readFile(vocabFile, true); err != nil {
		return nil, err
	}
	old, err := os.ReadFile(docFile)
	if err != nil {
		return nil, err
	}
	doc, err := fill(string(old), in)
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(imgDir, 0o755); err != nil {
		return nil, err
	}
	files, err := drawAll(in, imgDir)
	if err != nil {
		return nil, err
	}
	if err := os.WriteFile(docFile, []byte(doc), 0o644); err != nil {
		return nil, err
	}
	return append(files, docFile), nil
}

// drawAll draws every plot the inputs have figures for.
func drawAll(in inputs, dir string) ([]string, error) {
	files, err := elementwisePlots(in.cpu, dir)
	if err != nil {
		return nil, err
	}
	scaling, err := scalingPlot(in.cpu, dir)
	if err != nil {
		return nil, err
	}
	files = append(files, scaling)
	workloads, err := workloadsPlot(in.cpu, dir)
	if err != nil {
		return nil, err
	}
	if workloads != "" {
		files = append(files, workloads)
	}
	if in.gpu == nil {
		return files, nil
	}
	gpu, err := gpuPlots(in.gpu, dir)
	return append(files, gpu...), err
}
