package actor

import (
	"time"

	"go.uber.org/zap"

	"github.com/tripwire-go/tripwire/state"
)

// announce logs a transition and hands it to the listener.
func (b *breaker) announce(e state.Effect, now time.Time) {
	t := state.Transition{
		Key: b.cfg.Key, From: e.From, To: e.To, At: now,
		Reason: e.Reason, Failures: b.circuit.Failures,
		Fresh: e.From == state.Closed && e.To == state.Open && !e.Reason.Manual(),
	}
	switch {
	case e.From == state.Closed && e.To != state.Closed:
		b.episode = monoOf(now)
	case e.From != state.Closed && e.To == state.Closed:
		t.OpenFor = monoOf(now).sub(b.episode)
	}
	b.emit(t, e.Gen)
}

// emit logs t and hands it to the listener.
func (b *breaker) emit(t state.Transition, gen state.Gen) {
	b.logTransition(t, gen)
	if l := b.cfg.Shared.Listener; l != nil {
		l.Transitioned(t)
	}
}

func (b *breaker) logTransition(t state.Transition, gen state.Gen) {
	fields := []zap.Field{
		zap.String("key", t.Key), zap.Stringer("from", t.From), zap.Stringer("to", t.To), zap.Stringer("reason", t.Reason),
		zap.Int("failures", t.Failures), zap.Uint64("generation", gen.Seq),
	}
	switch {
	case t.Reason.Manual():
		b.cfg.Shared.Logger.Info(manualMessages[t.Reason], fields...)
	case t.To == state.Open && t.Fresh:
		b.cfg.Shared.Logger.Warn("circuit opened", append(fields, zap.Time("retry_at", b.circuit.RetryAt))...)
	case t.To == state.Open:
		b.cfg.Shared.Logger.Info("circuit re-opened", append(fields, zap.Time("retry_at", b.circuit.RetryAt))...)
	case t.To == state.HalfOpen:
		b.cfg.Shared.Logger.Debug("circuit half-open", fields...)
	case t.Reason == state.ReasonRestarted:
		b.cfg.Shared.Logger.Info("circuit closed", fields...)
	default:
		b.cfg.Shared.Logger.Info("circuit closed", append(fields, zap.Duration("open_for", t.OpenFor))...)
	}
}

// manualMessages are the log lines of operator actions.
var manualMessages = map[state.Reason]string{
	state.ReasonForcedOpen:   "circuit forced open",
	state.ReasonForcedClosed: "circuit forced closed",
	state.ReasonReset:        "circuit reset",
	state.ReasonUpdated:      "circuit settings updated",
}
