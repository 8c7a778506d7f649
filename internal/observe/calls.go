package observe

import (
	"context"
	"time"

	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/trace"
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

// Rejected records a call answered at once without a message to the
// breaker (ErrOpen, ErrOverloaded): rejected, with duration 0. It makes no
// span.
func (c *Calls) Rejected(ctx context.Context, key string) {
	if c != nil && c.metrics != nil { // inlined: the open path pays no call without metrics
		c.rejected(ctx, key)
	}
}

func (c *Calls) rejected(ctx context.Context, key string) { c.metrics.record(ctx, key, Rejected, 0) }

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

// Finish records the end of a call that Start began: its outcome, its
// duration since start, and the end of its span.
func (c *Calls) Finish(ctx context.Context, key string, span trace.Span, start time.Time, err error) {
	if c == nil {
		return
	}
	label := LabelOf(err)
	if c.metrics != nil {
		c.metrics.record(ctx, key, label, time.Since(start))
	}
	if span != nil {
		span.SetAttributes(AttrOutcome.String(label.String()))
		if err != nil {
			span.SetStatus(codes.Error, err.Error())
		}
		span.End()
	}
}

// Forget stops reporting key's metrics: its series go at the next
// collection.
func (c *Calls) Forget(key string) {
	if c != nil && c.metrics != nil {
		c.metrics.Forget(key)
	}
}
