package remoting_test

import (
	"crypto/tls"
	"errors"
	"testing"
	"time"

	"github.com/tripwire-go/tripwire/remoting"
)

func TestBadConfigIsRefused(t *testing.T) {
	ca := newCA(t, "tripwire test CA")
	good := ca.node(t, "127.0.0.1")
	notMutual := good.Clone()
	notMutual.ClientAuth = tls.VerifyClientCertIfGiven
	skips := good.Clone()
	skips.InsecureSkipVerify = true
	noCert := good.Clone()
	noCert.Certificates = nil
	for name, c := range map[string]remoting.Config{
		"negative Time":                 {Keepalive: remoting.Keepalive{Time: -time.Second}},
		"negative Timeout":              {Keepalive: remoting.Keepalive{Timeout: -time.Second}},
		"negative MinTime":              {Keepalive: remoting.Keepalive{MinTime: -time.Second}},
		"Time under gRPC's minimum":     {Keepalive: remoting.Keepalive{Time: 9 * time.Second}}, // gRPC would ping every 10 s anyway
		"MinTime over Time":             {Keepalive: remoting.Keepalive{Time: 20 * time.Second, MinTime: 30 * time.Second}},
		"MinTime over the default Time": {Keepalive: remoting.Keepalive{MinTime: 11 * time.Second}},
		"tiny Timeout":                  {Keepalive: remoting.Keepalive{Timeout: time.Nanosecond}}, // every ping would close its connection
		"Timeout under MinTimeout":      {Keepalive: remoting.Keepalive{Timeout: remoting.MinTimeout - time.Millisecond}},
		"Off with a Time":               {Keepalive: remoting.Keepalive{Off: true, Time: time.Minute}},
		"ConnectTimeout too short":      {ConnectTimeout: remoting.MinConnectTimeout - time.Millisecond},
		"negative ConnectTimeout":       {ConnectTimeout: -time.Second},
		"IdleTimeout too short":         {IdleTimeout: time.Millisecond},
		"TLS not mutual":                {TLS: notMutual},
		"TLS that skips verification":   {TLS: skips},
		"TLS without a certificate":     {TLS: noCert},
	} {
		// When a bad config is turned into options
		_, optsErr := remoting.Options(c)
		_, dialErr := remoting.DialOptions(c)
		_, serveErr := remoting.ServerOptions(c)
		// Then each is refused with ErrInvalidConfig
		for _, err := range []error{optsErr, dialErr, serveErr} {
			if !errors.Is(err, remoting.ErrInvalidConfig) {
				t.Errorf("%s: %v, want ErrInvalidConfig", name, err)
			}
		}
	}
}

func TestGoodConfigGivesOptions(t *testing.T) {
	ca := newCA(t, "tripwire test CA")
	for _, c := range []remoting.Config{
		{},
		{Keepalive: remoting.Keepalive{Time: remoting.MinClientTime, Timeout: time.Second, MinTime: remoting.MinClientTime}},
		{Keepalive: remoting.Keepalive{Time: time.Minute, Timeout: 20 * time.Second}},
		{Keepalive: remoting.Keepalive{Off: true}},
		{TLS: ca.node(t, "127.0.0.1"), ConnectTimeout: remoting.MinConnectTimeout, IdleTimeout: time.Minute},
	} {
		opts, err := remoting.Options(c)
		if err != nil || len(opts) != 2 {
			t.Errorf("Options(%+v) = %d options, %v; want 2, nil", c, len(opts), err)
		}
	}
}
