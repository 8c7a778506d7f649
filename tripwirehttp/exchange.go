package tripwirehttp

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"sync"

	"github.com/tripwire-go/tripwire/state"
	"go.opentelemetry.io/otel/trace"
)

// exchange is one request on its way through a key's breaker: the message
// of the call, and the meeting point of its two sides — the caller, who
// waits for the call's answer, and the target, which runs the round trip on
// a worker. Whichever side learns last that the other is gone disposes of
// what is left, so every response reaches its caller or is discarded,
// exactly once, and every request body is closed.
type exchange struct {
	req      *http.Request
	next     http.RoundTripper
	classify func(*http.Response, error) state.Verdict
	verdict  state.Verdict // the worker's alone: set by run, read by verdictOf

	mu        sync.Mutex
	started   bool // the round trip began: next closes the request body
	done      bool // the round trip returned resp or err
	abandoned bool // the caller was answered without it
	ctx       context.Context
	cancel    context.CancelCauseFunc
	resp      *http.Response
	err       error
}

// errAbandoned is what a target returns for an exchange whose caller was
// answered before the round trip ended; no caller sees it (the call's
// outcome is late and counts no more).
var errAbandoned = errors.New("tripwirehttp: the caller was answered before the round trip ended")

// failedStatus is the error a target reports for a response its classifier
// judged a failure, so metrics and spans count it as one; the caller gets
// the response itself.
type failedStatus struct{ status string }

func (e failedStatus) Error() string { return "tripwirehttp: failure status " + e.status }

// run is the round trip, on a worker. callCtx is the call's: it carries
// the call's span, and ends when the breaker gives up the call — but so
// does the caller, who cancels the round trip then (see abandon), so the
// request is sent with a context of its own that outlives the call: the
// request's context, cancelled only by the caller giving up or the body's
// Close.
func (x *exchange) run(callCtx context.Context) (*exchange, error) {
	out, ok := x.start(callCtx)
	if !ok {
		x.verdict = state.Ignore
		return x, errAbandoned
	}
	resp, err := x.roundTrip(out)
	switch {
	case err != nil && resp != nil: // a RoundTripper that breaks its contract
		closeResponse(resp)
		resp = nil
	case err == nil && resp == nil:
		err = fmt.Errorf("tripwirehttp: %T returned neither a response nor an error", x.next)
	case err == nil && resp.Request == out:
		resp.Request = x.req // the caller's request, not the copy sent
	}
	x.verdict = judge(x.classify, resp, err)
	if !x.finish(resp, err) {
		discard(resp, x.ctx, x.cancel)
		x.verdict = state.Ignore
		return x, errAbandoned
	}
	return x, reported(x.verdict, resp, err)
}

// reported is the error the target reports to the registry for a round
// trip judged v, so that its metrics and spans count what the breaker
// counted: none for a success (a transport error the classifier accepts
// included), the error or the failed status for a failure, the error for a
// call that counts neither way. The caller gets the round trip's own
// result from the exchange.
func reported(v state.Verdict, resp *http.Response, err error) error {
	switch {
	case v == state.Success:
		return nil
	case v == state.Failure && err == nil:
		return failedStatus{resp.Status}
	}
	return err
}

// start begins the round trip unless the caller has gone, or is going:
// it makes the request's own context and the request to send. A call whose
// context has ended was given up, its caller answered (ErrTimeout, a
// cancellation, a shutdown) though it may not have abandoned the exchange
// yet: its request must not reach the server now.
func (x *exchange) start(callCtx context.Context) (*http.Request, bool) {
	x.mu.Lock()
	defer x.mu.Unlock()
	if x.abandoned || callCtx.Err() != nil {
		return nil, false // the caller closes the request body, in abandon
	}
	x.started = true
	x.ctx, x.cancel = context.WithCancelCause(x.req.Context())
	return x.req.WithContext(withSpan(x.ctx, callCtx)), true
}

// roundTrip sends out with next. A next that panics — the worker turns it
// into ErrTargetPanic — has not closed the request body, which a started
// round trip leaves to it: it is closed here then, once. (No recover: the
// panic goes on to the worker as it was.)
func (x *exchange) roundTrip(out *http.Request) (*http.Response, error) {
	returned := false
	defer func() {
		if !returned {
			closeRequest(x.req)
		}
	}()
	resp, err := x.next.RoundTrip(out)
	returned = true
	return resp, err
}

// withSpan is ctx with the span of the call as its current span, when the
// registry traces: the transport's own spans then nest under tripwire.call.
func withSpan(ctx, callCtx context.Context) context.Context {
	sc := trace.SpanContextFromContext(callCtx)
	if !sc.IsValid() || sc.Equal(trace.SpanContextFromContext(ctx)) {
		return ctx
	}
	return trace.ContextWithSpan(ctx, trace.SpanFromContext(callCtx))
}

// finish records the round trip's result, unless the caller has gone: it
// reports false then, and the result is the target's to discard.
func (x *exchange) finish(resp *http.Response, err error) bool {
	x.mu.Lock()
	defer x.mu.Unlock()
	if x.abandoned {
		return false
	}
	x.done, x.resp, x.err = true, resp, err
	return true
}

// finished reports whether the round trip returned, its result recorded:
// the call answered with the exchange is the package's answer only then.
// A target of the program's own that echoes its message answers with the
// exchange too, unsent.
func (x *exchange) finished() bool {
	x.mu.Lock()
	defer x.mu.Unlock()
	return x.done
}

// take is the caller's, once the call answered with the exchange and the
// round trip has finished: the round trip's response, its body tied to the
// request's own context, or its error.
func (x *exchange) take() (*http.Response, error) {
	x.mu.Lock()
	resp, err := x.resp, x.err
	x.mu.Unlock()
	if err != nil {
		x.cancel(nil)
		return nil, err
	}
	tieBody(resp, x.cancel)
	return resp, nil
}

// abandon is the caller's, once the call answered without the exchange
// (open, timed out, cancelled, shut down...): it closes the request body
// if the round trip never began, cancels a round trip in flight, and
// discards a response that came too late.
func (x *exchange) abandon(cause error) {
	x.mu.Lock()
	x.abandoned = true
	started, done, resp := x.started, x.done, x.resp
	x.mu.Unlock()
	switch {
	case !started:
		closeRequest(x.req)
	case !done:
		x.cancel(cause) // the target discards what the round trip returns
	default:
		discard(resp, x.ctx, x.cancel)
	}
}

// closeRequest closes a request body that will never be sent, as a
// RoundTripper must.
func closeRequest(req *http.Request) {
	if req != nil && req.Body != nil {
		_ = req.Body.Close()
	}
}
