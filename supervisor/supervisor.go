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
	reg      *registry.Table
	log      *zap.Logger
	restart  actor.SupervisorStrategy
	children children
	waiting  map[string]chan error // breaker actor id -> Unregister reply
	seq      uint64
	stopping bool // the registry is shutting down
	// restarting: the supervisor itself crashed, and protoactor stops its
	// children before restarting it; their keys get fresh breakers then.
	restarting bool
}

// New returns the supervisor of reg's breakers.
func New(reg *registry.Table, log *zap.Logger) *Supervisor {
	return &Supervisor{
		reg:      reg,
		log:      log.Named("supervisor"),
		restart:  actor.NewOneForOneStrategy(MaxRestarts, RestartWindow, actor.DefaultDecider),
		children: newChildren(),
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
	case *wake:
		s.wake(ctx, m.entry)
	case *actor.Terminated:
		s.terminated(ctx, m.Who)
	case *actor.Started:
		s.restarting = false
		s.respawnOrphans(ctx)
	case *actor.Restarting:
		s.restarting = true
	case *actor.Stopping:
		s.stopping = true
		for _, e := range s.children.m {
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

// spawn starts a breaker for e, on the key's mailbox, and points the key at
// it. What waited in the mailbox goes to it after its Started.
func (s *Supervisor) spawn(ctx actor.Context, e *registry.Entry) error {
	s.seq++
	pid, err := ctx.SpawnNamed(tactor.Props(e.Config, e.Mailbox), fmt.Sprintf("%s#%d", e.Key, s.seq))
	if err != nil {
		return fmt.Errorf("tripwire: spawn breaker %q: %w", e.Key, err)
	}
	s.children.add(pid.Id, e)
	e.Bind(pid)
	return nil
}

func (s *Supervisor) unregister(ctx actor.Context, m *Unregister) {
	e, ok := s.reg.Delete(m.Key)
	if !ok {
		m.Reply <- errs.ErrUnknownKey
		return
	}
	e.Cell().Retire(errs.ErrShutdown)
	pid := e.PID()
	if _, alive := s.children.get(pid.Id); !alive {
		// Passivated: no breaker to stop.
		e.Mailbox.Discard(errs.ErrShutdown)
		m.Reply <- nil
		return
	}
	s.waiting[pid.Id] = m.Reply
	// A PID of its own: protoactor caches the process in a PID it sends
	// through, and pid is also in protoactor's set of this actor's
	// children, whose stale entries would then keep the breaker alive.
	ctx.Stop(&actor.PID{Address: pid.Address, Id: pid.Id})
}

// terminated runs when a breaker actor has stopped: unregistered, shut down,
// passivated, or given up on by the restart strategy. The key's mailbox
// holds what was posted since, until this decides: the key's end, sleep, or
// a fresh breaker.
func (s *Supervisor) terminated(ctx actor.Context, who *actor.PID) {
	e, ok := s.children.get(who.Id)
	if !ok {
		return
	}
	s.children.remove(who.Id)
	if reply, ok := s.waiting[who.Id]; ok {
		delete(s.waiting, who.Id)
		defer func() { reply <- nil }()
	}
	if s.restarting {
		return // its mailbox holds what comes until respawnOrphans
	}
	current, registered := s.reg.Load(e.Key)
	if s.stopping || !registered || current != e {
		// No breaker follows: calls a crash left in flight end too.
		e.Cell().SettleOrphans(e.Cell().StopError())
		e.Mailbox.Discard(e.Cell().StopError())
		return
	}
	passivated := e.Cell().Passivated()
	if passivated {
		sys, self := ctx.ActorSystem(), ctx.Self()
		if e.Mailbox.Passivate(func() { sys.Root.Send(self, &wake{entry: e}) }) {
			return // idle: the key stays registered without a breaker
		}
		// A message came while it stopped: the key is not idle after all.
		e.Cell().Wake()
	}
	if err := s.spawn(ctx, e); err != nil {
		s.log.Error("breaker lost", zap.String("key", e.Key), zap.Error(err))
		s.reg.Delete(e.Key)
		e.Cell().SettleOrphans(errs.ErrShutdown)
		e.Mailbox.Discard(errs.ErrShutdown)
		return
	}
	if !passivated {
		s.log.Warn("breaker respawned after too many crashes", zap.String("key", e.Key),
			zap.String("actor", e.PID().Id), zap.Int("restarts", e.Cell().Restarts()))
	}
}

// respawnOrphans gives a breaker to every key whose breaker was stopped while
// the supervisor itself restarted; a passivated key stays asleep.
func (s *Supervisor) respawnOrphans(ctx actor.Context) {
	s.reg.Range(func(e *registry.Entry) bool {
		if pid := e.PID(); pid != nil {
			if _, alive := s.children.get(pid.Id); alive || e.Cell().Passivated() {
				return true
			}
		}
		if err := s.spawn(ctx, e); err != nil {
			s.log.Error("breaker lost", zap.String("key", e.Key), zap.Error(err))
		}
		return true
	})
}

// wake starts a breaker for a passivated key that something was posted to.
// It does nothing if the key is no longer registered (its mailbox was
// discarded) or already has a breaker.
func (s *Supervisor) wake(ctx actor.Context, e *registry.Entry) {
	current, registered := s.reg.Load(e.Key)
	if !registered || current != e {
		return
	}
	if _, alive := s.children.get(e.PID().Id); alive {
		return
	}
	e.Cell().Wake()
	if err := s.spawn(ctx, e); err != nil {
		s.log.Error("breaker lost", zap.String("key", e.Key), zap.Error(err))
		s.reg.Delete(e.Key)
		e.Mailbox.Discard(errs.ErrShutdown)
	}
}
