package dashboard

import (
	"context"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// chromiumPath is Debian's chromium, which `make chromium` installs.
const chromiumPath = "/usr/bin/chromium"

// browser starts a headless chromium with a fresh profile and returns a tab
// context. Without chromium the test is skipped, or fails if
// TRIPWIRE_REQUIRE_BROWSER=1 (make test sets it, so CI cannot skip it).
func browser(t *testing.T, width, height int) context.Context {
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

// browserWait bounds each step of a browser test.
const browserWait = 15 * time.Second

// steps runs actions in the tab, within browserWait.
func steps(t *testing.T, tab context.Context, what string, actions ...chromedp.Action[chromedp.Void]) {
	t.Helper()
	ctx, cancel := context.WithTimeout(tab, browserWait)
	defer cancel()
	if err := chromedp.Do(ctx, actions...); err != nil {
		t.Fatalf("%s: %v", what, err)
	}
}

// read runs one action that returns a value, within browserWait.
func read[T any](t *testing.T, tab context.Context, a chromedp.Action[T]) T {
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
func until(t *testing.T, tab context.Context, expr string) {
	t.Helper()
	untilWithin(t, tab, browserWait, expr)
}

// untilWithin waits for a JavaScript expression to be true, within d.
func untilWithin(t *testing.T, tab context.Context, d time.Duration, expr string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(tab, d)
	defer cancel()
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool](expr, chromedp.WithPollingInterval(20*time.Millisecond))); err != nil {
		t.Fatalf("waiting for %s: %v", expr, err)
	}
}

func TestBrowserCrashAndForceOpenFromTheTiles(t *testing.T) {
	// Given the dashboard of three busy, closed breakers, open in a browser
	f := serve(t, quietConfig(), true)
	tab := browser(t, 1280, 900)
	const tile = `.tile[data-key="dep-02"]`
	css := func(sel string) chromedp.CSS { return chromedp.CSS(sel) }
	steps(t, tab, "load the page",
		chromedp.Navigate(f.srv.URL),
		chromedp.WaitVisible(css(`body[data-ready="true"] `+tile)),
		chromedp.WaitVisible(css(`#conn[data-conn="live"]`)),
	)
	if r, b := read(t, tab, chromedp.Text(css(tile+` .restarts`))), read(t, tab, chromedp.TextContent(css(tile+` .badge`))); r != "0" || b != "closed" {
		t.Fatalf("before: restarts %q, badge %q", r, b)
	}

	// When its crash button is clicked
	steps(t, tab, "crash from the tile", chromedp.Click(css(tile+` button[data-action="crash"]`)))
	// Then the tile shows the restart
	until(t, tab, `document.querySelector('`+tile+` .restarts').textContent === "1"`)
	// and the registry agrees
	if snap, err := f.reg.Snapshot("dep-02"); err != nil || snap.Restarts != 1 {
		t.Fatalf("registry: %+v %v", snap, err)
	}

	// When its force-open button is clicked
	steps(t, tab, "force open from the tile",
		chromedp.Click(css(tile+` button[data-action="force-open"]`)),
		chromedp.WaitVisible(css(tile+`[data-state="open"]`)),
	)
	// Then the tile turns red and says it is open until reset, and the
	// timeline shows the transition on top
	steps(t, tab, "the transition in the timeline", chromedp.WaitVisible(css(`#timeline li:first-child[data-key="dep-02"]`)))
	if what := read(t, tab, chromedp.TextContent(css(`#timeline li:first-child`))); !strings.Contains(what, "closed → open") ||
		!strings.Contains(what, "forced open") {
		t.Fatalf("timeline: %q", what)
	}
	border := `getComputedStyle(document.querySelector('` + tile + `')).borderTopColor`
	const red, green = "rgb(240, 82, 79)", "rgb(47, 191, 113)"
	until(t, tab, border+` === "`+red+`"`) // once its colour has faded in
	badge := read(t, tab, chromedp.TextContent(css(tile+` .badge`)))
	note := read(t, tab, chromedp.Text(css(tile+` .note`)))
	if badge != "open" || note != "forced open · until reset" {
		t.Fatalf("after force-open: badge %q, note %q", badge, note)
	}

	// When its reset button is clicked
	steps(t, tab, "reset from the tile",
		chromedp.Click(css(tile+` button[data-action="reset"]`)),
		chromedp.WaitVisible(css(tile+`[data-state="closed"]`)),
	)
	// Then it is green again (its restart still counted), and the other tiles never changed
	until(t, tab, border+` === "`+green+`"`)
	until(t, tab, `[...document.querySelectorAll('.tile')].map(e => e.dataset.state + e.querySelector('.restarts').textContent).join() === "closed0,closed1,closed0"`)
}
