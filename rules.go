package tripwire

import (
	"sync"
	"time"
	"unsafe"

	tactor "github.com/tripwire-go/tripwire/internal/actor"
	"github.com/tripwire-go/tripwire/internal/borrowed"
	"github.com/tripwire-go/tripwire/state"
)

// maxInterned bounds the distinct settings a registry shares between keys;
// past it the cache starts again (keys keep the Rules they have).
const maxInterned = 4096

// rulesCache shares one immutable tactor.Rules between the keys registered
// with equal settings — a factory usually returns the same settings for
// every key — so a key costs the bytes of its settings once, not per key.
// Functions (IsFailure, Classify) are equal when they are the same function
// value: the same closure, not merely the same code.
type rulesCache struct {
	mu sync.Mutex
	m  map[rulesKey]*tactor.Rules
}

type rulesKey struct {
	circuit     state.Settings
	callTimeout time.Duration
	maxInFlight int
	watch       bool
	ignoreDown  bool
	idle        time.Duration
	// The functions' identities (borrowed.FuncID): the cache keeps the
	// functions alive with their Rules, so an identity cannot be reused for
	// another function while it is a key.
	isFailure unsafe.Pointer
	classify  unsafe.Pointer
}

// rules returns the shared Rules of s (with its defaults filled in), for a
// target watched or not.
func (c *rulesCache) rules(s Settings, watch bool) *tactor.Rules {
	k := rulesKey{
		circuit: s.circuit(), callTimeout: s.CallTimeout, maxInFlight: s.MaxInFlight,
		watch: watch, ignoreDown: s.IgnoreTargetDown, idle: s.IdleTimeout,
		isFailure: borrowed.FuncID(&s.IsFailure), classify: borrowed.FuncID(&s.Classify),
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if r, ok := c.m[k]; ok {
		return r
	}
	if c.m == nil || len(c.m) >= maxInterned {
		c.m = make(map[rulesKey]*tactor.Rules)
	}
	r := &tactor.Rules{
		Circuit: k.circuit, CallTimeout: s.CallTimeout, Classify: s.classifier(),
		IsFailure: s.IsFailure, Verdicts: s.Classify, IgnoreTargetDown: s.IgnoreTargetDown,
		MaxInFlight: s.MaxInFlight, WatchTarget: watch, IdleTimeout: s.IdleTimeout,
	}
	c.m[k] = r
	return r
}
