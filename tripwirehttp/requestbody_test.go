package tripwirehttp_test

import (
	"errors"
	"net/http"
	"testing"

	"github.com/tripwire-go/tripwire"
	"github.com/tripwire-go/tripwire/internal/testkit"
	"github.com/tripwire-go/tripwire/internal/testkit/httpfake"
)

func TestAPanickingTransportStillHasTheRequestBodyClosedOnce(t *testing.T) {
	testkit.InBubble(t, func(t *testing.T, e *testkit.Env) {
		// Given a transport that panics before it closes the request body
		next := &httpfake.Transport{Fn: func(*http.Request) (*http.Response, error) { panic("transport bug") }}
		tr := fakeRig(t, e, next)

		// When a request with a body is sent through it
		req, b := postWithBody(t)
		resp, err := tr.RoundTrip(req)
		testkit.RunOut()

		// Then the caller gets ErrTargetPanic, and the body is closed once,
		// as RoundTrip promises whatever the transport under it does
		if resp != nil || !errors.Is(err, tripwire.ErrTargetPanic) {
			t.Fatalf("RoundTrip = %v, %v; want ErrTargetPanic", resp, err)
		}
		if n := b.closes.Load(); n != 1 {
			t.Fatalf("request body closed %d times; want 1", n)
		}
	})
}
