package supervisor

import (
	"sync/atomic"

	"github.com/asynkron/protoactor-go/actor"
	"go.uber.org/zap"

	tactor "github.com/tripwire-go/tripwire/internal/actor"
	"github.com/tripwire-go/tripwire/internal/errs"
	"github.com/tripwire-go/tripwire/internal/task"
)

// guardian is the strategy of the guardian of a registry's breakers: a
// small value (protoactor keeps it as long as the actor system runs) that
// lets go of the supervisor once the registry has shut down.
type guardian struct {
	sup atomic.Pointer[Supervisor]
}

// HandleFailure hands a breaker's crash to the supervisor's strategy, or
// stops the breaker if its registry is gone.
func (g *guardian) HandleFailure(sys *actor.ActorSystem, sup actor.Supervisor, child *actor.PID,
	rs *actor.RestartStatistics, reason, message any) {
	if s := g.sup.Load(); s != nil {
		s.handleFailure(sys, sup, child, rs, reason, message)
		return
	}
	sup.StopChildren(child)
}

// handleFailure answers the call whose message crashed a breaker, counts
// and logs the restart, and lets protoactor's one-for-one strategy restart
// the breaker (or stop it, which the supervisor respawns). It runs on the
// crashed breaker's goroutine: it touches only what is safe to share.
func (s *Supervisor) handleFailure(sys *actor.ActorSystem, sup actor.Supervisor, child *actor.PID,
	rs *actor.RestartStatistics, reason, message any) {
	// The call the breaker was handling may be lost to it; the calls it
	// held carry over to the restarted breaker.
	switch m := actor.UnwrapEnvelopeMessage(message).(type) {
	case *tactor.Call:
		m.Settle(tactor.Result{Err: errs.ErrBreakerRestarted})
	case *task.Completion:
		if c, ok := m.Call.(*tactor.Call); ok {
			c.Settle(tactor.Result{Err: errs.ErrBreakerRestarted})
		}
	}
	if e, ok := s.entryOf(child.Id); ok {
		n := e.Cell.AddRestart()
		s.log.Error("breaker restarted", zap.String("key", e.Key), zap.Any("panic", reason),
			zap.Int64("restarts", n))
		if l := e.Shared.Listener; l != nil {
			l.Restarted(e.Key, reason)
		}
	}
	s.restart.HandleFailure(sys, sup, child, rs, reason, message)
}
