package tripwirehttp

import (
	"context"
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/tripwire-go/tripwire"
)

// closeCounter is a request body that counts its Closes.
type closeCounter struct {
	io.Reader
	closes int
}

func (c *closeCounter) Close() error { c.closes++; return nil }

// testBody is a response body read under ctx, as net/http's are.
type testBody struct {
	ctx    context.Context
	r      io.Reader
	eof    bool
	closed bool
}

func (b *testBody) Read(p []byte) (int, error) {
	if err := b.ctx.Err(); err != nil {
		return 0, err
	}
	n, err := b.r.Read(p)
	b.eof = b.eof || err == io.EOF
	return n, err
}

func (b *testBody) Close() error { b.closed = true; return nil }

func newTestExchange(t *testing.T) (*exchange, *closeCounter) {
	t.Helper()
	reqBody := &closeCounter{Reader: strings.NewReader("request")}
	req, err := http.NewRequest(http.MethodPost, "http://a.test/", reqBody)
	if err != nil {
		t.Fatal(err)
	}
	return &exchange{req: req, classify: DefaultClassify}, reqBody
}

// waitDone waits for ctx to end, in real time, for at most 5s.
func waitDone(t *testing.T, ctx context.Context) {
	t.Helper()
	select {
	case <-ctx.Done():
	case <-time.After(5 * time.Second):
		t.Fatal("the request's context never ended")
	}
}

func TestExchangeAbandonedBeforeItStartsIsNeverSent(t *testing.T) {
	x, reqBody := newTestExchange(t)
	x.abandon(tripwire.ErrTimeout)
	if reqBody.closes != 1 {
		t.Fatalf("request body closed %d times; want 1, by the caller", reqBody.closes)
	}
	if _, ok := x.start(context.Background()); ok {
		t.Fatal("an abandoned exchange started its round trip")
	}
}

func TestExchangeWhoseCallHasEndedIsNeverSent(t *testing.T) {
	// Given an exchange whose call ended (its caller answered ErrTimeout)
	// before a worker started it, and before its caller abandoned it
	x, reqBody := newTestExchange(t)
	var sent int
	x.next = roundTripFunc(func(*http.Request) (*http.Response, error) { sent++; return nil, errors.New("sent") })
	callCtx, cancel := context.WithTimeout(context.Background(), 0)
	defer cancel()

	// When the worker runs it, and then the caller abandons it
	_, err := x.run(callCtx)
	x.abandon(tripwire.ErrTimeout)

	// Then the request is never sent, and its body is closed once, by the
	// caller
	if sent != 0 || err != errAbandoned {
		t.Fatalf("run = %v, %d sent; want errAbandoned, none sent", err, sent)
	}
	if reqBody.closes != 1 {
		t.Fatalf("request body closed %d times; want 1", reqBody.closes)
	}
}

// roundTripFunc is a RoundTripper of a func.
type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(req *http.Request) (*http.Response, error) { return f(req) }

func TestExchangeAbandonedInFlightIsCancelledAndItsResponseClosed(t *testing.T) {
	x, reqBody := newTestExchange(t)
	out, ok := x.start(context.Background())
	if !ok {
		t.Fatal("start refused")
	}
	x.abandon(tripwire.ErrTimeout)
	if !errors.Is(context.Cause(out.Context()), tripwire.ErrTimeout) {
		t.Fatalf("the round trip's context: %v; want cancelled with ErrTimeout", context.Cause(out.Context()))
	}
	if reqBody.closes != 0 {
		t.Fatal("the caller closed a request body that the round trip owns")
	}
	b := &testBody{ctx: out.Context(), r: strings.NewReader("late")}
	resp := &http.Response{StatusCode: 200, Body: b}
	if x.finish(resp, nil) {
		t.Fatal("finish took a response for a caller who has gone")
	}
	discard(resp, x.ctx, x.cancel)
	if !b.closed {
		t.Fatal("the late response's body was not closed")
	}
}

func TestExchangeAbandonedAfterItsResponseDrainsAndClosesIt(t *testing.T) {
	x, _ := newTestExchange(t)
	out, _ := x.start(context.Background())
	b := &testBody{ctx: out.Context(), r: strings.NewReader(strings.Repeat("x", MaxDrain))}
	if !x.finish(&http.Response{StatusCode: 200, Body: b}, nil) {
		t.Fatal("finish refused")
	}
	x.abandon(tripwire.ErrTimeout) // the timeout won the race with the response
	waitDone(t, out.Context())     // the drain ends the context last
	if !b.eof || !b.closed {
		t.Fatalf("unwanted response: read to its end %v, closed %v; want both", b.eof, b.closed)
	}
}

func TestExchangeDrainsAtMostMaxDrain(t *testing.T) {
	x, _ := newTestExchange(t)
	out, _ := x.start(context.Background())
	r := strings.NewReader(strings.Repeat("x", MaxDrain+2))
	b := &testBody{ctx: out.Context(), r: r}
	x.finish(&http.Response{StatusCode: 200, Body: b}, nil)
	x.abandon(tripwire.ErrTimeout)
	waitDone(t, out.Context())
	if b.eof || !b.closed || r.Len() != 1 {
		t.Fatalf("a long unwanted body: %d bytes left, closed %v; want 1 left (MaxDrain+1 read), closed", r.Len(), b.closed)
	}
}

func TestExchangeTakenTiesTheBodyToTheRequestContext(t *testing.T) {
	for _, end := range []string{"eof", "close"} {
		t.Run(end, func(t *testing.T) {
			x, _ := newTestExchange(t)
			out, _ := x.start(context.Background())
			x.finish(&http.Response{StatusCode: 200, Body: &testBody{ctx: out.Context(), r: strings.NewReader("body")}}, nil)
			resp, err := x.take()
			if err != nil {
				t.Fatal(err)
			}
			if out.Context().Err() != nil {
				t.Fatal("the request's context ended before its body")
			}
			if end == "eof" {
				if got, err := io.ReadAll(resp.Body); err != nil || string(got) != "body" {
					t.Fatalf("body %q, %v", got, err)
				}
			} else {
				_ = resp.Body.Close()
			}
			if out.Context().Err() == nil {
				t.Fatalf("the request's context outlived its body's %s", end)
			}
		})
	}
}
