package supervisor

import (
	"fmt"
	"time"

	"github.com/asynkron/protoactor-go/actor"
	"go.uber.org/zap"

	tactor "github.com/tripwire-go/tripwire/actor"
	"github.com/tripwire-go/tripwire/internal/errs"
	"github.com/tripwire-go/tripwire/registry"
)

// Restart budget per breaker: a breaker that crashes more than MaxRestarts
// times within RestartWindow is stopped by protoactor and respawned fresh.
const (
	MaxRestarts   = 10
	RestartWindow = 10 * time.Second
)

// Supervisor holds the state of the supervisor actor. It outlives the actor's
// incarnations, so a restarted supervisor still knows every key.
type Supervisor struct {
	reg      *registry.Registry
	log      *zap.Logger
	restart  actor.SupervisorStrategy
	children map[string]*registry.Entry // breaker actor id -> entry
	waiting  map[string]chan error      // breaker actor id -> Unregister reply
	seq      uint64
	stopping bool
}

// New returns the supervisor of reg's breakers.
func New(reg *registry.Registry, log *zap.Logger) *Supervisor {
	return &Supervisor{
		reg:      reg,
		log:      log.Named("supervisor"),
		restart:  actor.NewOneForOneStrategy(MaxRestarts, RestartWindow, actor.DefaultDecider),
		children: map[string]*registry.Entry{},
		waiting:  map[string]chan error{},
	}
}

// Props returns the supervisor actor's props.
func (s *Supervisor) Props() *actor.Props {
	return actor.PropsFromProducer(func() actor.Actor { return s })
}

// Receive handles registration and breaker termination.
func (s *Supervisor) Receive(ctx actor.Context) {
	switch m := ctx.Message().(type) {
	case *Register:
		m.Reply <- s.register(ctx, m.Entry)
	case *Unregister:
		s.unregister(ctx, m)
	case *Wake:
		m.Reply <- s.wake(ctx, m.Entry)
	case *actor.Terminated:
		s.terminated(ctx, m.Who)
	case *actor.Started:
		s.stopping = false
		s.respawnOrphans(ctx)
	case *actor.Restarting:
		s.stopping = true
	case *actor.Stopping:
		s.stopping = true
		for _, e := range s.children {
			e.Cell().Retire(errs.ErrShutdown)
		}
	}
}

func (s *Supervisor) register(ctx actor.Context, e *registry.Entry) error {
	if _, taken := s.reg.Load(e.Key); taken {
		return errs.ErrDuplicateKey
	}
	if err := s.spawn(ctx, e); err != nil {
		return err
	}
	s.reg.Insert(e)
	return nil
}

func (s *Supervisor) spawn(ctx actor.Context, e *registry.Entry) error {
	s.seq++
	mb := tactor.NewMailbox()
	pid, err := ctx.SpawnNamed(tactor.Props(e.Config, mb), fmt.Sprintf("%s#%d", e.Key, s.seq))
	if err != nil {
		return fmt.Errorf("tripwire: spawn breaker %q: %w", e.Key, err)
	}
	s.children[pid.Id] = e
	e.Bind(registry.NewBinding(pid, mb))
	return nil
}

func (s *Supervisor) unregister(ctx actor.Context, m *Unregister) {
	e, ok := s.reg.Delete(m.Key)
	if !ok {
		m.Reply <- errs.ErrUnknownKey
		return
	}
	e.Cell().Retire(errs.ErrShutdown)
	pid := e.Binding().PID
	if _, alive := s.children[pid.Id]; !alive {
		// Passivated: no breaker to stop.
		e.Binding().Close(errs.ErrShutdown)
		m.Reply <- nil
		return
	}
	s.waiting[pid.Id] = m.Reply
	ctx.Stop(pid)
}

// terminated runs when a breaker actor has stopped: unregistered, shut down,
// or given up on by the restart strategy. Only in the last case is the key
// still registered, and then a fresh breaker takes over.
func (s *Supervisor) terminated(ctx actor.Context, who *actor.PID) {
	e, ok := s.children[who.Id]
	if !ok {
		return
	}
	delete(s.children, who.Id)
	if reply, ok := s.waiting[who.Id]; ok {
		delete(s.waiting, who.Id)
		defer func() { reply <- nil }()
	}
	current, registered := s.reg.Load(e.Key)
	if s.stopping || !registered || current != e {
		e.Binding().Close(e.Cell().StopError())
		return
	}
	if e.Cell().Passivated() {
		// Idle: the key stays registered without a breaker until a call
		// wakes it (see Wake).
		e.Binding().Close(errs.ErrPassivated)
		return
	}
	old := e.Binding()
	if err := s.spawn(ctx, e); err != nil {
		s.log.Error("breaker lost", zap.String("key", e.Key), zap.Error(err))
		s.reg.Delete(e.Key)
		old.Close(errs.ErrShutdown)
		return
	}
	old.Close(errs.ErrBreakerRestarted)
	s.log.Warn("breaker respawned after too many crashes", zap.String("key", e.Key),
		zap.String("actor", e.Binding().PID.Id), zap.Int("restarts", e.Cell().Restarts()))
}

// respawnOrphans gives a breaker to every key whose breaker was stopped while
// the supervisor itself restarted.
func (s *Supervisor) respawnOrphans(ctx actor.Context) {
	s.reg.Range(func(e *registry.Entry) bool {
		if b := e.Binding(); b != nil {
			if _, alive := s.children[b.PID.Id]; alive {
				return true
			}
			b.Close(errs.ErrBreakerRestarted)
		}
		if err := s.spawn(ctx, e); err != nil {
			s.log.Error("breaker lost", zap.String("key", e.Key), zap.Error(err))
		}
		return true
	})
}

// wake starts a breaker for a key whose breaker passivated. It does nothing
// if the key already has a live breaker (another caller woke it first) or is
// no longer registered.
func (s *Supervisor) wake(ctx actor.Context, e *registry.Entry) error {
	current, registered := s.reg.Load(e.Key)
	if !registered || current != e {
		return errs.ErrUnknownKey
	}
	if b := e.Binding(); b != nil {
		if _, alive := s.children[b.PID.Id]; alive {
			return nil
		}
	}
	e.Cell().Wake()
	return s.spawn(ctx, e)
}
