package main

import (
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/tripwire-go/tripwire/cmd/tripwire/internal/demo"
)

// lineView prints plain lines, for a pipe or a file: each event as it
// happens, a status line per key every second, and a summary at the end.
type lineView struct {
	mu   sync.Mutex
	w    io.Writer
	cols []column
	p    demo.Pattern
}

func newLineView(w io.Writer, p demo.Pattern) *lineView {
	return &lineView{w: w, cols: demoColumns(p), p: p}
}

func (v *lineView) every() time.Duration { return time.Second }

func (v *lineView) start(header []string) { v.print(header...) }

func (v *lineView) event(e demoEvent) { v.print(e.line(plain)) }

func (v *lineView) status(at time.Duration, rows []demo.Row) {
	lines := make([]string, len(rows))
	for i, r := range rows {
		lines[i] = fmt.Sprintf("%s  %s  %-9s dep=%s failures=%d in_flight=%d calls=%d ok=%d errors=%d timeouts=%d rejected=%d restarts=%d p50=%s p99=%s",
			fmtAt(at), r.Key, r.State, dependencyText(v.p, r), r.Failures, r.InFlight,
			r.Calls, r.OK, r.Failed, r.Timeouts, r.Rejected, r.Restarts, fmtDur(r.P50), fmtDur(r.P99))
	}
	v.print(lines...)
}

func (v *lineView) finish(at time.Duration, rows []demo.Row) {
	v.print(summaryLines(at, rows, v.cols, 0)...)
}

func (v *lineView) print(lines ...string) {
	v.mu.Lock()
	defer v.mu.Unlock()
	for _, l := range lines {
		fmt.Fprintln(v.w, l)
	}
}
