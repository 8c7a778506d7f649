package demo

import (
	"errors"
	"net"
	"testing"

	"google.golang.org/protobuf/proto"

	"github.com/tripwire-go/tripwire"
)

func TestEnableRemoteRefusesBadAddresses(t *testing.T) {
	// Given an address already taken
	taken, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer taken.Close()
	sys := tripwire.NewActorSystem(nil)
	defer sys.Shutdown()
	for addr, want := range map[string]error{
		taken.Addr().String(): ErrListen,
		"nowhere":             ErrInvalidConfig,
		"127.0.0.1:99999":     ErrInvalidConfig,
	} {
		// When remote is enabled there, Then it is an error, not protoactor's panic
		if _, err := EnableRemote(sys, addr); !errors.Is(err, want) {
			t.Errorf("EnableRemote(%q) = %v, want %v", addr, err, want)
		}
	}
	// And StartNode says the same
	if _, err := StartNode(taken.Addr().String(), 0, nil); !errors.Is(err, ErrListen) {
		t.Errorf("StartNode on a taken address = %v", err)
	}
	if _, err := StartNode("127.0.0.1:0", -1, nil); !errors.Is(err, ErrInvalidConfig) {
		t.Errorf("StartNode with a negative latency = %v", err)
	}
}

func TestRemoteConfigSendsProtobufToTheNodeActor(t *testing.T) {
	// Given a remote config
	cfg := DefaultConfig()
	cfg.Pattern, cfg.Remote = Remote, "10.0.0.7:7070"
	// Then callers send a protobuf message, to the node's dependency actor
	if _, ok := cfg.request().(proto.Message); !ok {
		t.Fatalf("a remote demo sends %T, not a protobuf message", cfg.request())
	}
	if got := remoteDependency(cfg.Remote); got.Address != "10.0.0.7:7070" || got.Id != DependencyName {
		t.Fatalf("remote PID %v", got)
	}
	if _, ok := DefaultConfig().request().(string); !ok {
		t.Fatal("a local demo sends a plain string")
	}
}
