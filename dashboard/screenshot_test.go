package dashboard

import (
	"context"
	"flag"
	"os"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/tripwire-go/tripwire"
	"github.com/tripwire-go/tripwire/tripwiretest"
)

var screenshotPath = flag.String("screenshot", "", "TestScreenshot writes a PNG of the dashboard here (make screenshot)")

// TestScreenshot takes the docs' picture of the dashboard: twelve keys
// under load, one tripped by its failures and counting down, one forced
// open, one forced closed, two failing, one crashed. It runs only with
// -screenshot, for a few seconds.
func TestScreenshot(t *testing.T) {
	if *screenshotPath == "" {
		t.Skip("no -screenshot path")
	}
	names := append(keys("payments-", 4), append(keys("search-", 4), keys("users-", 4)...)...)
	settings := tripwire.Settings{Threshold: 3, OpenTimeout: 20 * time.Second, CallTimeout: time.Second}
	f := serveWith(t, names, settings, WithControl(allowAll), WithTitle("checkout-service"))
	f.dep.latency = 8 * time.Millisecond
	f.load(t, names, 12, 5*time.Millisecond)
	f.dep.set("search-02", true)
	f.dep.set("users-03", true)
	f.dep.flaky["search-04"], f.dep.flaky["payments-04"] = 4, 9
	tab := browser(t, 1400, 900)
	steps(t, tab, "load the page",
		chromedp.EmulateViewport(1400, 900),
		chromedp.Navigate(f.mounted(t)),
		chromedp.WaitVisible(chromedp.CSS(`body[data-ready="true"] .tile[data-key="users-04"]`)),
	)
	for _, do := range []func() error{
		func() error { return tripwiretest.Crash(context.Background(), f.reg, "payments-03") },
		func() error { return f.reg.ForceOpen(context.Background(), "users-01") },
		func() error { return f.reg.ForceClose(context.Background(), "payments-02") },
	} {
		if err := do(); err != nil {
			t.Fatal(err)
		}
	}
	until(t, tab, `document.querySelectorAll('.tile[data-severity="open"]').length >= 3 && document.querySelectorAll('#timeline li').length >= 4`)
	// when every tile shows calls and the tripped ones count down
	until(t, tab, `[...document.querySelectorAll('.tile [data-f="rate"]')].every((e) => e.textContent !== "0") &&
		document.getElementById("n-forced").textContent === "2" && document.getElementById("n-failing").textContent === "2" &&
		[...document.querySelectorAll('.tile .note')].some((e) => e.textContent.startsWith("half-open in"))`)
	png := read(t, tab, chromedp.CaptureScreenshot())
	if err := os.WriteFile(*screenshotPath, png, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("wrote %s (%d bytes)", *screenshotPath, len(png))
}
