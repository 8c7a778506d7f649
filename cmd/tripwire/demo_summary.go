package main

import (
	"fmt"
	"time"

	"github.com/tripwire-go/tripwire/cmd/tripwire/internal/demo"
)

// summaryLines is the summary after a run of at: every key's row under
// cols, and what the columns mean. Fitted to width, it leaves out the
// columns that do not fit and says so; width 0 fits any width.
func summaryLines(at time.Duration, rows []demo.Row, cols []column, width int) []string {
	lines := []string{"", fmt.Sprintf("summary after %.2fs:", at.Seconds())}
	if width == 0 {
		lines = append(lines, renderTable(rows, cols, plain)...)
		return append(lines, legend(cols)...)
	}
	layout := fitColumns(rows, cols, width)
	lines = append(lines, layout.lines(rows, plain)...)
	if len(layout.hidden) > 0 {
		lines = append(lines, layout.hiddenNote(width))
	}
	return append(lines, legendFor(layout, width)...)
}
