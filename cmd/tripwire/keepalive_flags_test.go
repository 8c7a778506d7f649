package main

import (
	"testing"
	"time"
)

func TestTheKeepaliveLineSaysTheTimeoutInForce(t *testing.T) {
	for _, c := range []struct {
		k    keepaliveFlags
		want string
	}{
		{keepaliveFlags{time: 10 * time.Second, timeout: 0}, "keepalive 10s, timeout 5s"}, // 0: the default
		{keepaliveFlags{time: 20 * time.Second, timeout: 2 * time.Second}, "keepalive 20s, timeout 2s"},
		{keepaliveFlags{}, "no keepalive"},
	} {
		// When the flags are described; Then the line says what the remote uses
		if got := c.k.String(); got != c.want {
			t.Errorf("%+v: %q, want %q", c.k, got, c.want)
		}
	}
}
