// Package system makes the actor systems of Tripwire's program and tests,
// and of a registry that Start makes one for: protoactor logs through
// log/slog to stderr by default, and these log to a zap logger instead.
package system

import (
	"log/slog"

	"github.com/asynkron/protoactor-go/actor"
	"go.uber.org/zap"
	"go.uber.org/zap/exp/zapslog"
)

// New returns an actor system whose own logs go to l (nil: nowhere), with
// opts.
func New(l *zap.Logger, opts ...actor.ConfigOption) *actor.ActorSystem {
	if l == nil {
		l = zap.NewNop()
	}
	factory := actor.WithLoggerFactory(func(s *actor.ActorSystem) *slog.Logger {
		return slog.New(zapslog.NewHandler(l.Core(), zapslog.WithName("protoactor"))).With("system", s.ID)
	})
	return actor.NewActorSystem(append([]actor.ConfigOption{factory}, opts...)...)
}
