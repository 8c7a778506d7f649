package demo

import (
	"testing"

	"github.com/tripwire-go/tripwire/internal/node"

	"google.golang.org/protobuf/proto"
)

func TestRemoteConfigSendsProtobufToTheNodeActor(t *testing.T) {
	// Given a remote config
	cfg := DefaultConfig()
	cfg.Pattern, cfg.Remote = Remote, "10.0.0.7:7070"
	// Then callers send a protobuf message, to the node's dependency actor
	if _, ok := cfg.request().(proto.Message); !ok {
		t.Fatalf("a remote demo sends %T, not a protobuf message", cfg.request())
	}
	if got := remoteDependency(cfg.Remote); got.Address != "10.0.0.7:7070" || got.Id != node.Name {
		t.Fatalf("remote PID %v", got)
	}
	if _, ok := DefaultConfig().request().(string); !ok {
		t.Fatal("a local demo sends a plain string")
	}
}
