package dashboard

import (
	"context"
	"os"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// chromiumPath is Debian's chromium, which `make chromium` installs.
const chromiumPath = "/usr/bin/chromium"

// browser starts a headless chromium with a fresh profile and returns a tab
// context. Without chromium the test is skipped, or fails if
// TRIPWIRE_REQUIRE_BROWSER=1 (make test sets it, so CI cannot skip it).
func browser(t testing.TB, width, height int) context.Context {
	t.Helper()
	if _, err := os.Stat(chromiumPath); err != nil {
		if os.Getenv("TRIPWIRE_REQUIRE_BROWSER") == "1" {
			t.Fatalf("TRIPWIRE_REQUIRE_BROWSER=1 but %s: %v (make chromium installs it)", chromiumPath, err)
		}
		t.Skipf("no browser: %v (make chromium installs it)", err)
	}
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(chromiumPath),
		chromedp.Flag("headless", true),
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.Flag("disable-quic", true),
		chromedp.NoFirstRun,
		chromedp.NoDefaultBrowserCheck,
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.Flag("hide-scrollbars", true),
		chromedp.UserDataDir(t.TempDir()),
		chromedp.WindowSize(width, height),
	}
	alloc, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	tab, cancelTab := chromedp.NewContext(alloc)
	// Cleanups run last first: the browser is gone (and waited for) before
	// t.TempDir removes its profile.
	t.Cleanup(cancelAlloc)
	t.Cleanup(cancelTab)
	// Start the browser on a context without a deadline: a deadline on the
	// first Run would be the browser's whole life.
	if err := chromedp.Do(tab); err != nil {
		t.Fatalf("start %s: %v", chromiumPath, err)
	}
	return tab
}

// browserWait bounds each step of a browser test: a hang's bound, which
// holds with both cores busy with another job.
const browserWait = hangBound

// steps runs actions in the tab, within browserWait.
func steps(t testing.TB, tab context.Context, what string, actions ...chromedp.Action[chromedp.Void]) {
	t.Helper()
	ctx, cancel := context.WithTimeout(tab, browserWait)
	defer cancel()
	if err := chromedp.Do(ctx, actions...); err != nil {
		t.Fatalf("%s: %v", what, err)
	}
}

// read runs one action that returns a value, within browserWait.
func read[T any](t testing.TB, tab context.Context, a chromedp.Action[T]) T {
	t.Helper()
	ctx, cancel := context.WithTimeout(tab, browserWait)
	defer cancel()
	v, err := chromedp.Run(ctx, a)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// until waits for a JavaScript expression to be true, within browserWait.
func until(t testing.TB, tab context.Context, expr string) {
	t.Helper()
	untilWithin(t, tab, browserWait, expr)
}

// untilWithin waits for a JavaScript expression to be true, within d.
func untilWithin(t testing.TB, tab context.Context, d time.Duration, expr string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(tab, d)
	defer cancel()
	poll := chromedp.Poll[bool](expr, chromedp.WithPollingInterval(20*time.Millisecond), chromedp.WithPollingTimeout(d)) // its own default is 30 s
	if _, err := chromedp.Run(ctx, poll); err != nil {
		t.Fatalf("waiting for %s: %v", expr, err)
	}
}
