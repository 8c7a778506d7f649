package dashboard

import (
	"testing"

	"github.com/chromedp/chromedp"
)

func TestBrowserFiltersByKeyPrefixAndState(t *testing.T) {
	// Given the dashboard of a01..a03 and b01..b03, b02 forced open, in a browser
	f := serve(t, append(keys("a", 3), keys("b", 3)...))
	if err := f.reg.ForceOpen("b02"); err != nil {
		t.Fatal(err)
	}
	tab := browser(t, 1280, 900)
	tiles := `[...document.querySelectorAll('.tile')].map((e) => e.dataset.key).join()`
	steps(t, tab, "load the page",
		chromedp.Navigate(f.srv.URL),
		chromedp.WaitVisible(chromedp.CSS(`body[data-ready="true"] .tile[data-key="b03"]`)),
	)
	until(t, tab, tiles+` === "b02,a01,a02,a03,b01,b03"`)
	// When "b" is typed in the filter
	steps(t, tab, "type a prefix", chromedp.SendKeys(chromedp.CSS(`#filter`), "b"))
	// Then only the b keys are shown, worst first, the page says how many match, and the URL keeps the filter
	until(t, tab, tiles+` === "b02,b01,b03"`)
	until(t, tab, `document.getElementById("shown").textContent === "showing 3 of 3 matching keys, worst first" && location.hash === "#prefix=b"`)
	// When the summary's "open" is clicked
	steps(t, tab, "filter on open", chromedp.Click(chromedp.CSS(`.pill[data-filter="open"]`)))
	// Then only the open b key is
	until(t, tab, tiles+` === "b02"`)
	// When the page is loaded again from its URL
	steps(t, tab, "reload", chromedp.Reload())
	// Then it shows the same
	until(t, tab, tiles+` === "b02" && document.getElementById("filter").value === "b"`)
}
