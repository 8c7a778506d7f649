package actor

import (
	"sync/atomic"
	"time"

	"github.com/asynkron/protoactor-go/actor"
	"go.uber.org/zap"

	"github.com/tripwire-go/tripwire/state"
	"github.com/tripwire-go/tripwire/task"
)

// Callee is what a breaker forwards to: exactly one of Func or PID is set.
type Callee struct {
	Func task.Func
	PID  *actor.PID
	// Check, if set, refuses a message before its call is admitted.
	Check func(msg any) error
}

// Config is everything a breaker needs; it is shared by all incarnations of
// one key's breaker. Its fields are not changed after Props is called; Update
// replaces the rules (Circuit, CallTimeout, Classify) as a whole, atomically.
type Config struct {
	Key         string
	Circuit     state.Settings
	CallTimeout time.Duration
	Target      Callee
	Classify    task.Classifier
	// MaxInFlight bounds the calls in flight (0: no bound); see Cell.Admit.
	MaxInFlight int
	// WatchTarget makes the breaker watch an actor target and open at once
	// when it terminates.
	WatchTarget bool
	// IdleTimeout, if positive, stops a closed breaker with no calls for that
	// long; the next call starts it again.
	IdleTimeout time.Duration
	Cell        *Cell
	Pool        *task.Pool
	Logger      *zap.Logger
	// Listener, if set, is told of every transition.
	Listener Listener

	updated atomic.Pointer[Rules]
}

// Rules are the settings of a breaker that Update may change at run time.
type Rules struct {
	Circuit     state.Settings
	CallTimeout time.Duration
	Classify    task.Classifier
	MaxInFlight int
}

// Update replaces the rules; callers see the new CallTimeout at once, and a
// breaker applies the rest when it gets a Reconfigure (or starts).
func (c *Config) Update(r Rules) { c.updated.Store(&r) }

// Limits are the CallTimeout and MaxInFlight in force.
func (c *Config) Limits() (callTimeout time.Duration, maxInFlight int) {
	if r := c.updated.Load(); r != nil {
		return r.CallTimeout, r.MaxInFlight
	}
	return c.CallTimeout, c.MaxInFlight
}

func (c *Config) rules() Rules {
	if r := c.updated.Load(); r != nil {
		return *r
	}
	return Rules{Circuit: c.Circuit, CallTimeout: c.CallTimeout, Classify: c.Classify, MaxInFlight: c.MaxInFlight}
}

// Props returns the props of a breaker for cfg that receives through mb.
// Every incarnation is a fresh breaker value, so a restarted breaker starts
// closed with no failures; all incarnations share mb, which the breaker
// closes when it stops for good. Spawn the props once: a mailbox serves one
// actor.
func Props(cfg *Config, mb *Mailbox) *actor.Props {
	log := cfg.Logger.Named("breaker").With(zap.String("key", cfg.Key))
	return actor.PropsFromProducer(func() actor.Actor {
		return &breaker{cfg: cfg, log: log, mbox: mb}
	}, actor.WithMailbox(func() actor.Mailbox { return mb }))
}
