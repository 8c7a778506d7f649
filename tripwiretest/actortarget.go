package tripwiretest

import (
	"context"
	"fmt"
	"time"

	"github.com/asynkron/protoactor-go/actor"
)

// Props returns the props of an actor target that follows the script: it
// answers each request with ctx.Respond, with inner's value (nil inner: the
// message itself), or with an error value for a failure (inner's error, or
// one wrapping ErrInjected or ErrDown), which Tripwire counts as a failure.
// inner runs on the actor's goroutine with context.Background(). A request
// whose message is an Op carries it out instead.
//
// The actor never blocks: a delayed or hung request is answered later from
// the actor's mailbox, so other requests go on meanwhile. A panic restarts
// the actor under its supervisor (protoactor's default stops it after 10
// restarts in 10 s) and the request gets no answer. After Die the actor
// answers what it already has with ErrDown and stops itself, so later calls
// get tripwire.ErrTargetDown, or tripwire.ErrOpen once the breaker, which
// watches its actor target unless Settings.IgnoreTargetDown, has opened.
func (s *Script) Props(inner Func) *actor.Props {
	if inner == nil {
		inner = echo
	}
	return actor.PropsFromProducer(func() actor.Actor { return &target{s: s, inner: inner} })
}

// Spawn starts an actor target that follows the script and answers with
// the message itself, under name in system. Register it with
// tripwire.ActorTarget(pid).
func (s *Script) Spawn(system *actor.ActorSystem, name string) (*actor.PID, error) {
	if system == nil || name == "" {
		return nil, fmt.Errorf("%w: Spawn needs an actor system and a name", ErrInvalid)
	}
	pid, err := system.Root.SpawnNamed(s.Props(nil), name)
	if err == nil {
		// Known now, not only once it has processed Started: a Die right
		// after Spawn must wait for it too.
		s.addActor(system, pid)
	}
	return pid, err
}

// Die makes the script's targets die. A function target answers every later
// call with an error wrapping ErrDown, until Revive. Every running actor
// target answers the requests it already has with such an error and stops
// itself; Die returns once they have stopped, and later calls to them get
// tripwire.ErrTargetDown (or tripwire.ErrOpen: see Props). Running means spawned by Spawn, or from Props and
// started; an actor target that starts while the script is dead answers its
// first request with ErrDown and stops itself.
func (s *Script) Die() {
	s.mu.Lock()
	s.dead = true
	running := make([]*actorEntry, 0, len(s.actors))
	for _, e := range s.actors {
		running = append(running, e)
	}
	s.mu.Unlock()
	for _, e := range running {
		e.sys.Root.Send(e.pid, &die{})
	}
	for _, e := range running {
		<-e.stopped
	}
}

// actorKey names one actor target; ids are unique within a system.
type actorKey struct {
	sys *actor.ActorSystem
	id  string
}

type actorEntry struct {
	sys     *actor.ActorSystem
	pid     *actor.PID
	stopped chan struct{} // closed when the actor has stopped
}

func (s *Script) addActor(sys *actor.ActorSystem, pid *actor.PID) {
	s.mu.Lock()
	defer s.mu.Unlock()
	k := actorKey{sys, pid.Id}
	if _, ok := s.actors[k]; ok {
		return // restarted: the same actor
	}
	if s.actors == nil {
		s.actors = map[actorKey]*actorEntry{}
	}
	s.actors[k] = &actorEntry{sys: sys, pid: pid, stopped: make(chan struct{})}
}

func (s *Script) removeActor(sys *actor.ActorSystem, pid *actor.PID) {
	s.mu.Lock()
	defer s.mu.Unlock()
	k := actorKey{sys, pid.Id}
	if e, ok := s.actors[k]; ok {
		close(e.stopped)
		delete(s.actors, k)
	}
}

// target is the actor behind Props.
type target struct {
	s     *Script
	inner Func
	dying bool
}

// later is a request answered after a delay or a hang.
type later struct {
	to  *actor.PID
	msg any
	f   fate
}

// die tells an actor target to stop itself.
type die struct{}

func (a *target) Receive(ctx actor.Context) {
	switch m := ctx.Message().(type) {
	case *actor.Started:
		a.s.addActor(ctx.ActorSystem(), ctx.Self())
	case *actor.Stopped:
		a.s.removeActor(ctx.ActorSystem(), ctx.Self())
	case *actor.Restarting, *actor.Stopping, *actor.ReceiveTimeout, *actor.Terminated:
	case *die:
		a.stop(ctx)
	case *later:
		a.answer(ctx, m.to, m.msg, m.f)
	case *opAnswer:
		a.reply(ctx, m.to, m.reply)
	default:
		a.request(ctx, m)
	}
}

func (a *target) request(ctx actor.Context, msg any) {
	to, self, root := ctx.Sender(), ctx.Self(), ctx.ActorSystem().Root
	resume := func(f fate) {
		after(f.delay, func() { root.Send(self, &later{to: to, msg: msg, f: f}) })
	}
	f := a.s.enter(resume)
	switch {
	case f.parked:
	case f.kind != down && f.delay > 0:
		resume(f)
	default:
		a.answer(ctx, to, msg, f)
	}
}

// answer replies to a request whose time has come, or carries out its Op.
func (a *target) answer(ctx actor.Context, to *actor.PID, msg any, f fate) {
	var reply any
	err := a.s.outcome(f)
	o, isOp := opOf(msg)
	switch {
	case err != nil:
		reply = err
	case isOp:
		a.do(ctx, to, o, f.n)
		return
	default:
		if v, err := a.inner(context.Background(), msg); err != nil {
			reply = err
		} else {
			reply = v
		}
	}
	if f.kind == down {
		a.stop(ctx)
	}
	a.reply(ctx, to, reply)
}

// reply sends a request's answer to its sender to.
func (a *target) reply(ctx actor.Context, to *actor.PID, v any) {
	if to == nil {
		return // sent without a sender: nobody to answer
	}
	if ctx.Sender() == to {
		ctx.Respond(v)
	} else {
		ctx.Send(to, v)
	}
}

// stop makes the actor stop itself once the requests already in its mailbox
// are answered (with ErrDown, while the script is dead).
func (a *target) stop(ctx actor.Context) {
	if !a.dying {
		a.dying = true
		ctx.Poison(ctx.Self())
	}
}

// after runs f after d, at once if d is not positive.
func after(d time.Duration, f func()) {
	if d <= 0 {
		f()
		return
	}
	time.AfterFunc(d, f)
}
