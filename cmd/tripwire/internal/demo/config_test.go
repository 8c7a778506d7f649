package demo

import (
	"errors"
	"math"
	"testing"
	"time"
)

func TestConfigValidate(t *testing.T) {
	cases := []struct {
		name   string
		change func(*Config)
		want   error // nil: valid
	}{
		{"the default", func(*Config) {}, nil},
		{"every pattern", func(c *Config) { c.Pattern = Dies }, nil},
		{"one key", func(c *Config) { c.Keys = 1 }, nil},
		{"the most keys", func(c *Config) { c.Keys = MaxKeys }, nil},
		{"a cycle as long as up-at", func(c *Config) { c.Cycle = c.UpAt }, nil},
		{"no latency, no pause", func(c *Config) { c.Latency, c.Interval = 0, 0 }, nil},
		{"unknown pattern", func(c *Config) { c.Pattern = "sometimes" }, ErrUnknownPattern},
		{"empty pattern", func(c *Config) { c.Pattern = "" }, ErrUnknownPattern},
		{"no keys", func(c *Config) { c.Keys = 0 }, ErrInvalidConfig},
		{"too many keys", func(c *Config) { c.Keys = MaxKeys + 1 }, ErrInvalidConfig},
		{"no callers", func(c *Config) { c.Callers = 0 }, ErrInvalidConfig},
		{"too many callers", func(c *Config) { c.Callers = 1001 }, ErrInvalidConfig},
		{"negative interval", func(c *Config) { c.Interval = -1 }, ErrInvalidConfig},
		{"negative latency", func(c *Config) { c.Latency = -1 }, ErrInvalidConfig},
		{"negative down-at", func(c *Config) { c.DownAt = -1 }, ErrInvalidConfig},
		{"negative stagger", func(c *Config) { c.Stagger = -time.Second }, ErrInvalidConfig},
		{"negative cycle", func(c *Config) { c.Cycle = -time.Second }, ErrInvalidConfig},
		{"fail rate over 1", func(c *Config) { c.FailRate = 1.01 }, ErrInvalidConfig},
		{"negative fail rate", func(c *Config) { c.FailRate = -0.1 }, ErrInvalidConfig},
		{"NaN fail rate", func(c *Config) { c.FailRate = math.NaN() }, ErrInvalidConfig},
		{"up before down", func(c *Config) { c.UpAt = c.DownAt - 1 }, ErrInvalidConfig},
		{"a cycle shorter than up-at", func(c *Config) { c.Cycle = c.UpAt - 1 }, ErrInvalidConfig},
		{"a remote node", func(c *Config) { c.Pattern, c.Remote = Remote, "127.0.0.1:7070" }, nil},
		{"remote without an address", func(c *Config) { c.Pattern = Remote }, ErrInvalidConfig},
		{"an address with another pattern", func(c *Config) { c.Remote = "127.0.0.1:7070" }, ErrInvalidConfig},
		{"remote address without a port", func(c *Config) { c.Pattern, c.Remote = Remote, "127.0.0.1" }, ErrInvalidConfig},
		{"remote address with port 0", func(c *Config) { c.Pattern, c.Remote = Remote, "127.0.0.1:0" }, ErrInvalidConfig},
		{"remote address without a host", func(c *Config) { c.Pattern, c.Remote = Remote, ":7070" }, ErrInvalidConfig},
		{"remote address with a port too big", func(c *Config) { c.Pattern, c.Remote = Remote, "127.0.0.1:70000" }, ErrInvalidConfig},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			// Given the default config with one change
			cfg := DefaultConfig()
			c.change(&cfg)
			// When validated
			err := cfg.Validate()
			// Then it is valid, or the error is the expected sentinel
			if c.want == nil && err != nil || c.want != nil && !errors.Is(err, c.want) {
				t.Fatalf("Validate() = %v, want %v", err, c.want)
			}
		})
	}
}

func TestParsePattern(t *testing.T) {
	// Given every pattern's name; Then it parses back to the pattern
	for _, p := range Patterns {
		if got, err := ParsePattern(string(p)); err != nil || got != p {
			t.Errorf("ParsePattern(%q) = %q, %v", p, got, err)
		}
	}
	// Given a name that is none of them; Then the error is ErrUnknownPattern and lists them
	if _, err := ParsePattern("Flaky"); !errors.Is(err, ErrUnknownPattern) || err.Error() == ErrUnknownPattern.Error() {
		t.Fatalf("ParsePattern(Flaky) = %v", err)
	}
}
