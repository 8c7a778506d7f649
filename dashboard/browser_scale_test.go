package dashboard

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/tripwire-go/tripwire"
	"github.com/tripwire-go/tripwire/tripwiretest"
)

// thousand is the page of BrowserUpdatesAThousandKeys (test and
// benchmark): 1,000 busy keys, flaky of them failing one call in two (they
// open, half-open and close again, every 2 s), called about twice a
// second each so that every row changes at every refresh, and a page
// showing all 1,000.
func thousand(tb testing.TB, flaky int) (*fixture, context.Context) {
	tb.Helper()
	names := keys("k", 1000)
	f := serveWith(tb, names, tripwire.Settings{Threshold: 3, OpenTimeout: 2 * time.Second, CallTimeout: time.Second})
	for _, k := range names[:flaky] {
		f.dep.flaky[k] = 2
	}
	f.load(tb, names, 4, 2*time.Millisecond)
	tab := browser(tb, 1400, 900)
	steps(tb, tab, "load the page",
		chromedp.Navigate(f.srv.URL+"/#limit=1000"),
		chromedp.WaitVisible(chromedp.CSS(`body[data-ready="true"]`)),
	)
	until(tb, tab, `document.querySelectorAll('.tile').length === 1000`)
	return f, tab
}

// bigUpdates counts the updates of 500 rows or more the page has handled
// (app.js keeps them in window.tripwirePerf).
const bigUpdates = `window.tripwirePerf.frames.filter((f) => !f.reset && f.rows >= 500).length`

func TestBrowserUpdatesAThousandKeys(t *testing.T) {
	// Given a page showing 1,000 busy keys, every row changing at every refresh
	f, tab := thousand(t, 0)
	// When it has taken three updates of 500 rows or more
	until(t, tab, bigUpdates+` >= 3`)
	// and a hundred keys are forced open, a hundred forced closed, fifty crashed
	var open, forced, crashed []string
	for i := 1; i <= 1000; i++ {
		k := fmt.Sprintf("k%04d", i)
		var err error
		switch {
		case i%10 == 0:
			open, err = append(open, k), f.reg.ForceOpen(context.Background(), k)
		case i%10 == 5:
			forced, err = append(forced, k), f.reg.ForceClose(context.Background(), k)
		case i%20 == 3:
			crashed, err = append(crashed, k), tripwiretest.Crash(context.Background(), f.reg, k)
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	// Then the page shows each of the 1,000 as it is: the open ones first,
	// then the forced ones, then the others, each kind in key order, and
	// the crashed ones restarted once
	var want []string
	for _, k := range open {
		want = append(want, k+":open:open:forced")
	}
	for _, k := range forced {
		want = append(want, k+":closed:forced:forced")
	}
	for i := 1; i <= 1000; i++ {
		if k := fmt.Sprintf("k%04d", i); !slices.Contains(open, k) && !slices.Contains(forced, k) {
			want = append(want, k+":closed:healthy:")
		}
	}
	tiles := `[...document.querySelectorAll('.tile')].map((e) => [e.dataset.key, e.dataset.state, e.dataset.severity,
		e.querySelector('.force-badge').hidden ? "" : e.querySelector('.force-badge').textContent].join(":")).join()`
	until(t, tab, tiles+` === "`+strings.Join(want, ",")+`"`)
	restarted := `[...document.querySelectorAll('.tile')].filter((e) => e.querySelector('.restarts').textContent === "1").map((e) => e.dataset.key).sort().join()`
	until(t, tab, restarted+` === "`+strings.Join(crashed, ",")+`"`)
	// and every tile shows its calls, the page counts them all, and it took more big updates meanwhile
	until(t, tab, `[...document.querySelectorAll('.tile [data-f="rate"]')].every((e) => e.textContent !== "0")`)
	until(t, tab, `document.getElementById("shown").textContent === "showing 1,000 of 1,000 keys, worst first" &&
		document.getElementById("n-open").textContent === "100" && document.getElementById("n-forced").textContent === "200"`)
	if n := read(t, tab, chromedp.Evaluate[int](bigUpdates)); n < 4 {
		t.Fatalf("%d updates of 500 rows or more", n)
	}
}

// perfFrame is one update the page measured (app.js, window.tripwirePerf):
// its rows, and how long from the event to the end of its handler and to
// the next frame drawn, in ms.
type perfFrame struct {
	Rows    int     `json:"rows"`
	Reset   bool    `json:"reset"`
	Handler float64 `json:"handler"`
	Frame   float64 `json:"frame"`
}

// BenchmarkBrowserUpdateAThousandKeys measures the page at 1,000 keys, 40
// of them failing, all shown: each op is one update of 500 rows or more,
// every refresh (1 s). It reports the medians of the time the page's
// handler took (handler-ms) and of the time until the next frame was
// drawn (frame-ms), the worst of those (frame-max-ms), and the rows an
// update had. Run it alone, with -benchtime 12x or so (make dashbench): it
// measures wall time, the CPU the browser gets.
func BenchmarkBrowserUpdateAThousandKeys(b *testing.B) {
	f, tab := thousand(b, 40)
	start := time.Now()
	rows, matched, _ := f.h.board.look(filter{limit: maxLimit})
	b.Logf("server: a look at %d of %d keys (each breaker asked) takes %v", len(rows), matched, time.Since(start))
	until(b, tab, `window.tripwirePerf.frames.some((f) => f.reset)`)
	steps(b, tab, "start measuring", chromedp.Evaluate[chromedp.Void](`window.tripwirePerf.frames.length = 0`))
	n := 0
	for b.Loop() {
		n++
		untilWithin(b, tab, hangBound, fmt.Sprintf("%s >= %d", bigUpdates, n))
	}
	frames := read(b, tab, chromedp.Evaluate[[]perfFrame](`window.tripwirePerf.frames`))
	var handler, frame, size []float64
	for _, fr := range frames {
		if !fr.Reset && fr.Rows >= 500 {
			handler, frame, size = append(handler, fr.Handler), append(frame, fr.Frame), append(size, float64(fr.Rows))
		}
	}
	slices.Sort(handler)
	slices.Sort(frame)
	slices.Sort(size)
	med := func(x []float64) float64 { return x[len(x)/2] }
	b.ReportMetric(0, "ns/op") // the refresh, not the page
	b.ReportMetric(med(handler), "handler-ms")
	b.ReportMetric(med(frame), "frame-ms")
	b.ReportMetric(frame[len(frame)-1], "frame-max-ms")
	b.ReportMetric(med(size), "rows")
}
