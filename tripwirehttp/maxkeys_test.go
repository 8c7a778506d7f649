package tripwirehttp_test

import (
	"context"
	"errors"
	"net/http"
	"testing"

	"github.com/tripwire-go/tripwire"
	"github.com/tripwire-go/tripwire/internal/testkit"
	"github.com/tripwire-go/tripwire/internal/testkit/httpfake"
)

// A host past the registry's WithMaxKeys, with no key to forget, is
// refused with tripwire.ErrTooManyKeys and its request is not sent; the
// body is closed, as for any request that is not sent.
func TestAHostPastMaxKeysIsRefusedUnsent(t *testing.T) {
	testkit.InBubble(t, func(t *testing.T, e *testkit.Env) {
		// Given a registry full of a key of the program's own, never forgotten
		testkit.Register(t, e.Reg, "own", tripwire.Func(func(context.Context, any) (any, error) { return nil, nil }), tripwire.Settings{})
		next := &httpfake.Transport{Fn: func(req *http.Request) (*http.Response, error) { return httpfake.Respond(req, 200, "ok"), nil }}
		tr := fakeRig(t, e, next)

		// When a request goes to a host of its own
		req, b := postWithBody(t)
		_, err := tr.RoundTrip(req)

		// Then it is refused, unsent
		if !errors.Is(err, tripwire.ErrTooManyKeys) {
			t.Fatalf("RoundTrip = %v; want ErrTooManyKeys", err)
		}
		if n := next.Calls.Load(); n != 0 {
			t.Fatalf("%d requests sent; want none", n)
		}
		if n := b.closes.Load(); n != 1 {
			t.Fatalf("request body closed %d times; want 1", n)
		}
	}, tripwire.WithMaxKeys(1))
}
