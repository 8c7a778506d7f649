package tripwirehttp_test

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"strconv"
	"testing"
	"time"

	"github.com/tripwire-go/tripwire"
	"github.com/tripwire-go/tripwire/state"
	"github.com/tripwire-go/tripwire/tripwirehttp"
)

func TestFailingHostOpensTheCircuitAndAProbeClosesIt(t *testing.T) {
	// Given a host that answers 503, behind a breaker that opens on the 2nd
	// failure and probes 1s later (long enough that no stall of the test
	// process half-opens it before the open checks)
	h := newHost(t)
	h.status(http.StatusServiceUnavailable)
	r := newRig(t, tripwirehttp.WithSettings(tripwire.Settings{Threshold: 2, OpenTimeout: time.Second}))
	k := key(t, h.URL)

	// When two requests fail
	for i := range 2 {
		resp, err := r.get(t, context.Background(), h.URL)
		// Then each caller gets the 503 itself, its body intact
		if err != nil {
			t.Fatalf("request %d: %v", i, err)
		}
		if resp.StatusCode != http.StatusServiceUnavailable || read(t, resp) != "Service Unavailable" {
			t.Fatalf("request %d: %s; want the host's 503 and its body", i, resp.Status)
		}
	}
	// and the circuit is open: the next request gets ErrOpen without
	// reaching the host
	wantState(t, r.reg, k, state.Open)
	resp, err := r.get(t, context.Background(), h.URL)
	var oe *state.OpenError
	if resp != nil || !errors.Is(err, tripwire.ErrOpen) || !errors.As(err, &oe) || oe.Key != k {
		t.Fatalf("request to an open circuit: %v, %v; want an OpenError of %q", resp, err, k)
	}
	if n := h.requests.Load(); n != 2 {
		t.Fatalf("the host got %d requests; want 2", n)
	}

	// When the host recovers and the circuit half-opens
	h.status(http.StatusOK)
	waitFor(t, "the circuit half-opens", func() bool { s, _ := r.reg.State(k); return s == state.HalfOpen })

	// Then the probe succeeds and closes it
	resp, err = r.get(t, context.Background(), h.URL)
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("probe: %v, %v; want 200", resp, err)
	}
	read(t, resp)
	wantState(t, r.reg, k, state.Closed)
}

func TestStatusesCountAsDefaultClassifySays(t *testing.T) {
	// Given a host answering each path's status, and a breaker per path
	// that opens on its first failure
	h := newHost(t)
	h.set(func(w http.ResponseWriter, req *http.Request) {
		code, err := strconv.Atoi(req.URL.Path[1:])
		if err != nil {
			panic(err)
		}
		w.WriteHeader(code)
	})
	perPath := func(req *http.Request) (string, error) {
		k, err := tripwirehttp.HostKey(req)
		return k + req.URL.Path, err
	}
	r := newRig(t, tripwirehttp.WithKey(perPath), tripwirehttp.WithSettings(tripwire.Settings{Threshold: 1, OpenTimeout: time.Hour}))

	for code, want := range map[int]state.State{
		200: state.Closed, 204: state.Closed, 302: state.Closed, 400: state.Closed,
		404: state.Closed, 428: state.Closed, 429: state.Open, 500: state.Open,
		501: state.Open, 503: state.Open, 504: state.Open, 599: state.Open,
	} {
		// When a request gets that status
		url := h.URL + "/" + strconv.Itoa(code)
		resp, err := r.get(t, context.Background(), url)
		if err != nil || resp.StatusCode != code {
			t.Fatalf("GET %s: %v, %v", url, resp, err)
		}
		read(t, resp)
		// Then the status counted as DefaultClassify says
		wantState(t, r.reg, key(t, h.URL)+"/"+strconv.Itoa(code), want)
	}
}

func TestHungHostIsCancelledAtCallTimeout(t *testing.T) {
	// Given a host that never answers, behind a 200ms CallTimeout
	h := newHost(t)
	ended := h.hang()
	r := newRig(t, tripwirehttp.WithSettings(tripwire.Settings{CallTimeout: 200 * time.Millisecond}))

	// When a request is sent
	start := time.Now()
	resp, err := r.get(t, context.Background(), h.URL)
	took := time.Since(start)

	// Then it returns ErrTimeout at the deadline, which matches
	// context.DeadlineExceeded
	if resp != nil || !errors.Is(err, tripwire.ErrTimeout) || !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("RoundTrip to a hung host: %v, %v; want ErrTimeout", resp, err)
	}
	if took < 200*time.Millisecond || took > 2*time.Second {
		t.Fatalf("RoundTrip returned after %v; want about 200ms", took)
	}
	// and the request in flight is cancelled: the host sees it end
	select {
	case at := <-ended:
		if d := at.Sub(start); d < 200*time.Millisecond || d > 2*time.Second {
			t.Fatalf("the host's request ended %v after it began; want about 200ms", d)
		}
	case <-time.After(patience):
		t.Fatal("the host's request was never cancelled")
	}
	// and the timeout counts as a failure (the caller may have been answered
	// by its own backstop, ReplyGrace after the deadline, before a busy
	// breaker's deadline timer counted it)
	waitFor(t, "the timeout counts as a failure", func() bool {
		snap, err := r.reg.Snapshot(context.Background(), key(t, h.URL))
		return err == nil && snap.Failures == 1
	})

	// and through an http.Client, the *url.Error says it timed out
	_, err = (&http.Client{Transport: r.tr}).Get(h.URL)
	var ue *url.Error
	if !errors.As(err, &ue) || !ue.Timeout() || !errors.Is(err, tripwire.ErrTimeout) {
		t.Fatalf("Client.Get from a hung host: %v; want a *url.Error that is a timeout", err)
	}
	<-ended
}

func TestRequestDeadlineBoundsTheRoundTrip(t *testing.T) {
	// Given a hung host behind the default 5s CallTimeout
	h := newHost(t)
	ended := h.hang()
	r := newRig(t)

	// When a request whose context ends in 100ms is sent
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, err := r.get(t, ctx, h.URL)

	// Then it gives up at the request's deadline, not the CallTimeout
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("RoundTrip: %v; want a deadline error", err)
	}
	if took := time.Since(start); took > 2*time.Second {
		t.Fatalf("RoundTrip returned after %v; want about 100ms", took)
	}
	select {
	case <-ended:
	case <-time.After(patience):
		t.Fatal("the host's request was never cancelled")
	}
}

func TestCancelledRequestCountsNeitherWay(t *testing.T) {
	// Given a hung host
	h := newHost(t)
	ended := h.hang()
	r := newRig(t, tripwirehttp.WithSettings(tripwire.Settings{Threshold: 1}))

	// When the caller cancels its request while it is in flight
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		eventually(func() bool { return h.requests.Load() == 1 }) // the request reaches the host
		cancel()
	}()
	_, err := r.get(t, ctx, h.URL)

	// Then it returns context.Canceled, the host's request ends, and the
	// circuit stays closed with no failure
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("RoundTrip: %v; want context.Canceled", err)
	}
	select {
	case <-ended:
	case <-time.After(patience):
		t.Fatal("the host's request was never cancelled")
	}
	snap, err := r.reg.Snapshot(context.Background(), key(t, h.URL))
	if err != nil || snap.State != state.Closed || snap.Failures != 0 {
		t.Fatalf("Snapshot: %+v, %v; want closed, no failure", snap, err)
	}
}

func TestResetConnectionsAreFailures(t *testing.T) {
	// Given a host that resets every connection a request comes on
	h := newHost(t)
	h.reset()
	r := newRig(t, tripwirehttp.WithSettings(tripwire.Settings{Threshold: 2, OpenTimeout: time.Hour}))

	// When two requests are sent
	for i := range 2 {
		resp, err := r.get(t, context.Background(), h.URL)
		// Then each fails with the transport's error
		if err == nil || errors.Is(err, tripwire.ErrOpen) {
			t.Fatalf("request %d over a reset connection: %v, %v; want a transport error", i, resp, err)
		}
	}
	// and the circuit opens
	wantState(t, r.reg, key(t, h.URL), state.Open)
	before := h.requests.Load()
	if _, err := r.get(t, context.Background(), h.URL); !errors.Is(err, tripwire.ErrOpen) {
		t.Fatalf("request to an open circuit: %v; want ErrOpen", err)
	}
	if n := h.requests.Load(); n != before {
		t.Fatalf("an open circuit let a request reach the host")
	}
}
