package soak

import (
	"context"
	"errors"
	"math"
	"slices"
	"sync"
	"testing"
	"testing/synctest"

	"github.com/tripwire-go/tripwire/tripwiretest"
)

func TestPlanSaysWhatARunOfFewKeysHas(t *testing.T) {
	fn := func(key string) Victim { return Victim{Key: key} }
	act := func(key string) Victim { return Victim{Key: key, Actor: true} }
	cases := []struct {
		name        string
		keys, every int
		kill        bool
		actors      int
		victims     []Victim
	}{
		{"the defaults", 16, 8, true, 2, []Victim{fn("k0000"), act("k0007")}},
		{"one more than a period", 9, 8, true, 1, []Victim{fn("k0000"), act("k0007")}},
		{"fewer keys than the period", 4, 100, true, 0, []Victim{fn("k0000")}},
		{"one key", 1, 8, true, 0, []Victim{fn("k0000")}},
		{"one key, an actor", 1, 1, true, 1, []Victim{act("k0000")}},
		{"every key an actor", 3, 1, true, 3, []Victim{act("k0000")}},
		{"no actor", 16, 0, true, 0, []Victim{fn("k0000")}},
		{"nothing killed", 16, 8, false, 2, nil},
	}
	for _, c := range cases {
		// Given keys with every Nth an actor target, killed or not
		cfg := Defaults()
		cfg.Keys, cfg.ActorEvery, cfg.KillTargets = c.keys, c.every, c.kill
		// When it is planned
		p, err := cfg.Plan()
		// Then it has the actor targets those keys have, and kills the
		// first function and the first actor target there are
		if err != nil || p.Actors != c.actors || !slices.Equal(p.Victims, c.victims) {
			t.Errorf("%s: Plan() = %+v, %v; want %d actors, victims %v", c.name, p, err, c.actors, c.victims)
		}
	}
}

func TestPlanIsWhatTheRunSetsUp(t *testing.T) {
	for _, keys := range []int{1, 4, 17} {
		// Given a config of keys keys, every 8th an actor target
		cfg := Defaults()
		cfg.Keys = keys
		p, err := cfg.Plan()
		if err != nil {
			t.Fatalf("Plan: %v", err)
		}
		// When a run is set up
		h, err := newHarness(cfg)
		if err != nil {
			t.Fatalf("newHarness: %v", err)
		}
		actors := 0
		for _, a := range h.isActor {
			if a {
				actors++
			}
		}
		var dying []Victim
		for _, i := range victims(len(h.keys), func(i int) bool { return h.isActor[i] }) {
			dying = append(dying, Victim{Key: h.keys[i], Actor: h.isActor[i]})
		}
		h.shutdown()
		// Then it has the actor targets the plan says, and would kill its victims
		if actors != p.Actors || !slices.Equal(dying, p.Victims) {
			t.Errorf("%d keys: the run has %d actor targets and kills %v; the plan says %d and %v", keys, actors, dying, p.Actors, p.Victims)
		}
	}
}

func TestPlanRefusesAnInvalidConfig(t *testing.T) {
	for _, rate := range []float64{-0.1, 1.5, math.NaN(), math.Inf(1)} {
		// Given a rate that is no share of calls
		cfg := Defaults()
		cfg.HangRate = rate
		// When it is planned, Then the error names it
		_, err := cfg.Plan()
		var ce *ConfigError
		if !errors.Is(err, ErrInvalidConfig) || !errors.As(err, &ce) || ce.Field != "HangRate" {
			t.Errorf("HangRate %v: %v", rate, err)
		}
	}
}

func TestPlansSharesAreWhatTheScriptsDo(t *testing.T) {
	for _, rates := range [][2]float64{{0.7, 0.7}, {0.1, 0.01}, {1, 0.5}, {0.5, 0}, {0, 0.3}} {
		synctest.Test(t, func(t *testing.T) {
			// Given a plan for a fail rate and a hang rate, and a script of those rates
			cfg := Defaults()
			cfg.FailRate, cfg.HangRate = rates[0], rates[1]
			p, err := cfg.Plan()
			if err != nil {
				t.Fatalf("Plan: %v", err)
			}
			s := tripwiretest.New(tripwiretest.Seed(7))
			if err := errors.Join(s.FailRate(cfg.FailRate), s.HangRate(cfg.HangRate)); err != nil {
				t.Fatal(err)
			}
			call := s.Wrap(nil)
			// When many calls are made at once, and those that hang released
			const n = 2000
			var wg sync.WaitGroup
			for range n {
				wg.Go(func() { _, _ = call(context.Background(), 1) })
			}
			synctest.Wait() // every call has answered or hangs
			s.Release()
			wg.Wait()
			// Then the script hung and failed the shares of calls the plan says
			c := s.Counts()
			hung, failed := float64(c.Hangs)/n, float64(c.Failures)/n
			if math.Abs(hung-p.HangShare) > 0.03 || math.Abs(failed-p.FailShare) > 0.03 {
				t.Errorf("fail %v, hang %v: the script hung %.3f and failed %.3f of calls; the plan says %.3f and %.3f",
					cfg.FailRate, cfg.HangRate, hung, failed, p.HangShare, p.FailShare)
			}
		})
	}
}
