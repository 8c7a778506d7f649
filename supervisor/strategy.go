package supervisor

import (
	"github.com/asynkron/protoactor-go/actor"
	"go.uber.org/zap"

	tactor "github.com/tripwire-go/tripwire/actor"
	"github.com/tripwire-go/tripwire/internal/errs"
	"github.com/tripwire-go/tripwire/task"
)

// HandleFailure is the supervisor strategy for breakers: it answers the call
// whose message crashed the breaker, counts and logs the restart, then lets
// protoactor's one-for-one strategy restart the breaker (or stop it once it
// has crashed too often; Receive then respawns it).
func (s *Supervisor) HandleFailure(sys *actor.ActorSystem, sup actor.Supervisor, child *actor.PID,
	rs *actor.RestartStatistics, reason, message any) {
	// The call whose admission or outcome the breaker was handling when it
	// crashed: the breaker may have lost track of it. Calls it merely held
	// carry over to the restarted breaker (see tactor.Cell.SettleOrphans).
	switch m := actor.UnwrapEnvelopeMessage(message).(type) {
	case *tactor.Call:
		m.Settle(tactor.Result{Err: errs.ErrBreakerRestarted})
	case *task.Completion:
		if c, ok := m.Token.(*tactor.Call); ok {
			c.Settle(tactor.Result{Err: errs.ErrBreakerRestarted})
		}
	}
	if e, ok := s.children.get(child.Id); ok {
		n := e.Cell().AddRestart()
		s.log.Error("breaker restarted", zap.String("key", e.Key), zap.Any("panic", reason),
			zap.Int64("restarts", n))
		if l := e.Config.Listener; l != nil {
			l.Restarted(e.Key, reason)
		}
	}
	s.restart.HandleFailure(sys, sup, child, rs, reason, message)
}
