package dashboard

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/tripwire-go/tripwire"
)

func TestBrowserShowsAnOpenTilesRejectionsAndNoErrorPercent(t *testing.T) {
	// Given a key forced open whose callers are all rejected, another called
	// without a failure (both all along, so their windows always hold
	// calls), and a page showing them
	names := keys("dep-", 2)
	f := serve(t, names)
	if err := f.reg.ForceOpen(context.Background(), "dep-01"); err != nil {
		t.Fatal(err)
	}
	f.load(t, names, 2, 20*time.Millisecond)
	tab := browser(t, 1280, 900)
	const tile = `.tile[data-key="dep-01"]`
	steps(t, tab, "load the page",
		chromedp.Navigate(f.srv.URL),
		chromedp.WaitVisible(chromedp.CSS(`body[data-ready="true"] `+tile+`[data-rejecting="true"]`)),
	)
	// Then its bar is all rejected, drawn, and the rejected/s figure has no width of its own
	bar := `document.querySelector('` + tile + ` .mix .rej')`
	until(t, tab, `parseFloat(`+bar+`.style.width) === 100 && `+bar+`.getBoundingClientRect().width > 0`)
	if w := read(t, tab, chromedp.Evaluate[string](`document.querySelector('`+tile+` [data-f="rej"]').style.width`)); w != "" {
		t.Fatalf("the rejected/s figure has width %q", w)
	}
	for _, part := range []string{"ok", "bad"} {
		if w := read(t, tab, chromedp.Evaluate[string](`document.querySelector('`+tile+` .mix .`+part+`').style.width`)); w != "0%" {
			t.Fatalf("the bar's %s part is %q wide", part, w)
		}
	}
	// and, no call having had a verdict, it shows no error percent, where the other key shows 0 %
	errors := `[...document.querySelectorAll('.tile [data-f="err"]')].map((e) => e.textContent).join()`
	until(t, tab, errors+` === "–,0%"`)
}

func TestBrowserShowsHowLongAnOutageHasLastedNotSinceTheLastReopen(t *testing.T) {
	// Given a key whose dependency is down, re-opening every 300 ms at its failed probe, on a page
	f := serveWith(t, keys("dep-", 2), tripwire.Settings{Threshold: 1, OpenTimeout: 300 * time.Millisecond, CallTimeout: time.Second})
	f.dep.set("dep-01", true)
	tab := browser(t, 1280, 900)
	const tile = `.tile[data-key="dep-01"]`
	steps(t, tab, "load the page",
		chromedp.Navigate(f.srv.URL),
		chromedp.WaitVisible(chromedp.CSS(`body[data-ready="true"] `+tile)),
	)
	f.load(t, []string{"dep-01"}, 1, 20*time.Millisecond)
	// When it has re-opened five times
	opens := `[...document.querySelectorAll('#timeline li[data-key="dep-01"]')].filter((li) => li.textContent.includes("→ open"))`
	untilWithin(t, tab, hangBound, opens+`.length >= 6`)
	// Then its tile says it has been down since the first trip, not since the last re-open
	first := `Date.parse(` + opens + `.at(-1).querySelector("time").dateTime)`
	last := `Date.parse(` + opens + `[0].querySelector("time").dateTime)`
	text := `document.querySelector('` + tile + ` .since').textContent`
	until(t, tab, text+`.startsWith("down for ") && parseFloat(`+text+`.slice(9)) * 1000 >= `+last+` - `+first)
	if got := read(t, tab, chromedp.Evaluate[string](text)); !strings.HasSuffix(got, " s") || strings.Contains(got, "≥") {
		t.Fatalf("since %q", got)
	}
}
