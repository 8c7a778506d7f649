package tripwirehttp_test

import (
	"context"
	"errors"
	"io"
	"net/http"
	"testing"
	"time"

	"github.com/tripwire-go/tripwire"
	"github.com/tripwire-go/tripwire/internal/testkit"
	"github.com/tripwire-go/tripwire/internal/testkit/httpfake"
	"github.com/tripwire-go/tripwire/state"
	"github.com/tripwire-go/tripwire/tripwirehttp"
)

func TestALargeBodyIsReadableAfterTheCallTimeout(t *testing.T) {
	// Given a host that sends its headers at once, then 4 MiB of body over
	// three times the 500ms CallTimeout of its breaker (long enough
	// that a stall of the test process does not time the headers out)
	const chunks, chunk = 64, 64 << 10
	h := newHost(t)
	h.set(func(w http.ResponseWriter, _ *http.Request) {
		rc := http.NewResponseController(w)
		w.WriteHeader(http.StatusOK)
		_ = rc.Flush()
		for range chunks {
			time.Sleep(25 * time.Millisecond) // the host's pace, not a guess
			_, _ = io.WriteString(w, body(chunk))
			_ = rc.Flush()
		}
	})
	r := newRig(t, tripwirehttp.WithSettings(tripwire.Settings{CallTimeout: 500 * time.Millisecond}))

	// When the round trip returns, and the caller reads the body after the
	// call's deadline has passed
	start := time.Now()
	resp, err := r.get(t, context.Background(), h.URL)
	if err != nil {
		t.Fatalf("RoundTrip: %v", err)
	}
	waitFor(t, "the CallTimeout passes", func() bool { return time.Since(start) > time.Second })
	got := read(t, resp)

	// Then the whole body arrives: the call's end and its deadline do not
	// cut it
	if len(got) != chunks*chunk {
		t.Fatalf("read %d bytes; want %d", len(got), chunks*chunk)
	}
	if took := time.Since(start); took < 150*time.Millisecond {
		t.Fatalf("the body took %v; the test meant it to outlast the CallTimeout", took)
	}
	wantState(t, r.reg, key(t, h.URL), state.Closed)
}

func TestTheBodyReadEndsWithTheRequestContext(t *testing.T) {
	// Given a host that sends its headers and then holds the body
	h := newHost(t)
	h.set(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusOK)
		_ = http.NewResponseController(w).Flush()
		<-r.Context().Done()
	})
	r := newRig(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	resp, err := r.get(t, ctx, h.URL)
	if err != nil {
		t.Fatalf("RoundTrip: %v", err)
	}
	defer resp.Body.Close()

	// When the caller cancels its request while it reads the body
	read := make(chan error, 1)
	go func() {
		_, err := io.ReadAll(resp.Body)
		read <- err
	}()
	cancel()

	// Then the read ends with the cancellation
	select {
	case err := <-read:
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("reading the body: %v; want context.Canceled", err)
		}
	case <-time.After(patience):
		t.Fatal("reading the body did not end with the request's context")
	}
}

func TestConnectionsAreReusedForFailedAndSuccessfulResponses(t *testing.T) {
	// Given a host that alternates 503 and 200, each with a body, behind a
	// breaker that never opens on them
	h := newHost(t)
	var n int
	h.set(func(w http.ResponseWriter, _ *http.Request) {
		n++
		if n%2 == 1 {
			w.WriteHeader(http.StatusServiceUnavailable)
		}
		_, _ = io.WriteString(w, body(10<<10))
	})
	r := newRig(t, tripwirehttp.WithSettings(tripwire.Settings{Threshold: 100}))

	// When ten requests are sent one after another, and their callers
	// read and close the bodies
	for i := range 10 {
		resp, err := r.get(t, context.Background(), h.URL)
		if err != nil {
			t.Fatalf("request %d: %v", i, err)
		}
		if got := read(t, resp); len(got) != 10<<10 {
			t.Fatalf("request %d: %d bytes of body", i, len(got))
		}
		// each 503 counted as a failure, each 200 reset the count
		want := 1 - i%2
		if snap, err := r.reg.Snapshot(context.Background(), key(t, h.URL)); err != nil || snap.Failures != want {
			t.Fatalf("after request %d (%s): %+v, %v; want %d failures", i, resp.Status, snap, err, want)
		}
	}

	// Then they all went over one connection
	if c := h.newConns.Load(); c != 1 {
		t.Fatalf("%d connections for 10 requests; want 1", c)
	}
}

func TestTimedOutRoundTripsLeaveNoConnectionOpen(t *testing.T) {
	// Given a host that answers only after the 50ms CallTimeout of its
	// breaker, with a body
	h := newHost(t)
	h.set(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-r.Context().Done():
		case <-time.After(100 * time.Millisecond):
			_, _ = io.WriteString(w, body(1<<10))
		}
	})
	r := newRig(t, tripwirehttp.WithSettings(tripwire.Settings{CallTimeout: 50 * time.Millisecond, Threshold: 100}))

	// When five requests time out
	for i := range 5 {
		if _, err := r.get(t, context.Background(), h.URL); !errors.Is(err, tripwire.ErrTimeout) {
			t.Fatalf("request %d: %v; want ErrTimeout", i, err)
		}
	}

	// Then every connection they opened is closed again (idle ones too,
	// once the client closes them through the Transport)
	(&http.Client{Transport: r.tr}).CloseIdleConnections()
	waitFor(t, "every connection is closed", func() bool { return h.closed.Load() == h.newConns.Load() })
	if h.newConns.Load() == 0 {
		t.Fatal("no connection was made")
	}
}

func TestABodylessResponseEndsItsRequestContextAtOnce(t *testing.T) {
	testkit.InBubble(t, func(t *testing.T, e *testkit.Env) {
		// Given a host that answers 204 No Content, whose response net/http
		// gives http.NoBody (as it does for HEAD, 304 and Content-Length 0)
		sent := make(chan context.Context, 1)
		next := &httpfake.Transport{Fn: func(req *http.Request) (*http.Response, error) {
			sent <- req.Context()
			return &http.Response{StatusCode: http.StatusNoContent, Header: http.Header{}, Body: http.NoBody, Request: req}, nil
		}}
		tr := fakeRig(t, e, next)

		// When a request gets it, with a context that lives on, and its
		// caller does not close the empty body (net/http needs no Close)
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		resp, err := send(t, tr, ctx)
		if err != nil {
			t.Fatalf("RoundTrip: %v", err)
		}

		// Then the body is http.NoBody still, and the round trip's context
		// has ended already: nothing stays registered on the caller's
		if resp.Body != http.NoBody {
			t.Fatalf("the body of a bodyless response is a %T; want http.NoBody", resp.Body)
		}
		if err := (<-sent).Err(); err == nil {
			t.Fatal("the round trip's context of a bodyless response outlived RoundTrip")
		}
	})
}
