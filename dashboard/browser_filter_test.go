package dashboard

import (
	"context"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

func TestBrowserFiltersByKeyPrefixAndState(t *testing.T) {
	// Given the dashboard of a01..a03 and b01..b03, b02 forced open, in a browser
	f := serve(t, append(keys("a", 3), keys("b", 3)...))
	if err := f.reg.ForceOpen(context.Background(), "b02"); err != nil {
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

func TestBrowserBringsAnEditedFragmentWithinWhatTheAPITakes(t *testing.T) {
	// Given the dashboard of a01..a03, a02 forced open
	f := serve(t, keys("a", 3))
	if err := f.reg.ForceOpen(context.Background(), "a02"); err != nil {
		t.Fatal(err)
	}
	tab := browser(t, 1280, 900)
	tiles := `[...document.querySelectorAll('.tile')].map((e) => e.dataset.key).join()`
	// When the page is opened from a link with a limit, a state and a prefix the API refuses
	long := strings.Repeat("é", 200) // 400 bytes
	steps(t, tab, "load the page",
		chromedp.Navigate(f.srv.URL+"/#prefix="+long+"&state=open,bogus,open&limit=5000"),
		chromedp.WaitVisible(chromedp.CSS(`body[data-ready="true"]`)),
	)
	// Then it shows what they come to within its limits, live, and the URL says so
	until(t, tab, tiles+` === "" && document.getElementById("conn").dataset.conn === "live"`)
	want := url.Values{"prefix": {strings.Repeat("é", 128)}, "state": {"open"}, "limit": {"1000"}}.Encode()
	until(t, tab, `new URLSearchParams(location.hash.slice(1)).toString().split("&").sort().join("&") === `+strconv.Quote(want))
	// When the prefix is cleared
	steps(t, tab, "clear the prefix", chromedp.Evaluate[chromedp.Void](`document.getElementById("filter").value = ""`),
		chromedp.SendKeys(chromedp.CSS(`#filter`), "a"))
	// Then the open key is shown
	until(t, tab, tiles+` === "a02"`)
}
