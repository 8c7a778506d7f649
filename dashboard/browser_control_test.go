package dashboard

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

func TestBrowserCrashForceOpenAndResetFromTheTiles(t *testing.T) {
	// Given the dashboard of three busy, closed breakers, mounted under
	// /breakers/ with control for everyone (crash offered), open in a
	// browser that counts the POSTs it sends
	names := keys("dep-", 3)
	f := serveCrashing(t, names, WithControl(allowAll))
	f.load(t, names, 3, 5*time.Millisecond)
	tab := browser(t, 1280, 900)
	const tile = `.tile[data-key="dep-02"]`
	css := func(sel string) chromedp.CSS { return chromedp.CSS(sel) }
	steps(t, tab, "load the page",
		chromedp.Navigate(f.mounted(t)),
		chromedp.WaitVisible(css(`body[data-ready="true"] `+tile)),
		chromedp.WaitVisible(css(`#conn[data-conn="live"]`)),
		chromedp.Evaluate[chromedp.Void](countPosts),
	)
	if r, b := read(t, tab, chromedp.Text(css(tile+` .restarts`))), read(t, tab, chromedp.TextContent(css(tile+` .badge`))); r != "0" || b != "closed" {
		t.Fatalf("before: restarts %q, badge %q", r, b)
	}

	// When its crash button is clicked
	steps(t, tab, "crash from the tile", chromedp.Click(css(tile+` button[data-action="crash"]`)))
	// Then the tile asks first, and nothing is sent
	steps(t, tab, "the question", chromedp.WaitVisible(css(tile+` .actions[data-asking="crash"] button[data-confirm="crash"]`)))
	if q := read(t, tab, chromedp.TextContent(css(tile+` .actions .ask`))); !strings.Contains(q, "Crash dep-02?") {
		t.Fatalf("question %q", q)
	}
	assertPosts(t, tab, 0)
	// When the question is cancelled
	steps(t, tab, "cancel", chromedp.Click(css(tile+` button[data-cancel="crash"]`)))
	// Then the buttons are back, and still nothing was sent or done
	steps(t, tab, "the buttons again", chromedp.WaitVisible(css(tile+` .actions:not([data-asking]) button[data-action="crash"]`)))
	assertPosts(t, tab, 0)
	if snap, err := f.reg.Snapshot(context.Background(), "dep-02"); err != nil || snap.Restarts != 0 {
		t.Fatalf("registry after cancel: %+v %v", snap, err)
	}

	// When crash is clicked again, and confirmed
	steps(t, tab, "crash and confirm",
		chromedp.Click(css(tile+` button[data-action="crash"]`)),
		chromedp.Click(css(tile+` button[data-confirm="crash"]`)),
	)
	// Then the tile shows the restart, the timeline has it, and the registry agrees
	until(t, tab, `document.querySelector('`+tile+` .restarts').textContent === "1"`)
	until(t, tab, `document.querySelector('#timeline li.restart[data-key="dep-02"]') !== null`)
	if snap, err := f.reg.Snapshot(context.Background(), "dep-02"); err != nil || snap.Restarts != 1 {
		t.Fatalf("registry: %+v %v", snap, err)
	}

	assertPosts(t, tab, 1)

	// When its force-open button is clicked, and confirmed
	steps(t, tab, "force open from the tile", chromedp.Click(css(tile+` button[data-action="force-open"]`)))
	steps(t, tab, "the question", chromedp.WaitVisible(css(tile+` button[data-confirm="force-open"]`)))
	assertPosts(t, tab, 1)
	steps(t, tab, "confirm",
		chromedp.Click(css(tile+` button[data-confirm="force-open"]`)),
		chromedp.WaitVisible(css(tile+`[data-state="open"]`)),
	)
	// Then the tile turns red, goes first, says it is forced open until
	// reset, and the timeline shows the transition on top
	steps(t, tab, "the transition in the timeline", chromedp.WaitVisible(css(`#timeline li:first-child[data-key="dep-02"]`)))
	if what := read(t, tab, chromedp.TextContent(css(`#timeline li:first-child`))); !strings.Contains(what, "closed → open") ||
		!strings.Contains(what, "forced open") {
		t.Fatalf("timeline: %q", what)
	}
	until(t, tab, `document.querySelector('.tile').dataset.key === "dep-02"`)
	border := `getComputedStyle(document.querySelector('` + tile + `')).borderTopColor`
	const red, green = "rgb(240, 82, 79)", "rgb(47, 191, 113)"
	until(t, tab, border+` === "`+red+`"`)
	until(t, tab, `document.querySelector('`+tile+` .note').textContent === "forced open · until reset"`)
	if badge := read(t, tab, chromedp.TextContent(css(tile+` .force-badge`))); badge != "forced" {
		t.Fatalf("forced badge %q", badge)
	}

	// When its reset button is clicked (reset asks nothing: it hands the key back to its policies)
	steps(t, tab, "reset from the tile",
		chromedp.Click(css(tile+` button[data-action="reset"]`)),
		chromedp.WaitVisible(css(tile+`[data-state="closed"]`)),
	)
	// Then it is green again, back in key order, its restart still counted
	until(t, tab, border+` === "`+green+`"`)
	until(t, tab, `[...document.querySelectorAll('.tile')].map(e => e.dataset.key + e.dataset.state + e.querySelector('.restarts').textContent).join() === "dep-01closed0,dep-02closed1,dep-03closed0"`)
	assertPosts(t, tab, 3)
}

// countPosts makes the page count the POSTs it sends (window.posts).
const countPosts = `window.posts = 0; { const real = window.fetch;
	window.fetch = (url, init) => { if (init && init.method === "POST") window.posts++; return real(url, init); }; }`

// assertPosts fails the test unless the page sent n POSTs.
func assertPosts(t *testing.T, tab context.Context, n int) {
	t.Helper()
	if got := read(t, tab, chromedp.Evaluate[int](`window.posts`)); got != n {
		t.Fatalf("%d POSTs sent, want %d", got, n)
	}
}

func TestBrowserOffersCrashOnlyWithWithCrash(t *testing.T) {
	for _, crash := range []bool{false, true} {
		// Given a dashboard with control for everyone, with or without WithCrash, in a browser
		serveAs := serve
		if crash {
			serveAs = serveCrashing
		}
		f := serveAs(t, keys("dep-", 2), WithControl(allowAll))
		tab := browser(t, 1280, 900)
		steps(t, tab, "load the page",
			chromedp.Navigate(f.srv.URL),
			chromedp.WaitVisible(chromedp.CSS(`body[data-ready="true"][data-control="true"] .tile[data-key="dep-02"] button[data-action="reset"]`)),
		)
		// Then a tile has a crash button only with it, and the others either way
		got := read(t, tab, chromedp.Evaluate[string](`[...document.querySelectorAll('.tile[data-key="dep-01"] button')].map((b) => b.dataset.action).join()`))
		want := "force-open,force-close,reset,probe-now"
		if crash {
			want += ",crash"
		}
		if got != want {
			t.Errorf("WithCrash %v: buttons %s, want %s", crash, got, want)
		}
	}
}

func TestBrowserShowsNoControlsToARequestTheHookRefuses(t *testing.T) {
	// Given a dashboard whose hook refuses the browser (it wants a header the browser does not send)
	f := serve(t, keys("dep-", 2), WithControl(func(r *http.Request) bool { return r.Header.Get("X-Admin") == "yes" }))
	tab := browser(t, 1280, 900)
	// When the page loads
	steps(t, tab, "load the page",
		chromedp.Navigate(f.srv.URL),
		chromedp.WaitVisible(chromedp.CSS(`body[data-ready="true"][data-control="false"] .tile[data-key="dep-02"]`)),
	)
	// Then no tile has a button
	if n := read(t, tab, chromedp.Evaluate[int](`document.querySelectorAll('.tile button').length`)); n != 0 {
		t.Fatalf("%d buttons", n)
	}
}
