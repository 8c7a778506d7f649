package remotekeepalive_test

import (
	"errors"
	"testing"
	"time"

	"github.com/tripwire-go/tripwire/remotekeepalive"
)

func TestBadConfigIsRefused(t *testing.T) {
	for _, c := range []remotekeepalive.Config{
		{Time: -time.Second},
		{Timeout: -time.Second},
		{MinTime: -time.Second},
		{Time: 9 * time.Second},                             // gRPC would ping every 10 s anyway
		{Time: 20 * time.Second, MinTime: 30 * time.Second}, // servers would refuse their peers' pings
		{MinTime: 11 * time.Second},                         // above the default Time
		{Timeout: time.Nanosecond},                          // every ping would close its connection
		{Timeout: remotekeepalive.MinTimeout - time.Millisecond},
	} {
		// When a bad config is turned into options
		_, optsErr := remotekeepalive.Options(c)
		_, dialErr := remotekeepalive.DialOptions(c)
		_, serveErr := remotekeepalive.ServerOptions(c)
		// Then each is refused with ErrInvalidConfig
		for _, err := range []error{optsErr, dialErr, serveErr} {
			if !errors.Is(err, remotekeepalive.ErrInvalidConfig) {
				t.Errorf("%+v: %v, want ErrInvalidConfig", c, err)
			}
		}
	}
}

func TestGoodConfigGivesOptions(t *testing.T) {
	for _, c := range []remotekeepalive.Config{
		{},
		{Time: remotekeepalive.MinClientTime, Timeout: time.Second, MinTime: remotekeepalive.MinClientTime},
		{Time: time.Minute, Timeout: 20 * time.Second},
	} {
		opts, err := remotekeepalive.Options(c)
		if err != nil || len(opts) != 2 {
			t.Errorf("Options(%+v) = %d options, %v; want 2, nil", c, len(opts), err)
		}
	}
}
