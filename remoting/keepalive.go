package remoting

import (
	"fmt"
	"time"
)

// Keepalive is the gRPC keepalive of one node, on both its client side
// (the connections it dials) and its server side (the connections it
// accepts). The zero value is the defaults, keepalive on.
type Keepalive struct {
	// Off runs without keepalive, as protoactor does: a connection that
	// went silent (a partition that drops packets) then stays stuck in TCP
	// retransmission for up to about a minute after the network heals. The
	// server still accepts its peers' pings every MinTime.
	Off bool
	// Time is how long a connection may be silent (nothing received)
	// before this side pings its peer. At least MinClientTime. Default 10 s.
	Time time.Duration
	// Timeout is how long a ping, or data this side sent, may go
	// unanswered before the connection is closed (it is also the socket's
	// TCP_USER_TIMEOUT). At least MinTimeout. Default 5 s.
	Timeout time.Duration
	// MinTime is the server's enforcement policy: a peer that pings more
	// often than this is disconnected. At most Time, so that nodes with the
	// same Config accept each other's pings. Default 5 s.
	MinTime time.Duration
}

// MinClientTime is the shortest ping interval gRPC's client side honours;
// it raises a shorter one to this, so Options refuses it instead.
const MinClientTime = 10 * time.Second

// MinTimeout is the shortest Keepalive.Timeout: under it, a ping's answer
// delayed by a busy link or a peer's pause closes a healthy connection (and
// the socket's TCP_USER_TIMEOUT, in milliseconds, would be the kernel's).
const MinTimeout = time.Second

// The defaults of a zero Keepalive field.
const (
	DefaultKeepaliveTime    = 10 * time.Second
	DefaultKeepaliveTimeout = 5 * time.Second
	DefaultKeepaliveMinTime = 5 * time.Second
)

// withDefaults returns k with its zero fields set to the defaults, or
// ErrInvalidConfig.
func (k Keepalive) withDefaults() (Keepalive, error) {
	if k.Time < 0 || k.Timeout < 0 || k.MinTime < 0 {
		return k, fmt.Errorf("%w: negative duration in Keepalive %+v", ErrInvalidConfig, k)
	}
	if k.Off {
		if k.Time != 0 || k.Timeout != 0 {
			return k, fmt.Errorf("%w: Keepalive is Off but has a Time or Timeout", ErrInvalidConfig)
		}
		if k.MinTime == 0 {
			k.MinTime = DefaultKeepaliveMinTime
		}
		return k, nil
	}
	if k.Time == 0 {
		k.Time = DefaultKeepaliveTime
	}
	if k.Timeout == 0 {
		k.Timeout = DefaultKeepaliveTimeout
	}
	if k.MinTime == 0 {
		k.MinTime = min(DefaultKeepaliveMinTime, k.Time)
	}
	switch {
	case k.Timeout < MinTimeout:
		return k, fmt.Errorf("%w: Keepalive.Timeout %v is under %v: healthy connections would be closed", ErrInvalidConfig, k.Timeout, MinTimeout)
	case k.Time < MinClientTime:
		return k, fmt.Errorf("%w: Keepalive.Time %v is under gRPC's minimum ping interval %v", ErrInvalidConfig, k.Time, MinClientTime)
	case k.MinTime > k.Time:
		return k, fmt.Errorf("%w: Keepalive.MinTime %v exceeds Time %v: the servers would disconnect their peers' pings", ErrInvalidConfig, k.MinTime, k.Time)
	}
	return k, nil
}
