package main

import (
	"fmt"
	"math"
	"strings"
)

// formatTime prints seconds in the unit that suits them: whole
// nanoseconds, microseconds to one decimal, milliseconds to two.
func formatTime(sec float64) string {
	switch {
	case sec < 1e-6:
		return fmt.Sprintf("%.0f ns", sec*1e9)
	case sec < 1e-3:
		return fmt.Sprintf("%.1f µs", sec*1e6)
	default:
		return fmt.Sprintf("%.2f ms", sec*1e3)
	}
}

// formatRatio prints a ratio as 1.23×.
func formatRatio(r float64) string { return fmt.Sprintf("%.2f×", r) }

// formatAgainst prints a ratio checked against goal to two decimals, or to
// three where two would round it onto the goal (1.2996× against 1.3×).
func formatAgainst(r, goal float64) string {
	if s := formatRatio(r); s != formatRatio(goal) || r == goal {
		return s
	}
	return fmt.Sprintf("%.3f×", r)
}

// formatCount prints an integer with thousands separators: 10,000,000.
func formatCount(n int) string {
	s := fmt.Sprint(n)
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	return b.String()
}

// formatPower prints n as 2^k when it is a power of two, else as a count.
func formatPower(n int) string {
	if n > 0 && n&(n-1) == 0 {
		return fmt.Sprintf("2^%d", int(math.Log2(float64(n))))
	}
	return formatCount(n)
}

// formatGBs prints bytes per second as GB/s.
func formatGBs(bps float64) string { return fmt.Sprintf("%.1f GB/s", bps/1e9) }

// table writes a markdown table: header, alignment (l or r per column), rows.
type table struct {
	header []string
	align  string
	rows   [][]string
}

func (t *table) add(cells ...string) { t.rows = append(t.rows, cells) }

// String renders the table as GitHub markdown.
func (t *table) String() string {
	var b strings.Builder
	b.WriteString("| " + strings.Join(t.header, " | ") + " |\n|")
	for i := range t.header {
		if i < len(t.align) && t.align[i] == 'r' {
			b.WriteString("---:|")
		} else {
			b.WriteString("---|")
		}
	}
	b.WriteString("\n")
	for _, r := range t.rows {
		b.WriteString("| " + strings.Join(r, " | ") + " |\n")
	}
	return b.String()
}

// status reads a target's outcome.
func status(met bool) string {
	if met {
		return "met"
	}
	return "missed"
}
