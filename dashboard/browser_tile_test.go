package dashboard

import (
	"testing"

	"github.com/chromedp/chromedp"
)

func TestBrowserDrawsTheRejectedPartOfAnOpenTilesBar(t *testing.T) {
	// Given a key forced open whose callers are all rejected, and a page showing it
	f := serve(t, keys("dep-", 2))
	if err := f.reg.ForceOpen("dep-01"); err != nil {
		t.Fatal(err)
	}
	f.call(t, "dep-01", 20)
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
}
