package actor

import (
	"time"

	"github.com/asynkron/protoactor-go/actor"
	"go.uber.org/zap"

	"github.com/tripwire-go/tripwire/state"
	"github.com/tripwire-go/tripwire/task"
)

// Target is what a breaker forwards to: exactly one of Func or PID is set.
type Target struct {
	Func task.Func
	PID  *actor.PID
}

// Config is everything a breaker needs; it is shared by all incarnations of
// one key's breaker and never changed after Props is called.
type Config struct {
	Key         string
	Circuit     state.Settings
	CallTimeout time.Duration
	Target      Target
	IsFailure   task.Classifier
	Cell        *Cell
	Pool        *task.Pool
	Logger      *zap.Logger
	// Listener, if set, is told of every transition.
	Listener Listener
}

// dispatcher runs a breaker's mailbox on the goroutine of whoever sends to it
// (a caller, a worker reporting an outcome, a timer) instead of starting a
// goroutine per mailbox activation. A breaker turn never blocks and takes
// about a microsecond, so a sender pays that and no more than
// dispatcherThroughput turns before the mailbox yields.
var dispatcher = actor.NewSynchronizedDispatcher(dispatcherThroughput)

const dispatcherThroughput = 300

// Props returns the props of a breaker for cfg. Every incarnation is a fresh
// breaker value, so a restarted breaker starts closed with no failures.
func Props(cfg *Config) *actor.Props {
	log := cfg.Logger.Named("breaker").With(zap.String("key", cfg.Key))
	return actor.PropsFromProducer(func() actor.Actor {
		return &breaker{cfg: cfg, log: log}
	}, actor.WithDispatcher(dispatcher))
}
