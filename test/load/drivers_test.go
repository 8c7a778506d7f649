package load

import (
	"math/rand/v2"
	"sync"
	"time"

	"github.com/tripwire-go/tripwire/test/chaos"
)

// chaosDrivers change the scripts while the load runs: release hung calls,
// make a random key panic once or fail ten times in a row, and kill one
// function target and one actor target for the middle third of the run.
func (h *harness) chaosDrivers() (stop func()) {
	rng := rand.New(rand.NewPCG(1, 2))
	var mu sync.Mutex // rng
	pick := func() *chaos.Script {
		mu.Lock()
		defer mu.Unlock()
		return h.scripts[rng.IntN(len(h.scripts))]
	}
	stops := []func(){
		h.every(releaseEvery, func() {
			for _, s := range h.scripts {
				s.Release()
			}
		}),
		h.every(panicEvery, func() { h.set(pick().PanicNext(1)) }),
		h.every(burstEvery, func() { h.set(pick().FailNext(10)) }),
		h.deathAndRevival(),
	}
	return func() {
		for _, s := range stops {
			s()
		}
	}
}

// deathAndRevival kills the first function target and the first actor target
// a third into the run and brings them back at two thirds.
func (h *harness) deathAndRevival() (stop func()) {
	fn, act := -1, -1
	for i := range h.keys {
		if h.isActor[i] && act < 0 {
			act = i
		}
		if !h.isActor[i] && fn < 0 {
			fn = i
		}
	}
	quit, done := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(done)
		third := time.NewTimer(h.cfg.duration / 3)
		defer third.Stop()
		select {
		case <-quit:
			return
		case <-third.C:
		}
		for _, i := range []int{fn, act} {
			if i >= 0 {
				h.scripts[i].Die()
			}
		}
		third.Reset(h.cfg.duration / 3)
		select {
		case <-quit:
		case <-third.C:
		}
		for _, i := range []int{fn, act} {
			if i < 0 {
				continue
			}
			h.scripts[i].Revive()
			if h.isActor[i] {
				if _, err := h.scripts[i].Spawn(h.sys, h.keys[i]); err != nil {
					h.t.Errorf("respawn %s: %v", h.keys[i], err)
				}
			}
		}
	}()
	return func() { close(quit); <-done }
}
