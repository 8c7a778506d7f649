package actor

import (
	"github.com/asynkron/protoactor-go/actor"
)

// Spawner spawns the breakers of one registry, all with one Props (a Props
// a key would cost a few hundred bytes each), at the root under protoactor's
// guardian for the registry's strategy (an actor's set of children costs a
// hundred bytes a child and never shrinks). A breaker learns its key from
// its actor id when it starts, through lookup, which must know the id from
// before Spawn until the actor has stopped for good (a crash-restart starts
// a fresh breaker the same way); it reports its stop through stopped.
type Spawner struct {
	props   *actor.Props
	lookup  func(id string) (*Config, bool)
	stopped func(id string)
	next    *Mailbox // the mailbox of the breaker Spawn is spawning
}

// NewSpawner returns a spawner whose breakers find their keys by lookup,
// are supervised by strategy, and report their stop for good to stopped.
func NewSpawner(lookup func(id string) (*Config, bool), strategy actor.SupervisorStrategy, stopped func(id string)) *Spawner {
	s := &Spawner{lookup: lookup, stopped: stopped}
	s.props = actor.PropsFromProducer(func() actor.Actor { return &breaker{spawner: s} },
		// Only called inside Spawn, on its goroutine: protoactor makes an
		// actor's mailbox once, when it spawns it.
		actor.WithMailbox(func() actor.Mailbox { return s.next }),
		actor.WithGuardian(strategy))
	return s
}

// Spawn starts a breaker of cfg with actor id id (lookup finds it already)
// on cfg's mailbox; one actor spawns (the supervisor): not concurrent.
func (s *Spawner) Spawn(root *actor.RootContext, cfg *Config, id string) (*actor.PID, error) {
	s.next = &cfg.Mailbox
	defer func() { s.next = nil }()
	return root.SpawnNamed(s.props, id)
}
