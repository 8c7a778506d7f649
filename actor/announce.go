package actor

import (
	"time"

	"go.uber.org/zap"

	"github.com/tripwire-go/tripwire/state"
)

// announce logs a transition and hands it to the listener.
func (b *breaker) announce(e state.Effect, now time.Time) {
	t := Transition{
		Key: b.cfg.Key, From: e.From, To: e.To, At: now,
		Reason: e.Reason, Failures: b.circuit.Failures,
		Fresh: e.From == state.Closed && e.To == state.Open && !manual(e.Reason),
	}
	switch {
	case e.From == state.Closed && e.To != state.Closed:
		b.episode = now
	case e.From != state.Closed && e.To == state.Closed:
		t.OpenFor = now.Sub(b.episode)
	}
	b.emit(t, e.Gen)
}

// emit logs t and hands it to the listener.
func (b *breaker) emit(t Transition, gen state.Gen) {
	b.logTransition(t, gen)
	if l := b.cfg.Listener; l != nil {
		l.Transitioned(t)
	}
}

func (b *breaker) logTransition(t Transition, gen state.Gen) {
	fields := []zap.Field{
		zap.Stringer("from", t.From), zap.Stringer("to", t.To), zap.String("reason", t.Reason),
		zap.Int("failures", t.Failures), zap.Uint64("generation", gen.Seq),
	}
	switch {
	case manual(t.Reason):
		b.log.Info(manualMessages[t.Reason], fields...)
	case t.To == state.Open && t.Fresh:
		b.log.Warn("circuit opened", append(fields, zap.Time("retry_at", b.circuit.RetryAt))...)
	case t.To == state.Open:
		b.log.Info("circuit re-opened", append(fields, zap.Time("retry_at", b.circuit.RetryAt))...)
	case t.To == state.HalfOpen:
		b.log.Debug("circuit half-open", fields...)
	case t.Reason == ReasonRestarted:
		b.log.Info("circuit closed", fields...)
	default:
		b.log.Info("circuit closed", append(fields, zap.Duration("open_for", t.OpenFor))...)
	}
}

// manualMessages are the log lines of operator actions.
var manualMessages = map[string]string{
	ReasonForcedOpen:   "circuit forced open",
	ReasonForcedClosed: "circuit forced closed",
	ReasonReset:        "circuit reset",
	ReasonUpdated:      "circuit settings updated",
}

// manual reports whether reason is an operator action rather than the
// breaker's own decision.
func manual(reason string) bool {
	_, ok := manualMessages[reason]
	return ok
}
