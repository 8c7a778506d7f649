package tripwire

import (
	"context"
	"errors"
	"math"
	"sync/atomic"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/trace"

	tactor "github.com/tripwire-go/tripwire/actor"
	"github.com/tripwire-go/tripwire/internal/errs"
	"github.com/tripwire-go/tripwire/internal/observe"
	"github.com/tripwire-go/tripwire/registry"
	"github.com/tripwire-go/tripwire/supervisor"
)

// ReplyGrace is how long past its deadline a caller waits for its breaker's
// answer before it gives up with ErrTimeout on its own. The breaker enforces
// every deadline itself; the grace only matters if the breaker is too busy
// to answer in time.
const ReplyGrace = 20 * time.Millisecond

// maxResends bounds how often one call follows its key to a new breaker when
// the old one stopped before it had seen the call.
const maxResends = 3

// Call sends msg to key's target through its breaker and returns the
// target's answer. It returns an *OpenError (errors.Is ErrOpen) at once while
// the circuit is open, and ErrOverloaded at once when the key already has
// MaxInFlight calls in flight. The
// call's deadline is the earlier of ctx's and now+CallTimeout; if ctx is
// cancelled first, Call returns ctx.Err() at once and the call counts neither
// as success nor failure.
func (r *Registry) Call(ctx context.Context, key string, msg any) (any, error) {
	if ctx == nil {
		return nil, ErrNilContext
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	e, ok := r.keys.Load(key)
	if !ok || r.closed.Load() {
		var err error
		if e, err = r.resolve(ctx, key); err != nil {
			return nil, err
		}
	}
	if oe := e.Cell().Rejection(); oe != nil {
		if e.Meter != nil {
			e.Meter.Call(ctx, observe.Rejected, 0)
		}
		return nil, oe
	}
	return r.admitted(ctx, e, msg)
}

// admitted is Call for a key whose circuit was not rejecting a moment ago.
func (r *Registry) admitted(ctx context.Context, e *registry.Entry, msg any) (any, error) {
	if err := r.checkMessage(&e.Config.Target, msg); err != nil {
		return nil, err
	}
	callTimeout, max := e.Config.Limits()
	if !e.Cell().Admit(max) {
		if e.Meter != nil {
			e.Meter.Call(ctx, observe.Rejected, 0)
		}
		return nil, ErrOverloaded
	}
	defer e.Cell().Done(max)
	return r.forward(ctx, e, msg, callTimeout)
}

// forward sends a call to the key's breaker and waits for its answer,
// recording a span and metrics when they are configured.
func (r *Registry) forward(ctx context.Context, e *registry.Entry, msg any, callTimeout time.Duration) (any, error) {
	now := time.Now()
	deadline := now.Add(callTimeout)
	if d, ok := ctx.Deadline(); ok && d.Before(deadline) {
		deadline = d
	}
	var span trace.Span
	if r.tracer != nil {
		ctx, span = r.tracer.Start(ctx, "tripwire.call", trace.WithSpanKind(trace.SpanKindClient),
			trace.WithTimestamp(now), trace.WithAttributes(attribute.String("tripwire.key", e.Key)))
	}
	v, err := r.send(ctx, e, r.newCall(ctx, msg, deadline, now), now)
	if e.Meter != nil || span != nil {
		outcome := observe.Classify(err)
		if e.Meter != nil {
			e.Meter.Call(ctx, outcome, time.Since(now))
		}
		if span != nil {
			endSpan(span, outcome, err)
		}
	}
	return v, err
}

func endSpan(span trace.Span, outcome observe.Outcome, err error) {
	span.SetAttributes(attribute.String("tripwire.outcome", outcome.String()))
	if err != nil {
		span.SetStatus(codes.Error, err.Error())
	}
	span.End()
}

// send posts c to the key's breaker and waits for exactly one answer. The
// caller waits on its call's own channel (and its context's), never on a
// channel other callers share: the breaker answers through it, the backstop
// expires the call through it, and a breaker that stopped for good before
// taking the call bounces it through it.
func (r *Registry) send(ctx context.Context, e *registry.Entry, c *tactor.Call, now time.Time) (any, error) {
	b, err := r.live(e)
	if err != nil {
		return nil, err
	}
	bs := r.backstop(c, graceAfter(c.Deadline.Sub(now)))
	v, err := r.wait(ctx, e, b, c)
	if r.releaseBackstop(bs) && c.Reusable() {
		r.calls.Put(c) // reset when taken; the pool drops it within two GCs
	}
	return v, err
}

// newCall returns a call for msg, reusing one from the registry's pool when
// it can. The pool is per registry, so a call's channel never crosses a
// synctest bubble.
func (r *Registry) newCall(ctx context.Context, msg any, deadline, now time.Time) *tactor.Call {
	if c, ok := r.calls.Get().(*tactor.Call); ok {
		c.Reset(ctx, msg, deadline, now)
		return c
	}
	return tactor.NewCall(ctx, msg, deadline, now)
}

// wait posts c to b and waits for its answer, following the key to a new
// breaker if b stops for good before it takes the call.
func (r *Registry) wait(ctx context.Context, e *registry.Entry, b *registry.Binding, c *tactor.Call) (any, error) {
	b.Post(c)
	cancelled := ctx.Done()
	var gone <-chan struct{} // b's Done, once b bounced the call
	for resends := 0; ; {
		if cancelled == nil && gone == nil {
			<-c.Signal()
		} else {
			select {
			case <-c.Signal():
			case <-cancelled:
				cancelled = nil
				if errors.Is(ctx.Err(), context.Canceled) && c.Withdraw() {
					b.Post(&tactor.Withdraw{Call: c})
					return nil, ctx.Err()
				}
				// Its deadline (the breaker answers ErrTimeout), or an
				// answer given at this very moment: it is on its way.
				continue
			case <-gone:
				gone = nil
				// The supervisor has decided what follows b. If another
				// breaker took over the key (or the call wakes an idle
				// key), the call goes there.
				next, err := r.live(e)
				if err == nil && next != b && resends < maxResends &&
					(errors.Is(b.Err(), ErrBreakerRestarted) || errors.Is(b.Err(), errs.ErrPassivated)) {
					resends++
					b = next
					b.Post(c)
					continue
				}
				if why := stopReason(b, err); c.Expire(why) {
					return nil, why
				}
				continue // answered by the backstop meanwhile
			}
		}
		got, res, courier := c.Take()
		switch got {
		case tactor.Courier:
			b.Post(courier.Outcome()) // the breaker settles the call
			// Its turn usually ran inline, on this goroutine: take the
			// answer without blocking again.
			if res, ok := answered(c); ok {
				return res.Value, res.Err
			}
		case tactor.Bounced:
			gone = b.Done()
		default:
			return res.Value, res.Err
		}
	}
}

// stopReason is what a call gets when its breaker stopped before taking it
// and no other breaker will: err if the key could not be woken (unregistered,
// or shut down), else why the breaker stopped.
func stopReason(b *registry.Binding, err error) error {
	switch {
	case err != nil:
		return err
	case errors.Is(b.Err(), errs.ErrPassivated):
		return ErrBreakerRestarted // never shown as such: it is internal
	}
	return b.Err()
}

// live returns the breaker binding serving e, waking the key first if its
// breaker passivated for being idle.
func (r *Registry) live(e *registry.Entry) (*registry.Binding, error) {
	b := e.Binding()
	select {
	case <-b.Done():
	default:
		return b, nil
	}
	if !errors.Is(b.Err(), errs.ErrPassivated) || e.Binding() != b {
		return e.Binding(), nil
	}
	reply := make(chan error, 1)
	r.sys.Root.Send(r.sup, &supervisor.Wake{Entry: e, Reply: reply})
	if err := r.await(reply); err != nil {
		return nil, err
	}
	return e.Binding(), nil
}

// answered returns the call's answer if it is already there, skipping a
// courier outcome that no breaker will take any more.
func answered(c *tactor.Call) (tactor.Result, bool) {
	for {
		select {
		case <-c.Signal():
			if got, res, _ := c.Take(); got == tactor.Answer {
				return res, true
			}
		default:
			return tactor.Result{}, false
		}
	}
}

// graceAfter is wait + ReplyGrace, saturating instead of overflowing for a
// CallTimeout near math.MaxInt64 ("no timeout").
func graceAfter(wait time.Duration) time.Duration {
	if wait > math.MaxInt64-ReplyGrace {
		return math.MaxInt64
	}
	return wait + ReplyGrace
}

// backstop is a caller's timer of last resort: at the call's deadline plus
// ReplyGrace it answers the call with ErrTimeout if nobody else has. The
// breaker enforces every deadline itself; the backstop only matters if the
// breaker is too busy, or gone without a word.
type backstop struct {
	t    *time.Timer
	call atomic.Pointer[tactor.Call]
}

func (bs *backstop) fire() {
	if c := bs.call.Load(); c != nil {
		c.Expire(ErrTimeout)
	}
}

// backstop arms a backstop for c from the registry's pool. The pool is per
// registry, so a timer never crosses a synctest bubble.
func (r *Registry) backstop(c *tactor.Call, d time.Duration) *backstop {
	bs, ok := r.timers.Get().(*backstop)
	if !ok {
		bs = &backstop{}
		bs.call.Store(c)
		bs.t = time.AfterFunc(d, bs.fire)
		return bs
	}
	bs.call.Store(c)
	bs.t.Reset(d)
	return bs
}

// releaseBackstop disarms bs and pools it, unless it has fired: its function
// may still be running then, so neither it nor its call is reused. It
// reports whether bs was disarmed in time.
func (r *Registry) releaseBackstop(bs *backstop) bool {
	if !bs.t.Stop() {
		return false
	}
	bs.call.Store(nil)
	r.timers.Put(bs)
	return true
}
