package supervisor

import (
	"fmt"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/asynkron/protoactor-go/actor"
	"go.uber.org/zap"

	tactor "github.com/tripwire-go/tripwire/internal/actor"
	"github.com/tripwire-go/tripwire/internal/errs"
	"github.com/tripwire-go/tripwire/internal/registry"
)

// Restart budget per breaker: a breaker that crashes more than MaxRestarts
// times within RestartWindow is stopped by protoactor and respawned fresh.
const (
	MaxRestarts   = 10
	RestartWindow = 10 * time.Second
)

// Supervisor holds the state of the supervisor actor. It outlives the actor's
// incarnations, so a restarted supervisor still knows every key; breakers
// are not its protoactor children (see tactor.Spawner), so its own crash
// leaves them running.
type Supervisor struct {
	reg      *registry.Table
	log      *zap.Logger
	restart  actor.SupervisorStrategy
	guardian *guardian
	spawner  *tactor.Spawner
	dispatch *dispatcher
	stoppers sync.WaitGroup // the goroutines of shutdown that stop breakers
	self     *actor.PID     // the supervisor actor, once started
	root     *actor.RootContext
	prefix   string // of every breaker's actor id: the supervisor's id and "/"
	// retiring holds, by actor id, the entries of live breakers whose keys
	// left the table, until they stop (a crash must find its key); breakers
	// read it, hence a sync.Map.
	retiring sync.Map
	waiting  map[string]chan error // breaker actor id -> Unregister reply
	alive    int                   // breakers spawned and not yet stopped for good
	seq      uint64
	stopping bool       // the registry is shutting down
	drained  chan error // Shutdown's reply, once no breaker is alive
	maxKeys  int        // 0: no bound (see SetMaxKeys)
	forget   forgettable
}

// New returns the supervisor of reg's breakers.
func New(reg *registry.Table, log *zap.Logger) *Supervisor {
	s := &Supervisor{
		reg:     reg,
		log:     log.Named("supervisor"),
		restart: actor.NewOneForOneStrategy(MaxRestarts, RestartWindow, actor.DefaultDecider),
		waiting: map[string]chan error{},
	}
	s.guardian = &guardian{}
	s.guardian.sup.Store(s)
	s.spawner = tactor.NewSpawner(s.config, s.guardian, s.reportStopped)
	return s
}

// Props returns the supervisor actor's props.
// Its turns run on a goroutine of the supervisor's own, which Close ends.
func (s *Supervisor) Props() *actor.Props {
	if s.dispatch == nil {
		s.dispatch = newDispatcher()
	}
	return actor.PropsFromProducer(func() actor.Actor { return s }, actor.WithDispatcher(s.dispatch))
}

// Close ends the supervisor's goroutine, once its actor has stopped.
func (s *Supervisor) Close() {
	s.stoppers.Wait()
	if s.dispatch != nil {
		s.dispatch.Stop()
	}
}

// Receive handles registration and breaker termination.
func (s *Supervisor) Receive(ctx actor.Context) {
	switch m := ctx.Message().(type) {
	case *Register:
		m.Reply <- s.register(ctx, m.Entry)
	case *Unregister:
		s.unregister(ctx, m)
	case *Wake:
		s.wake(ctx, m.Config)
	case *stopped:
		s.stopped(ctx, m.id)
	case *Shutdown:
		s.shutdown(ctx, m.Reply)
	case *actor.Started:
		if s.self == nil {
			s.self, s.root = copyOf(ctx.Self()), ctx.ActorSystem().Root
			s.prefix = ctx.Self().Id + "/"
		}
	}
}

// entryOf returns the entry of the breaker with actor id id: its key's,
// while the breaker serves the key or is retiring. Safe for concurrent use.
func (s *Supervisor) entryOf(id string) (*registry.Entry, bool) {
	if key, ok := s.keyOf(id); ok {
		if e, ok := s.reg.Load(key); ok {
			if pid := e.PID(); pid != nil && pid.Id == id {
				return e, true
			}
		}
	}
	if e, ok := s.retiring.Load(id); ok {
		return e.(*registry.Entry), true
	}
	return nil, false
}

// keyOf is the key in a breaker's actor id: prefix, key, "#", sequence.
func (s *Supervisor) keyOf(id string) (string, bool) {
	rest, ok := strings.CutPrefix(id, s.prefix)
	i := strings.LastIndexByte(rest, '#')
	if !ok || i < 0 {
		return "", false
	}
	return rest[:i], true
}

// config is entryOf for a breaker finding its key.
func (s *Supervisor) config(id string) (*tactor.Config, bool) {
	e, ok := s.entryOf(id)
	if !ok {
		return nil, false
	}
	return &e.Config, true
}

// reportStopped is how a breaker tells the supervisor it has stopped for
// good, from its last turn.
func (s *Supervisor) reportStopped(id string) {
	s.root.Send(s.self, &stopped{id: id})
}

func (s *Supervisor) register(ctx actor.Context, e *registry.Entry) error {
	if s.stopping {
		return errs.ErrShutdown
	}
	if _, taken := s.reg.Load(e.Key); taken {
		return errs.ErrDuplicateKey
	}
	if !s.makeRoom() {
		return errs.ErrTooManyKeys
	}
	if !s.reg.Insert(e) {
		return errs.ErrDuplicateKey
	}
	if err := s.spawn(ctx, e); err != nil {
		s.reg.Delete(e.Key)
		return err
	}
	return nil
}

// spawn starts a breaker for e, on the key's mailbox, and points the key at
// it. What waited in the mailbox goes to it after its Started. The key must
// be in the table: the breaker finds it there by its actor id.
func (s *Supervisor) spawn(ctx actor.Context, e *registry.Entry) error {
	s.seq++
	id := s.prefix + e.Key + "#" + strconv.FormatUint(s.seq, 10)
	e.Bind(&actor.PID{Address: ctx.ActorSystem().ProcessRegistry.Address, Id: id})
	pid, err := s.spawner.Spawn(ctx.ActorSystem().Root, &e.Config, id)
	if err != nil {
		e.Bind(nil)
		return fmt.Errorf("tripwire: spawn breaker %q: %w", e.Key, err)
	}
	e.Bind(pid)
	s.alive++
	return nil
}

func (s *Supervisor) unregister(ctx actor.Context, m *Unregister) {
	if s.stopping {
		// Shutdown stops every breaker, and the registry then ends every
		// key it has: this one must still be among them, and its breaker
		// may have stopped already (nothing would answer this).
		m.Reply <- errs.ErrShutdown
		return
	}
	e, ok := s.reg.Delete(m.Key)
	if !ok {
		m.Reply <- errs.ErrUnknownKey
		return
	}
	e.Cell.Retire(errs.ErrShutdown)
	pid := e.PID()
	if pid == nil {
		// Passivated: no breaker to stop.
		s.woke(e)
		e.Mailbox.Discard(errs.ErrShutdown)
		m.Reply <- nil
		return
	}
	s.retiring.Store(pid.Id, e)
	s.waiting[pid.Id] = m.Reply
	ctx.Stop(copyOf(pid))
}

// stopped runs when a breaker actor has stopped for good, and decides the
// key's end, sleep or a fresh breaker (its mailbox holds what came meanwhile).
func (s *Supervisor) stopped(ctx actor.Context, id string) {
	s.alive--
	defer s.checkDrained()
	if reply, ok := s.waiting[id]; ok {
		delete(s.waiting, id)
		defer func() { reply <- nil }()
	}
	if s.stopping {
		// Shutdown: the registry settles every registered key once all
		// have stopped; one unregistered meanwhile is settled here.
		if e, ok := s.retiring.LoadAndDelete(id); ok {
			e := e.(*registry.Entry)
			e.Config.SettleOrphans(e.Cell.StopError())
			e.Mailbox.Discard(e.Cell.StopError())
		}
		return
	}
	e, ok := s.entryOf(id)
	if !ok {
		return
	}
	s.retiring.Delete(id)
	e.Bind(nil)
	current, registered := s.reg.Load(e.Key)
	if !registered || current != e {
		// No breaker follows: calls a crash left in flight end too.
		e.Config.SettleOrphans(e.Cell.StopError())
		e.Mailbox.Discard(e.Cell.StopError())
		return
	}
	passivated := e.Cell.Passivated()
	if passivated {
		if e.Mailbox.Passivate() {
			s.napped(e)
			return // idle: the key stays registered without a breaker
		}
		// A message came while it stopped: the key is not idle after all.
		e.Cell.Wake()
	}
	if !s.respawn(ctx, e) {
		return
	}
	if !passivated {
		s.log.Warn("breaker respawned after too many crashes", zap.String("key", e.Key),
			zap.String("actor", e.PID().Id), zap.Int("restarts", e.Cell.Restarts()))
	}
}

// respawn gives e a new breaker, or ends the key if it cannot.
func (s *Supervisor) respawn(ctx actor.Context, e *registry.Entry) bool {
	if err := s.spawn(ctx, e); err != nil {
		s.log.Error("breaker lost", zap.String("key", e.Key), zap.Error(err))
		s.reg.Delete(e.Key)
		e.Config.SettleOrphans(errs.ErrShutdown)
		e.Mailbox.Discard(errs.ErrShutdown)
		return false
	}
	return true
}

// wake starts a breaker for a passivated key that something was posted to.
// It does nothing if the key is no longer registered (its mailbox was
// discarded) or already has a breaker.
func (s *Supervisor) wake(ctx actor.Context, cfg *tactor.Config) {
	e, registered := s.reg.Load(cfg.Key)
	if s.stopping || !registered || &e.Config != cfg || e.PID() != nil {
		return
	}
	e.Cell.Wake()
	s.woke(e)
	s.respawn(ctx, e)
}

// shutdown stops every breaker for good; reply gets nil once all have
// stopped. Calls get ErrShutdown.
func (s *Supervisor) shutdown(ctx actor.Context, reply chan error) {
	s.stopping = true
	var live []*registry.Entry
	s.reg.Range(func(e *registry.Entry) bool {
		e.Cell.Retire(errs.ErrShutdown)
		if e.PID() != nil {
			live = append(live, e)
		}
		return true
	})
	// A breaker's stopping turns run on the goroutine that posts its Stop:
	// posted from one goroutine per core, a million stop in seconds.
	workers := min(runtime.GOMAXPROCS(0), 1+len(live)/1024)
	for w := range workers {
		s.stoppers.Go(func() {
			for i := w; i < len(live); i += workers {
				// What ctx.Stop(pid) sends, without the process lookup.
				live[i].Mailbox.PostSystemMessage(&actor.Stop{})
			}
		})
	}
	s.drained = reply
	s.checkDrained()
}

func (s *Supervisor) checkDrained() {
	if s.stopping && s.alive == 0 && s.drained != nil {
		s.guardian.sup.Store(nil)
		s.drained <- nil
		s.drained = nil
	}
}

// copyOf is a PID naming the same actor as pid with a cache of its own (a
// cached process would keep a stopped breaker alive through its entry).
func copyOf(pid *actor.PID) *actor.PID { return &actor.PID{Address: pid.Address, Id: pid.Id} }
