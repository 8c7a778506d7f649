package dashboard

import (
	"flag"
	"os"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/tripwire-go/tripwire"
	"github.com/tripwire-go/tripwire/internal/demo"
)

var screenshotPath = flag.String("screenshot", "", "TestScreenshot writes a PNG of the dashboard here (make screenshot)")

// TestScreenshot takes the README's picture of the dashboard: six keys whose
// dependency slows down past the call timeout in turns, one forced open,
// once the page shows a closed, a half-open and a counting-down open
// breaker. It runs only with -screenshot, for about 15 s.
func TestScreenshot(t *testing.T) {
	if *screenshotPath == "" {
		t.Skip("no -screenshot path")
	}
	cfg := demo.DefaultConfig()
	cfg.Keys, cfg.Pattern, cfg.Callers, cfg.Interval = 6, demo.Slow, 4, 25*time.Millisecond
	cfg.DownAt, cfg.UpAt, cfg.Cycle, cfg.Stagger = 2*time.Second, 7*time.Second, 10*time.Second, 1700*time.Millisecond
	cfg.Settings = tripwire.Settings{Threshold: 3, OpenTimeout: 1500 * time.Millisecond, CallTimeout: 800 * time.Millisecond}
	f := serve(t, cfg, true)
	tab := browser(t, 1400, 900)
	steps(t, tab, "load the page",
		chromedp.EmulateViewport(1400, 900),
		chromedp.Navigate(f.srv.URL),
		chromedp.WaitVisible(chromedp.CSS(`body[data-ready="true"] .tile[data-key="dep-06"]`)),
	)
	// Given some history: every key's sparkline half full, dep-06 forced
	// open, dep-05 crashed once
	until(t, tab, `document.querySelectorAll('.tile .spark polyline[points*=" "]').length === 12`)
	for _, do := range []func() error{func() error { return f.reg.Crash("dep-05") }, func() error { return f.reg.ForceOpen("dep-06") }} {
		if err := do(); err != nil {
			t.Fatal(err)
		}
	}
	// When the page shows a closed, a half-open and an open breaker with its countdown
	untilWithin(t, tab, 40*time.Second, `(() => {
		const tiles = [...document.querySelectorAll('.tile')];
		const has = (s) => tiles.some((e) => e.dataset.state === s);
		const counting = tiles.some((e) => e.querySelector('.note').textContent.startsWith('half-open in'));
		const lines = document.querySelectorAll('#timeline li').length;
		const samples = tiles[0].querySelector('.line99').points.length;
		return has('closed') && has('half_open') && counting && lines >= 8 && samples >= 24;
	})()`)
	// Then its picture is taken
	png := read(t, tab, chromedp.CaptureScreenshot())
	if err := os.WriteFile(*screenshotPath, png, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("wrote %s (%d bytes)", *screenshotPath, len(png))
}
