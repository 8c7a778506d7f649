package soak

import "fmt"

// Plan is what a run of a Config will do, worked out from it: the shares of
// calls its targets hang and fail, how many of its keys have an actor
// target, and which targets die for the middle third. A config's fields do
// not say it alone: the rates combine, and a run of few keys may have no
// key that is every ActorEvery-th. Run does what Plan says.
type Plan struct {
	// HangShare is the share of calls that hang until released: HangRate.
	// FailShare is the share that fail with tripwiretest.ErrInjected at random. A
	// tripwiretest.Script decides a hang first, and a hung call, once released,
	// succeeds; only the calls that do not hang can fail, so FailShare is
	// FailRate × (1 − HangRate): 21% of calls for 0.7 and 0.7. Both are
	// shares of the calls the run's other faults leave alone: a dead
	// target's calls neither hang nor fail, and a panic or a burst takes
	// the place of a call's fail draw.
	HangShare, FailShare float64
	// Actors is how many keys have an actor target: every ActorEvery-th
	// key, so none if ActorEvery is 0 or more than Keys. The other keys have
	// function targets.
	Actors int
	// Victims are the keys whose targets die for the middle third of the
	// run (KillTargets): the first key with a function target and the first
	// with an actor target, of those there are. None without KillTargets.
	Victims []Victim
}

// Victim is a key whose target dies for the middle third of a run.
type Victim struct {
	Key   string // the key, as Live.Keys names it
	Actor bool   // its target is an actor, else a function
}

// Plan returns what a run of c will do, or the *ConfigError of
// Validate (wrapping ErrInvalidConfig) if c is not valid.
func (c Config) Plan() (Plan, error) {
	if err := c.Validate(); err != nil {
		return Plan{}, err
	}
	p := Plan{HangShare: c.HangRate, FailShare: c.FailRate * (1 - c.HangRate)}
	if c.ActorEvery > 0 {
		p.Actors = c.Keys / c.ActorEvery
	}
	if c.KillTargets {
		for _, i := range victims(c.Keys, c.isActor) {
			p.Victims = append(p.Victims, Victim{Key: keyName(i), Actor: c.isActor(i)})
		}
	}
	return p, nil
}

// keyName is the name of a run's i-th key.
func keyName(i int) string { return fmt.Sprintf("k%04d", i) }

// isActor reports whether the i-th key's target is an actor: every
// ActorEvery-th key's is.
func (c Config) isActor(i int) bool {
	return c.ActorEvery > 0 && i%c.ActorEvery == c.ActorEvery-1
}

// victims are the indexes, in order, of the first of keys keys whose target
// is a function and of the first whose target is an actor, of those there
// are: the targets that die for the middle third of a run.
func victims(keys int, isActor func(int) bool) []int {
	var out []int
	fn, act := false, false
	for i := 0; i < keys && !(fn && act); i++ {
		if a := isActor(i); a && !act || !a && !fn {
			out = append(out, i)
			act, fn = act || a, fn || !a
		}
	}
	return out
}
