package remotekeepalive

import (
	"fmt"
	"time"
)

// Config is the keepalive of one node, on both its client side (the
// connections it dials) and its server side (the connections it accepts).
// The zero value is the defaults.
type Config struct {
	// Time is how long a connection may be silent (nothing received)
	// before this side pings its peer. At least MinClientTime. Default 10 s.
	Time time.Duration
	// Timeout is how long a ping, or data this side sent, may go
	// unanswered before the connection is closed (it is also the socket's
	// TCP_USER_TIMEOUT), and how long one connection attempt may take.
	// At least MinTimeout. Default 5 s.
	Timeout time.Duration
	// MinTime is the server's enforcement policy: a peer that pings more
	// often than this is disconnected. At most Time, so that nodes with the
	// same Config accept each other's pings. Default 5 s.
	MinTime time.Duration
}

// MinClientTime is the shortest ping interval gRPC's client side honours;
// it raises a shorter one to this, so Options refuses it instead.
const MinClientTime = 10 * time.Second

// MinTimeout is the shortest Timeout: under it, a ping's answer delayed by
// a busy link or a peer's pause closes a healthy connection (and the
// socket's TCP_USER_TIMEOUT, in milliseconds, would be the kernel's).
const MinTimeout = time.Second

// The defaults of a zero Config field.
const (
	DefaultTime    = 10 * time.Second
	DefaultTimeout = 5 * time.Second
	DefaultMinTime = 5 * time.Second
)

// withDefaults returns c with its zero fields set to the defaults, or
// ErrInvalidConfig.
func (c Config) withDefaults() (Config, error) {
	if c.Time < 0 || c.Timeout < 0 || c.MinTime < 0 {
		return c, fmt.Errorf("%w: negative duration in %+v", ErrInvalidConfig, c)
	}
	if c.Time == 0 {
		c.Time = DefaultTime
	}
	if c.Timeout == 0 {
		c.Timeout = DefaultTimeout
	}
	if c.MinTime == 0 {
		c.MinTime = min(DefaultMinTime, c.Time)
	}
	switch {
	case c.Timeout < MinTimeout:
		return c, fmt.Errorf("%w: Timeout %v is under %v: healthy connections would be closed", ErrInvalidConfig, c.Timeout, MinTimeout)
	case c.Time < MinClientTime:
		return c, fmt.Errorf("%w: Time %v is under gRPC's minimum ping interval %v", ErrInvalidConfig, c.Time, MinClientTime)
	case c.MinTime > c.Time:
		return c, fmt.Errorf("%w: MinTime %v exceeds Time %v: the servers would disconnect their peers' pings", ErrInvalidConfig, c.MinTime, c.Time)
	}
	return c, nil
}
