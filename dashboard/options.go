package dashboard

import (
	"context"
	"fmt"
	"net/http"
	"time"

	"github.com/tripwire-go/tripwire"
)

// Option configures a Handler at New.
type Option interface {
	apply(*config) error
}

type config struct {
	authorize func(*http.Request) bool // nil: read-only
	metrics   http.Handler             // nil: no /metrics
	title     string
	refresh   time.Duration
	crash     func(ctx context.Context, key string) error // nil: no crash action
}

type optionFunc func(*config) error

func (f optionFunc) apply(c *config) error { return f(c) }

// WithRefresh's default and bounds.
const (
	defaultRefresh = time.Second
	minRefresh     = 10 * time.Millisecond
	maxRefresh     = time.Minute
)

// WithControl turns the control actions on — force open, force close,
// reset, probe now, and crash if WithCrash offers it — for the requests
// authorize accepts: the page shows their buttons only to those (and asks
// before it forces a circuit or crashes a breaker), and a POST it refuses
// is answered 403. Without it the handler is read-only (every POST is 403).
// authorize runs on the request's goroutine; a POST from a page of another
// origin is refused before it is asked.
func WithControl(authorize func(*http.Request) bool) Option {
	return optionFunc(func(c *config) error {
		if authorize == nil {
			return fmt.Errorf("%w: WithControl(nil)", tripwire.ErrInvalidOption)
		}
		c.authorize = authorize
		return nil
	})
}

// WithMetrics serves h at /metrics (a Prometheus handler, say) and links
// it from the page. Without it /metrics is 404.
func WithMetrics(h http.Handler) Option {
	return optionFunc(func(c *config) error {
		if h == nil {
			return fmt.Errorf("%w: WithMetrics(nil)", tripwire.ErrInvalidOption)
		}
		c.metrics = h
		return nil
	})
}

// WithTitle names the page (default "Tripwire").
func WithTitle(title string) Option {
	return optionFunc(func(c *config) error {
		if title == "" || len(title) > 200 {
			return fmt.Errorf("%w: WithTitle wants 1 to 200 bytes, not %d", tripwire.ErrInvalidOption, len(title))
		}
		c.title = title
		return nil
	})
}

// WithRefresh sets how often event streams look at the keys they show
// (default 1 s; 10 ms to 1 min). Each refresh asks the breakers of the keys
// shown, about 5 µs a key.
func WithRefresh(d time.Duration) Option {
	return optionFunc(func(c *config) error {
		if d < minRefresh || d > maxRefresh {
			return fmt.Errorf("%w: WithRefresh(%v) is outside %v to %v", tripwire.ErrInvalidOption, d, minRefresh, maxRefresh)
		}
		c.refresh = d
		return nil
	})
}

// WithCrash offers the crash action, a fault injection, beside those of
// WithControl (and to the same requests): it calls crash with the
// request's context and the key — a func that calls tripwiretest.Crash(ctx,
// reg, key), which makes the key's breaker panic and restart, or a chaos
// harness's own that counts the crashes it did (tripwire serve -soak
// does). Without it the handler offers no crash, and a POST of one is
// answered 403. Its errors are answered as the registry's would be.
func WithCrash(crash func(ctx context.Context, key string) error) Option {
	return optionFunc(func(c *config) error {
		if crash == nil {
			return fmt.Errorf("%w: WithCrash(nil)", tripwire.ErrInvalidOption)
		}
		c.crash = crash
		return nil
	})
}
