package observe

import (
	"context"
	"time"

	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/trace"

	tactor "github.com/tripwire-go/tripwire/internal/actor"
)

// Calls records what callers see of their calls: the counts and times per
// key and outcome and the tripwire.call.duration histogram (see Metrics),
// and a tripwire.call span per forwarded call. A nil *Calls records
// nothing, and costs nothing on the call path.
type Calls struct {
	metrics *Metrics     // nil: no metrics
	tracer  trace.Tracer // nil: no spans
}

// NewCalls returns the recorder of a registry's calls, or nil if it has
// neither metrics nor a tracer.
func NewCalls(metrics *Metrics, tracer trace.Tracer) *Calls {
	if metrics == nil && tracer == nil {
		return nil
	}
	return &Calls{metrics: metrics, tracer: tracer}
}

// Rejected records a call of cfg's key answered at once without a message
// to the breaker (ErrOpen, ErrOverloaded): rejected, with no duration. It
// makes no span.
func (c *Calls) Rejected(ctx context.Context, cfg *tactor.Config) {
	if c != nil && c.metrics != nil { // inlined: the open path pays no call without metrics
		c.rejected(ctx, cfg)
	}
}

func (c *Calls) rejected(ctx context.Context, cfg *tactor.Config) {
	c.metrics.record(ctx, cfg, Rejected, 0)
}

// RefusedKey records a call refused with ErrTooManyKeys, whose key is none
// of the registry's.
func (c *Calls) RefusedKey() {
	if c != nil && c.metrics != nil {
		c.metrics.refusedKey()
	}
}

// Start begins the span of a call forwarded at start, a child of the span
// in ctx, and returns the context the call carries on with (the target's
// own spans nest under it).
func (c *Calls) Start(ctx context.Context, key string, start time.Time) (context.Context, trace.Span) {
	if c == nil || c.tracer == nil {
		return ctx, nil
	}
	return c.tracer.Start(ctx, "tripwire.call", trace.WithSpanKind(trace.SpanKindClient),
		trace.WithTimestamp(start), trace.WithAttributes(AttrKey.String(key)))
}

// Finish records the end of a call of cfg's key that Start began: its
// outcome, its duration since start, and the end of its span. res is the
// call's answer: an error of its target's own is a failure, whatever it
// wraps (another key's ErrOpen or ErrTimeout, a context.Canceled of the
// target's making): res.Target says whether res.Err is the target's own.
func (c *Calls) Finish(ctx context.Context, cfg *tactor.Config, span trace.Span, start time.Time, res tactor.Result) {
	if c == nil {
		return
	}
	label := LabelOf(res.Err)
	if res.Target && res.Err != nil {
		label = Failure
	}
	if c.metrics != nil {
		c.metrics.record(ctx, cfg, label, time.Since(start))
	}
	end(span, label, res.Err)
}

// Abandon ends the span that Start began of a call that ended with err
// before a breaker took it, whose metrics (if any) were recorded as for a
// call refused at once (Rejected, RefusedKey) or not at all.
func (c *Calls) Abandon(span trace.Span, err error) {
	if c != nil {
		end(span, LabelOf(err), err)
	}
}

// end ends span (nil: none) with the call's outcome.
func end(span trace.Span, label Label, err error) {
	if span == nil {
		return
	}
	span.SetAttributes(AttrOutcome.String(label.String()))
	if err != nil {
		span.SetStatus(codes.Error, err.Error())
	}
	span.End()
}
