package tripwirehttp

import (
	"context"
	"errors"
	"net/http"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"
)

// deafBody is a response body that ignores every context: its Read ends
// only when it is closed (as an io.Pipe's, or an in-process handler's).
type deafBody struct {
	closed chan struct{}
	closes atomic.Int64
}

func (b *deafBody) Read([]byte) (int, error) {
	<-b.closed
	return 0, errors.New("read on a closed body")
}

func (b *deafBody) Close() error {
	if b.closes.Add(1) == 1 {
		close(b.closed)
	}
	return nil
}

func TestDiscardClosesABodyDeafToItsContextAtDrainTimeout(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		// Given a response nobody receives, whose body ignores the request's
		// context and never yields data
		ctx, cancel := context.WithCancelCause(context.Background())
		b := &deafBody{closed: make(chan struct{})}

		// When it is discarded
		discard(&http.Response{StatusCode: http.StatusOK, Body: b}, ctx, cancel)

		// Then it is drained until DrainTimeout, no longer: the body is
		// closed then, exactly once, and the request's context ends
		time.Sleep(DrainTimeout - time.Nanosecond)
		synctest.Wait()
		if n := b.closes.Load(); n != 0 || ctx.Err() != nil {
			t.Fatalf("before DrainTimeout: body closed %d times, context %v; want open, live", n, ctx.Err())
		}
		time.Sleep(time.Nanosecond)
		synctest.Wait()
		if n := b.closes.Load(); n != 1 {
			b.Close() // let the drain go, so the bubble can end
			t.Fatalf("at DrainTimeout the body was closed %d times; want 1", n)
		}
		if !errors.Is(context.Cause(ctx), errDrainTimeout) {
			t.Fatalf("the request's context ended with %v; want errDrainTimeout", context.Cause(ctx))
		}
	})
}
