package tripwirehttp_test

import (
	"context"
	"errors"
	"io"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/tripwire-go/tripwire"
	"github.com/tripwire-go/tripwire/internal/testkit"
	"github.com/tripwire-go/tripwire/internal/testkit/httpfake"
	"github.com/tripwire-go/tripwire/state"
	"github.com/tripwire-go/tripwire/tripwirehttp"
)

// In fake time (testing/synctest) the breaker's timing is exact; the
// transport under the breaker is then an in-memory one, since real sockets
// do not run in a bubble.

// fakeKey is the key of fakeURL.
const (
	fakeURL = "http://api.test/v1"
	fakeKey = "http://api.test:80"
)

// fakeRig is a Transport over next on the bubble's registry.
func fakeRig(t *testing.T, e *testkit.Env, next http.RoundTripper, opts ...tripwirehttp.Option) *tripwirehttp.Transport {
	t.Helper()
	tr, err := tripwirehttp.New(e.Reg, next, opts...)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	return tr
}

// send sends a GET of fakeURL with ctx.
func send(t *testing.T, tr http.RoundTripper, ctx context.Context) (*http.Response, error) {
	t.Helper()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, fakeURL, nil)
	if err != nil {
		t.Fatal(err)
	}
	return tr.RoundTrip(req)
}

// advance lets fake time pass, then waits for the bubble to settle.
func advance(d time.Duration) {
	time.Sleep(d)
	synctest.Wait()
}

func TestCircuitTimingInFakeTime(t *testing.T) {
	testkit.InBubble(t, func(t *testing.T, e *testkit.Env) {
		// Given a host that answers 503, behind a breaker that opens on the
		// 3rd failure for 10s
		var up atomic.Bool
		next := &httpfake.Transport{Fn: func(req *http.Request) (*http.Response, error) {
			if up.Load() {
				return httpfake.Respond(req, http.StatusOK, "ok"), nil
			}
			return httpfake.Respond(req, http.StatusServiceUnavailable, "down"), nil
		}}
		tr := fakeRig(t, e, next, tripwirehttp.WithSettings(tripwire.Settings{Threshold: 3, OpenTimeout: 10 * time.Second}))

		// When three requests fail
		for range 3 {
			resp, err := send(t, tr, context.Background())
			if err != nil || resp.StatusCode != http.StatusServiceUnavailable {
				t.Fatalf("RoundTrip: %v, %v; want the 503", resp, err)
			}
			_ = resp.Body.Close()
		}

		// Then the circuit is open for exactly 10s, and sends nothing
		testkit.WantCircuit(t, e.Reg, fakeKey, state.Open, 3)
		opened := time.Now()
		_, err := send(t, tr, context.Background())
		var oe *state.OpenError
		if !errors.As(err, &oe) || oe.RetryAfter != 10*time.Second || !oe.RetryAt.Equal(opened.Add(10*time.Second)) {
			t.Fatalf("RoundTrip to an open circuit: %v; want an OpenError retrying at +10s", err)
		}
		if n := next.Calls.Load(); n != 3 {
			t.Fatalf("%d round trips; want 3", n)
		}
		advance(10*time.Second - time.Nanosecond)
		wantState(t, e.Reg, fakeKey, state.Open)
		advance(time.Nanosecond)
		wantState(t, e.Reg, fakeKey, state.HalfOpen)

		// When the host is back, the probe closes it
		up.Store(true)
		resp, err := send(t, tr, context.Background())
		if err != nil || resp.StatusCode != http.StatusOK {
			t.Fatalf("probe: %v, %v", resp, err)
		}
		_ = resp.Body.Close()
		testkit.WantCircuit(t, e.Reg, fakeKey, state.Closed, 0)
	})
}

func TestAHungRoundTripIsCancelledAtItsDeadline(t *testing.T) {
	testkit.InBubble(t, func(t *testing.T, e *testkit.Env) {
		// Given a transport that waits for its request's context to end,
		// behind a 2s CallTimeout
		type end struct {
			at    time.Duration
			cause error
		}
		ended := make(chan end, 1)
		next := &httpfake.Transport{Fn: func(req *http.Request) (*http.Response, error) {
			<-req.Context().Done()
			ended <- end{testkit.SinceStart(), context.Cause(req.Context())}
			return nil, req.Context().Err()
		}}
		tr := fakeRig(t, e, next, tripwirehttp.WithSettings(tripwire.Settings{CallTimeout: 2 * time.Second}))

		// When a request is sent
		_, err := send(t, tr, context.Background())

		// Then it returns ErrTimeout at exactly 2s, and the round trip's
		// context ended then, because of the timeout
		if at := testkit.SinceStart(); !errors.Is(err, tripwire.ErrTimeout) || at != 2*time.Second {
			t.Fatalf("RoundTrip: %v at +%v; want ErrTimeout at +2s", err, at)
		}
		got := <-ended
		if got.at != 2*time.Second || !errors.Is(got.cause, tripwire.ErrTimeout) {
			t.Fatalf("the round trip's context ended at +%v with %v; want +2s, ErrTimeout", got.at, got.cause)
		}
		testkit.WantCircuit(t, e.Reg, fakeKey, state.Closed, 1)
	})
}

func TestAResponseAfterTheDeadlineIsClosed(t *testing.T) {
	testkit.InBubble(t, func(t *testing.T, e *testkit.Env) {
		// Given a transport that ignores its context and answers after 3s,
		// behind a 1s CallTimeout
		bodies := make(chan *httpfake.Body, 1)
		next := &httpfake.Transport{Fn: func(req *http.Request) (*http.Response, error) {
			time.Sleep(3 * time.Second)
			resp := httpfake.Respond(req, http.StatusOK, "late")
			bodies <- resp.Body.(*httpfake.Body)
			return resp, nil
		}}
		tr := fakeRig(t, e, next, tripwirehttp.WithSettings(tripwire.Settings{CallTimeout: time.Second}))

		// When the request times out, and the response comes later
		if _, err := send(t, tr, context.Background()); !errors.Is(err, tripwire.ErrTimeout) {
			t.Fatalf("RoundTrip: %v; want ErrTimeout", err)
		}
		advance(2 * time.Second)

		// Then nobody receives it, and its body is closed
		b := <-bodies
		if _, closed, _ := b.State(); !closed {
			t.Fatal("the late response's body was never closed")
		}
	})
}

func TestAResponseAtTheDeadlineReachesItsCallerOrIsDrainedAndClosed(t *testing.T) {
	testkit.InBubble(t, func(t *testing.T, e *testkit.Env) {
		// Given a transport that answers exactly at the 1s deadline, so the
		// response and the timeout race (a tie in fake time: either order)
		bodies := make(chan *httpfake.Body, 1)
		next := &httpfake.Transport{Fn: func(req *http.Request) (*http.Response, error) {
			time.Sleep(time.Second)
			resp := httpfake.Respond(req, http.StatusOK, strings.Repeat("x", 1000))
			bodies <- resp.Body.(*httpfake.Body)
			return resp, nil
		}}
		tr := fakeRig(t, e, next, tripwirehttp.WithSettings(tripwire.Settings{CallTimeout: time.Second, Threshold: 1000}))

		var answered, drained, closedOnly int
		for i := range 40 {
			// When a request is sent
			resp, err := send(t, tr, context.Background())
			advance(time.Minute) // a drain, if any, is done by now
			b := <-bodies
			eof, closed, alive := b.State()

			// Then either its caller gets the response, whole and open...
			if err == nil {
				answered++
				if got, rerr := io.ReadAll(resp.Body); rerr != nil || len(got) != 1000 || closed {
					t.Fatalf("request %d: read %d bytes, %v, closed before read %v", i, len(got), rerr, closed)
				}
				_ = resp.Body.Close()
				continue
			}
			// ...or it gets ErrTimeout, and the body was closed — read to
			// its end first if it still could be
			if eof {
				drained++
			} else {
				closedOnly++
			}
			if !errors.Is(err, tripwire.ErrTimeout) || !closed || (alive && !eof) {
				t.Fatalf("request %d: %v; body read to the end %v, closed %v, closed while readable %v", i, err, eof, closed, alive)
			}
		}
		t.Logf("of 40 responses, %d answered, %d drained and closed, %d closed", answered, drained, closedOnly)
	})
}

func TestIdleBreakersStop(t *testing.T) {
	for _, tc := range []struct {
		name string
		opts []tripwirehttp.Option
		idle time.Duration
	}{
		{"default", nil, tripwirehttp.DefaultIdleTimeout},
		{"configured", []tripwirehttp.Option{tripwirehttp.WithSettings(tripwire.Settings{IdleTimeout: time.Minute})}, time.Minute},
	} {
		t.Run(tc.name, func(t *testing.T) {
			logger, logs := observed()
			testkit.InBubble(t, func(t *testing.T, e *testkit.Env) {
				// Given a host's breaker, made by its first request
				next := &httpfake.Transport{Fn: func(req *http.Request) (*http.Response, error) { return httpfake.Respond(req, 200, "ok"), nil }}
				tr := fakeRig(t, e, next, tc.opts...)
				resp, err := send(t, tr, context.Background())
				if err != nil {
					t.Fatal(err)
				}
				_ = resp.Body.Close()

				// When no request comes for the idle timeout
				advance(tc.idle - time.Nanosecond)
				if n := logs.FilterMessage("breaker passivated").Len(); n != 0 {
					t.Fatalf("passivated before %v", tc.idle)
				}
				advance(time.Nanosecond)

				// Then the breaker stops, the key stays, and the next request
				// starts it again
				if n := logs.FilterMessage("breaker passivated").Len(); n != 1 {
					t.Fatalf("%d passivations after %v; want 1", n, tc.idle)
				}
				if keys := e.Reg.Keys(); len(keys) != 1 || keys[0] != fakeKey {
					t.Fatalf("Keys %v", keys)
				}
				if resp, err = send(t, tr, context.Background()); err != nil {
					t.Fatal(err)
				}
				_ = resp.Body.Close()
				if n := next.Calls.Load(); n != 2 {
					t.Fatalf("%d round trips; want 2", n)
				}
			}, tripwire.WithLogger(logger))
		})
	}
}
