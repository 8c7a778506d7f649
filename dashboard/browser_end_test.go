package dashboard

import (
	"context"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

func TestBrowserKeepsTheFinalStateWhenTheServerStops(t *testing.T) {
	// Given the dashboard of three busy breakers, dep-03 forced open, live in a browser
	names := keys("dep-", 3)
	f := serve(t, names)
	f.load(t, names, 3, 5*time.Millisecond)
	if err := f.reg.ForceOpen(context.Background(), "dep-03"); err != nil {
		t.Fatal(err)
	}
	tab := browser(t, 1280, 900)
	steps(t, tab, "load the page",
		chromedp.Navigate(f.srv.URL),
		chromedp.WaitVisible(chromedp.CSS(`body[data-ready="true"] .tile[data-key="dep-03"][data-state="open"]`)),
		chromedp.WaitVisible(chromedp.CSS(`#conn[data-conn="live"]`)),
	)
	// When the handler closes: the server is stopping
	f.h.Close()
	// Then the page says so, stops saying it reconnects, and keeps the tiles as they were
	until(t, tab, `document.querySelector('#conn').dataset.conn === "ended"`)
	if text := read(t, tab, chromedp.Text(chromedp.CSS(`#conn-text`))); text != "server stopped · final state" {
		t.Fatalf("connection says %q", text)
	}
	until(t, tab, `[...document.querySelectorAll('.tile')].map(e => e.dataset.key + ":" + e.dataset.state).join() === "dep-03:open,dep-01:closed,dep-02:closed"`)
	until(t, tab, `Number(document.querySelector('.tile[data-key="dep-01"] [data-f="rate"]').textContent) > 0`)
}
