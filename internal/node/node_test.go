package node

import (
	"errors"
	"net"
	"testing"

	"github.com/tripwire-go/tripwire/internal/system"
)

func TestEnableRemoteRefusesBadAddresses(t *testing.T) {
	// Given an address already taken
	taken, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer taken.Close()
	sys := system.New(nil)
	defer sys.Shutdown()
	for addr, want := range map[string]error{
		taken.Addr().String(): ErrListen,
		"nowhere":             ErrInvalid,
		"127.0.0.1:99999":     ErrInvalid,
	} {
		// When remote is enabled there, Then it is an error, not protoactor's panic
		if _, err := EnableRemote(sys, addr); !errors.Is(err, want) {
			t.Errorf("EnableRemote(%q) = %v, want %v", addr, err, want)
		}
	}
	// And Start says the same
	if _, err := Start(taken.Addr().String(), 0, nil); !errors.Is(err, ErrListen) {
		t.Errorf("Start on a taken address = %v", err)
	}
	if _, err := Start("127.0.0.1:0", -1, nil); !errors.Is(err, ErrInvalid) {
		t.Errorf("Start with a negative latency = %v", err)
	}
}
