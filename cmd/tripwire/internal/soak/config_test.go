package soak

import (
	"context"
	"errors"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/tripwire-go/tripwire"
)

func TestDefaultsAreValid(t *testing.T) {
	if err := Defaults().Validate(); err != nil {
		t.Fatalf("Defaults: %v", err)
	}
}

func TestValidateNamesTheFieldOutOfRange(t *testing.T) {
	cases := []struct {
		field string
		spoil func(c *Config)
	}{
		{"Callers", func(c *Config) { c.Callers = -1 }},
		{"Askers", func(c *Config) { c.Askers = -1 }},
		{"Callers+Askers", func(c *Config) { c.Callers, c.Askers = 0, 0 }},
		{"Keys", func(c *Config) { c.Keys = 0 }},
		{"ActorEvery", func(c *Config) { c.ActorEvery = -1 }},
		{"Duration", func(c *Config) { c.Duration = 0 }},
		{"Think", func(c *Config) { c.Think = -time.Millisecond }},
		{"FailRate", func(c *Config) { c.FailRate = 1.5 }},
		{"FailRate", func(c *Config) { c.FailRate = math.NaN() }},
		{"HangRate", func(c *Config) { c.HangRate = -0.1 }},
		{"ReleaseEvery", func(c *Config) { c.ReleaseEvery = 0 }},
		{"CrashEvery", func(c *Config) { c.CrashEvery = -time.Millisecond }},
		{"PanicEvery", func(c *Config) { c.PanicEvery = -time.Millisecond }},
		{"BurstEvery", func(c *Config) { c.BurstEvery = -time.Millisecond }},
		{"ProgressEvery", func(c *Config) { c.ProgressEvery = -time.Second }},
		{"MustSee", func(c *Config) { c.MustSee = []Answer{OK, NumAnswers} }},
		{"Options", func(c *Config) { c.Options = []tripwire.Option{tripwire.WithLogger(nil), nil} }},
	}
	for _, c := range cases {
		// Given the defaults with one field out of range
		cfg := Defaults()
		c.spoil(&cfg)
		// When it is validated, Then the error is ErrInvalidConfig and names the field
		err := cfg.Validate()
		var ce *ConfigError
		if !errors.Is(err, ErrInvalidConfig) || !errors.As(err, &ce) || ce.Field != c.field ||
			!strings.Contains(err.Error(), c.field+" = ") {
			t.Errorf("%s: %v", c.field, err)
		}
	}
	// Given the edges of each range, Then they are valid
	edge := Defaults()
	edge.Callers, edge.Askers, edge.ActorEvery, edge.Think = 0, 1, 0, 0
	edge.FailRate, edge.HangRate, edge.CrashEvery, edge.PanicEvery, edge.BurstEvery = 1, 0, 0, 0, 0
	if err := edge.Validate(); err != nil {
		t.Fatalf("edges: %v", err)
	}
}

func TestRunRefusesBadInputWithoutStarting(t *testing.T) {
	bad := Defaults()
	bad.Keys = 0
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	cases := []struct {
		name string
		ctx  context.Context
		cfg  Config
		want error
	}{
		{"nil context", nil, Defaults(), ErrNilContext},
		{"invalid config", context.Background(), bad, ErrInvalidConfig},
		{"context done", cancelled, Defaults(), context.Canceled},
	}
	for _, c := range cases {
		// Given bad input, When Run is called, Then it returns the sentinel at once
		begin := time.Now()
		rep, err := Run(c.ctx, c.cfg)
		if !errors.Is(err, c.want) || rep.Calls != 0 || time.Since(begin) > time.Second {
			t.Errorf("%s: %v, %d calls after %v", c.name, err, rep.Calls, time.Since(begin))
		}
	}
}
