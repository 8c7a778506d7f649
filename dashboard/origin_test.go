package dashboard

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/tripwire-go/tripwire"
	"github.com/tripwire-go/tripwire/tripwiretest"
)

func TestAControlRequestFromAnotherOriginIsRefused(t *testing.T) {
	// Given a dashboard whose hook accepts everyone
	f := serveCrashing(t, keys("k", 1), WithControl(allowAll))
	for _, hdr := range [][]string{{"Sec-Fetch-Site", "cross-site"}, {"Origin", "https://evil.example"}} {
		// When a browser sends a POST from a page of another origin
		status, _, body := f.do(t, "POST", "/api/breakers/k01/crash", hdr...)
		// Then it is refused before the hook is asked
		if status != http.StatusForbidden || !strings.Contains(errorOf(t, body), "cross-origin") {
			t.Errorf("%v: %d %s", hdr, status, body)
		}
	}
	// and from the same origin it goes through
	if status, _, body := f.do(t, "POST", "/api/breakers/k01/crash", "Sec-Fetch-Site", "same-origin"); status != 200 {
		t.Fatalf("same origin: %d %s", status, body)
	}
	if s, _ := f.reg.Snapshot(context.Background(), "k01"); s.Restarts != 1 {
		t.Fatalf("restarts %d", s.Restarts)
	}
}

func TestWithCrashMakesTheCrashes(t *testing.T) {
	// Given a dashboard whose crashes go through a harness that counts them
	var crashed []string
	var reg *tripwire.Registry
	f := serve(t, keys("k", 1), WithControl(allowAll), WithCrash(func(_ context.Context, key string) error {
		crashed = append(crashed, key)
		return tripwiretest.Crash(context.Background(), reg, key)
	}))
	reg = f.reg
	// When a crash is asked for
	if status, _, body := f.do(t, "POST", "/api/breakers/k01/crash"); status != 200 {
		t.Fatalf("%d %s", status, body)
	}
	// Then the harness made it
	if len(crashed) != 1 || crashed[0] != "k01" {
		t.Fatalf("crashed %v", crashed)
	}
}
