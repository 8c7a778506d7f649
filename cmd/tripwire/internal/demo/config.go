package demo

import (
	"fmt"
	"time"

	"github.com/tripwire-go/tripwire"
)

// MaxKeys bounds Config.Keys.
const MaxKeys = 1000

// Config is one demo: its keys, their dependency, and the callers.
type Config struct {
	Keys     int           // keys to register, named dep-01, dep-02, ...
	Pattern  Pattern       // how the dependency misbehaves
	Callers  int           // concurrent callers per key
	Interval time.Duration // a caller's pause between calls
	Latency  time.Duration // the dependency's latency when healthy
	FailRate float64       // Flaky: share of calls that fail, 0..1
	DownAt   time.Duration // DownUp, Slow, Dies: when the dependency goes bad
	UpAt     time.Duration // ... and when it recovers
	Cycle    time.Duration // > 0: the DownAt..UpAt window repeats every Cycle
	Stagger  time.Duration // key i's window starts i*Stagger later
	Seed     uint64        // Flaky's random failures
	Remote   string        // with Pattern Remote: host:port of the Node to call
	Settings tripwire.Settings
}

// DefaultConfig is the demo's built-in default: three keys on a dependency
// that goes down for three seconds.
func DefaultConfig() Config {
	return Config{
		Keys: 3, Pattern: DownUp, Callers: 4, Interval: 20 * time.Millisecond,
		Latency: 2 * time.Millisecond, FailRate: 0.3,
		DownAt: 1500 * time.Millisecond, UpAt: 4500 * time.Millisecond,
		Stagger: 500 * time.Millisecond,
		Settings: tripwire.Settings{
			Threshold: 3, OpenTimeout: time.Second, CallTimeout: 200 * time.Millisecond,
		},
	}
}

// Validate returns an error wrapping ErrInvalidConfig or ErrUnknownPattern
// for the first field out of range.
func (c Config) Validate() error {
	if c.Pattern == Remote || c.Remote != "" {
		if err := c.validateRemote(); err != nil {
			return err
		}
	} else if _, err := ParsePattern(string(c.Pattern)); err != nil {
		return err
	}
	bad := func(format string, args ...any) error {
		return fmt.Errorf("%w: "+format, append([]any{ErrInvalidConfig}, args...)...)
	}
	switch {
	case c.Keys < 1 || c.Keys > MaxKeys:
		return bad("keys %d not in 1..%d", c.Keys, MaxKeys)
	case c.Callers < 1 || c.Callers > 1000:
		return bad("callers %d not in 1..1000", c.Callers)
	case c.Interval < 0, c.Latency < 0, c.DownAt < 0, c.UpAt < 0, c.Cycle < 0, c.Stagger < 0:
		return bad("durations must not be negative")
	case !(c.FailRate >= 0 && c.FailRate <= 1):
		return bad("fail rate %v not in 0..1", c.FailRate)
	case c.UpAt < c.DownAt:
		return bad("up-at %v before down-at %v", c.UpAt, c.DownAt)
	case c.Cycle > 0 && c.Cycle < c.UpAt:
		return bad("cycle %v shorter than up-at %v", c.Cycle, c.UpAt)
	}
	return nil
}

// KeyName is the name of the i-th key (from 0).
func KeyName(i int) string { return fmt.Sprintf("dep-%02d", i+1) }
