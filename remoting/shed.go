package remoting

import (
	"fmt"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/tripwire-go/tripwire"
)

// ShedConfig configures ShedExpired. The zero value sheds every message
// whose deadline has passed, and tells nobody.
type ShedConfig struct {
	// Tolerance sheds a message only once its deadline is more than this
	// far in the past: room for the clocks of the caller's and the target's
	// machines to disagree. Zero: as soon as it has passed. Negative:
	// tripwire.ErrInvalidOption.
	Tolerance time.Duration
	// OnShed, if set, is called with each message shed (without its
	// envelope) and the deadline it carried. It runs on the actor's
	// goroutine as part of its receive, so it must not block; a panic in it
	// is the actor's failure, as one in Receive would be.
	OnShed func(msg any, deadline time.Time)
}

// ShedExpired is a receive middleware for an actor target's props
// (actor.WithReceiverMiddleware): a user message whose call's deadline
// (CallDeadline: its DeadlineHeader, or its sender on this machine) has
// passed when the actor gets to it is dropped without running the actor's
// Receive. Its caller has its answer already — a Tripwire call got
// tripwire.ErrTimeout at that deadline — so the work would be done for nobody: the
// message of a node that was paused, or a mailbox that backed up.
//
// A shed message gets no reply. Tripwire's caller would ignore it, and a
// caller that set the header itself (DeadlineEnvelope) must not wait past
// the deadline it set, so a reply could only land in dead letters.
// Messages without a deadline, with a header that does not parse, and
// protoactor's system and lifecycle messages (*actor.Started, *Stopping,
// *Terminated, ...) always pass. A message whose Receive has started
// before its deadline is not interrupted and may finish after it.
//
// The deadline is compared with the target machine's clock: across
// machines the clocks must agree to well within the deadline (NTP does), or
// set Tolerance to what they may disagree by.
func ShedExpired(cfg ShedConfig) (actor.ReceiverMiddleware, error) {
	if cfg.Tolerance < 0 {
		return nil, fmt.Errorf("%w: ShedConfig.Tolerance %v is negative", tripwire.ErrInvalidOption, cfg.Tolerance)
	}
	return func(next actor.ReceiverFunc) actor.ReceiverFunc {
		return func(c actor.ReceiverContext, env *actor.MessageEnvelope) {
			if d, late := cfg.expired(env); late {
				if cfg.OnShed != nil {
					cfg.OnShed(env.Message, d)
				}
				return
			}
			next(c, env)
		}
	}, nil
}

// expired reports whether env is a user message whose deadline, plus the
// tolerance, has passed, and the deadline.
func (cfg ShedConfig) expired(env *actor.MessageEnvelope) (time.Time, bool) {
	if env == nil {
		return time.Time{}, false
	}
	switch env.Message.(type) {
	case actor.SystemMessage, actor.AutoReceiveMessage:
		return time.Time{}, false
	}
	d, ok := CallDeadline(env.Header, env.Sender)
	if !ok || time.Now().Before(d.Add(cfg.Tolerance)) {
		return time.Time{}, false
	}
	return d, true
}
