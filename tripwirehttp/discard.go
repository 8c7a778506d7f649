package tripwirehttp

import (
	"context"
	"errors"
	"io"
	"net/http"
	"sync"
	"time"
)

// Bounds of draining a response nobody receives: net/http reuses a
// connection only once its response body was read to the end, so a body of
// up to MaxDrain bytes is read to its end (for at most DrainTimeout) before
// it is closed; a longer or slower one is closed, and its connection with it.
const (
	MaxDrain     = 64 << 10
	DrainTimeout = 500 * time.Millisecond
)

var errDrainTimeout = errors.New("tripwirehttp: draining an unwanted response took too long")

// discard disposes of a response nobody will receive, then ends the
// request's context. A body whose context has already ended cannot be read
// any more, so it is only closed; otherwise it is drained on a goroutine of
// its own — the caller that gave up must not wait for it — which ends
// within DrainTimeout.
func discard(resp *http.Response, ctx context.Context, cancel context.CancelCauseFunc) {
	if resp == nil || resp.Body == nil {
		cancel(nil)
		return
	}
	if ctx.Err() != nil {
		_ = resp.Body.Close()
		cancel(nil)
		return
	}
	go drain(resp.Body, cancel)
}

// drain reads what is left of body, within the bounds, and closes it. At
// DrainTimeout it cancels the request's context and closes the body too: a
// body that ignores its context (an io.Pipe's, an in-process handler's)
// ends its Read only when closed, and would hold this goroutine, and its
// connection, for good.
func drain(body io.ReadCloser, cancel context.CancelCauseFunc) {
	var once sync.Once
	closeBody := func() { once.Do(func() { _ = body.Close() }) }
	t := time.AfterFunc(DrainTimeout, func() {
		cancel(errDrainTimeout)
		closeBody()
	})
	// One byte more than MaxDrain: a body of MaxDrain bytes ends in io.EOF,
	// which is when net/http takes its connection back.
	_, _ = io.CopyN(io.Discard, body, MaxDrain+1)
	t.Stop()
	closeBody()
	cancel(nil)
}

// closeResponse closes the body of a response that came with an error.
func closeResponse(resp *http.Response) {
	if resp.Body != nil {
		_ = resp.Body.Close()
	}
}
