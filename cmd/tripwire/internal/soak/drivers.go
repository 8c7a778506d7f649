package soak

import (
	"sync"
	"time"

	"github.com/tripwire-go/tripwire/tripwiretest"
)

// chaosDrivers change the scripts while the load runs: release hung calls,
// make a random key panic once or fail BurstLen times in a row, and kill
// one function target and one actor target for the middle third of the run.
func (h *harness) chaosDrivers() (stop func()) {
	rng := h.rng(2, 1)
	var mu sync.Mutex // rng
	pick := func() *tripwiretest.Script {
		mu.Lock()
		defer mu.Unlock()
		return h.scripts[rng.IntN(len(h.scripts))]
	}
	stops := []func(){
		every(h.cfg.ReleaseEvery, func() {
			for _, s := range h.scripts {
				s.Release()
			}
		}),
	}
	if h.cfg.PanicEvery > 0 {
		stops = append(stops, every(h.cfg.PanicEvery, func() { h.set(pick().PanicNext(1)) }))
	}
	if h.cfg.BurstEvery > 0 {
		stops = append(stops, every(h.cfg.BurstEvery, func() { h.set(pick().FailNext(BurstLen)) }))
	}
	if h.cfg.KillTargets {
		stops = append(stops, h.deathAndRevival())
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
	dying := victims(len(h.keys), func(i int) bool { return h.isActor[i] }) // as Config.Plan says
	quit, done := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(done)
		third := time.NewTimer(h.cfg.Duration / 3)
		defer third.Stop()
		select {
		case <-quit:
			return
		case <-third.C:
		}
		for _, i := range dying {
			h.scripts[i].Die()
			h.live.down[i].Store(true)
		}
		third.Reset(h.cfg.Duration / 3)
		select {
		case <-quit:
		case <-third.C:
		}
		for _, i := range dying {
			h.revive(i)
		}
	}()
	return func() { close(quit); <-done }
}

// revive brings the i-th key's target back; an actor target is spawned again
// under its name, which its PID names.
func (h *harness) revive(i int) {
	h.scripts[i].Revive()
	if h.isActor[i] {
		if _, err := h.scripts[i].Spawn(h.sys, h.keys[i]); err != nil {
			h.problem("respawn %s: %v", h.keys[i], err)
			return
		}
	}
	h.live.down[i].Store(false)
}
