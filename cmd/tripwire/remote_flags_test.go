package main

import (
	"errors"
	"testing"
	"time"

	"github.com/tripwire-go/tripwire/remoting"
)

func TestTheRemoteLineSaysWhatIsInForce(t *testing.T) {
	for _, c := range []struct {
		r    remoteFlags
		want string
	}{
		{remoteFlags{time: 10 * time.Second, timeout: 0}, "keepalive 10s, timeout 5s, plaintext"}, // 0: the default
		{remoteFlags{time: 20 * time.Second, timeout: 2 * time.Second, cert: "c", key: "k", ca: "a"}, "keepalive 20s, timeout 2s, mutual TLS"},
		{remoteFlags{}, "no keepalive, plaintext"},
	} {
		// When the flags are described; Then the line says what the remote uses
		if got := c.r.String(); got != c.want {
			t.Errorf("%+v: %q, want %q", c.r, got, c.want)
		}
	}
}

func TestTLSFlagsGoTogether(t *testing.T) {
	for _, r := range []remoteFlags{
		{time: 10 * time.Second, cert: "c.pem"},
		{time: 10 * time.Second, cert: "c.pem", key: "k.pem"},
		{time: 10 * time.Second, ca: "ca.pem"},
		{time: 10 * time.Second, cert: "missing.pem", key: "missing.pem", ca: "missing.pem"},
	} {
		if _, err := r.options(nil); !errors.Is(err, remoting.ErrInvalidConfig) {
			t.Errorf("%+v: %v, want ErrInvalidConfig", r, err)
		}
	}
}
