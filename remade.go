package tripwire

import (
	"context"
	"errors"
	"time"

	"go.opentelemetry.io/otel/trace"

	tactor "github.com/tripwire-go/tripwire/internal/actor"
	"github.com/tripwire-go/tripwire/internal/errs"
	"github.com/tripwire-go/tripwire/internal/registry"
)

// remade carries on a call whose key was forgotten (WithMaxKeys) while it
// waited for the key to wake: f makes the key again and the call goes to
// it within its deadline, as often as needed. Its span and metrics record
// the one answer its caller gets (a timeout before: for the old key).
func (r *Registry) remade(ctx context.Context, old *registry.Entry, msg any, f Factory, span trace.Span, start, deadline time.Time) (any, error) {
	key := old.Key
	for {
		if !r.caller.Now().Before(deadline) { // nothing to make the key for
			r.calls.Finish(ctx, &old.Config, span, start, tactor.Result{Err: ErrTimeout})
			return nil, ErrTimeout
		}
		e, err := r.resolve(ctx, key, f, deadline)
		if err != nil {
			if errors.Is(err, ErrTooManyKeys) {
				r.calls.RefusedKey()
			}
			r.calls.Abandon(span, err)
			return nil, err
		}
		_, max, _, err := r.gate(ctx, e, msg, nil)
		if err != nil {
			r.calls.Abandon(span, err)
			return nil, err
		}
		res := r.caller.Do(ctx, &e.Mailbox, &e.Cell, max, msg, deadline, r.caller.Now())
		if res.Err != errs.ErrForgotten {
			r.calls.Finish(ctx, &e.Config, span, start, res)
			return res.Value, res.Err
		}
	}
}
