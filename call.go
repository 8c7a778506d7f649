package tripwire

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"time"

	tactor "github.com/tripwire-go/tripwire/internal/actor"
	"github.com/tripwire-go/tripwire/internal/errs"
	"github.com/tripwire-go/tripwire/internal/registry"
	"github.com/tripwire-go/tripwire/state"
)

// ReplyGrace is how long past its deadline a caller waits for its breaker's
// answer before it gives up with ErrTimeout on its own. The breaker enforces
// every deadline itself; the grace only matters if the breaker is too busy
// to answer in time.
const ReplyGrace = tactor.ReplyGrace

// Call sends msg to key's target through its breaker and returns the
// target's answer. It returns an *state.OpenError (errors.Is ErrOpen) at
// once while the circuit is open, and ErrOverloaded at once when the key
// already has MaxInFlight calls in flight. The call's deadline is the
// earlier of ctx's and now+CallTimeout; if ctx is cancelled first, Call
// returns ctx.Err() at once and the call counts neither as success nor
// failure. A context whose deadline has passed gets ErrTimeout. Key (a
// Handle) is Call with the message's and the answer's types checked.
func (r *Registry) Call(ctx context.Context, key string, msg any) (any, error) {
	// A known key's call in a frame of three arguments (call's five cost the open path 5 %).
	if r != nil && ctx != nil && ctx.Err() == nil {
		if e, ok := r.keys.Load(key); ok && !r.closed.Load() {
			if !e.Config.Target.Checks() { // as in call
				if oe := e.Cell.Reject(); oe != nil {
					r.calls.Rejected(ctx, &e.Config)
					return nil, oe
				}
			}
			return r.admitKnown(ctx, e, msg)
		}
	}
	return r.call(ctx, key, msg, nil, nil)
}

// admitKnown is gate, then forward, for a Call of a known key: its deadline
// counts from now, the registry's factory makes the key again if forgotten.
func (r *Registry) admitKnown(ctx context.Context, e *registry.Entry, msg any) (any, error) {
	callTimeout, max, _, err := r.gate(ctx, e, msg, nil)
	if err != nil {
		return nil, err
	}
	return r.forward(ctx, e, msg, callTimeout, max, time.Time{}, r.factory)
}

// CallWith is Call for a key that f makes if it does not exist yet —
// exactly once per key, however many callers arrive at once, as with
// WithFactory (which it overrides for this call): adapters such as an HTTP
// client's make their breakers this way, one per host. f must be non-nil.
func (r *Registry) CallWith(ctx context.Context, key string, msg any, f Factory) (any, error) {
	if r == nil {
		return nil, errNoRegistry
	}
	if f == nil {
		return nil, fmt.Errorf("%w: CallWith with a nil Factory", ErrInvalidOption)
	}
	return r.call(ctx, key, msg, f, nil)
}

// call is every call's door: it resolves key (with the factory f for an
// unknown key, the deadline counting from now), refuses bad input, fails
// fast, and forwards the call. f nil is the registry's factory; want is the
// answer's type (nil: any).
func (r *Registry) call(ctx context.Context, key string, msg any, f Factory, want reflect.Type) (any, error) {
	if r == nil {
		return nil, errNoRegistry
	}
	if f == nil {
		f = r.factory
	}
	if ctx == nil {
		return nil, ErrNilContext
	}
	if ctx.Err() != nil {
		return nil, contextError(ctx)
	}
	var start time.Time
	e, ok := r.keys.Load(key)
	if !ok || r.closed.Load() {
		var err error
		if e, start, err = r.unknown(ctx, key, f); err != nil {
			return nil, err
		}
	}
	if want == nil && !e.Config.Target.Checks() {
		// The open path without gate's frame: no input here that gate
		// could refuse first.
		if oe := e.Cell.Reject(); oe != nil {
			r.calls.Rejected(ctx, &e.Config)
			return nil, oe
		}
	}
	callTimeout, max, _, err := r.gate(ctx, e, msg, want)
	if err != nil {
		return nil, err
	}
	return r.forward(ctx, e, msg, callTimeout, max, start, f)
}

// unknown resolves a key that is not in the table (or the registry shut
// down), with the factory f; the call's deadline counts from start.
func (r *Registry) unknown(ctx context.Context, key string, f Factory) (e *registry.Entry, start time.Time, err error) {
	if r.unusable() {
		return nil, start, errNoRegistry
	}
	start = time.Now()
	if e, err = r.resolve(ctx, key, f, start.Add(state.DefaultCallTimeout)); errors.Is(err, ErrTooManyKeys) {
		r.calls.RefusedKey()
	}
	return e, start, err
}

// gate is the one prelude of every call whose key is resolved (Call,
// CallWith, a Handle's Call, Request, a call whose key was made again): it
// refuses bad input — a message the target does not take, an answer type it
// never gives (want, nil: any) — which counts nowhere, and fails fast, an
// open circuit's rejection or MaxInFlight's refusal (refused), counted as
// the key's. Otherwise the call holds one of the key's MaxInFlight slots
// (max, see Cell.Admit) until it has its answer and its target is done with
// it, and has callTimeout to run.
func (r *Registry) gate(ctx context.Context, e *registry.Entry, msg any, want reflect.Type) (callTimeout time.Duration, max int, refused bool, err error) {
	t := &e.Config.Target
	if want != nil {
		if err := checkReply(t, want); err != nil {
			return 0, 0, false, err
		}
	}
	if t.Checks() && e.Cell.Rejecting() { // bad input is refused as such, even while open
		if err := r.checkMessage(t, msg); err != nil {
			return 0, 0, false, err
		}
	}
	if oe := e.Cell.Reject(); oe != nil {
		r.calls.Rejected(ctx, &e.Config)
		return 0, 0, true, oe
	}
	if err := r.checkMessage(t, msg); err != nil {
		return 0, 0, false, err
	}
	callTimeout, max = e.Config.Limits()
	if !e.Cell.Admit(max) {
		e.Cell.CountOverloaded()
		r.calls.Rejected(ctx, &e.Config)
		return 0, 0, true, ErrOverloaded
	}
	return callTimeout, max, false, nil
}

// forward sends a call to the key's breaker and waits for its answer,
// recording a span and metrics if configured; its deadline counts from
// start (zero: now), and it holds the MaxInFlight slot (max) Admit counted.
// A key forgotten while the call waits for it is made again (remade).
func (r *Registry) forward(ctx context.Context, e *registry.Entry, msg any, callTimeout time.Duration, max int, start time.Time, f Factory) (any, error) {
	now := r.caller.Now()
	if start.IsZero() {
		start = now
	}
	deadline := callDeadline(ctx, start.Add(callTimeout), now)
	ctx, span := r.calls.Start(ctx, e.Key, start)
	res := r.caller.Do(ctx, &e.Mailbox, &e.Cell, max, msg, deadline, now)
	if res.Err == errs.ErrForgotten {
		return r.remade(ctx, e, msg, f, span, start, deadline)
	}
	r.calls.Finish(ctx, &e.Config, span, start, res)
	return res.Value, res.Err
}

// callDeadline is the earlier of deadline and ctx's, read at now. A ctx
// deadline without a monotonic reading (t.UTC(), time.Unix, a
// DeadlineHeader's) is taken as its distance from now on now's monotonic
// clock, which the breaker and the backstop measure on: a step of the wall
// clock (NTP, a resumed VM) made such a call's answer late, or early.
func callDeadline(ctx context.Context, deadline, now time.Time) time.Time {
	d, ok := ctx.Deadline()
	switch {
	case !ok || !d.Before(deadline):
		return deadline
	case d == d.Round(0): // no monotonic reading to strip
		return now.Add(d.Sub(now))
	}
	return d
}
