package remoting_test

import (
	"testing"

	"github.com/asynkron/protoactor-go/actor"
	"github.com/asynkron/protoactor-go/remote"
	"google.golang.org/grpc/credentials"
	"google.golang.org/protobuf/proto"

	"github.com/tripwire-go/tripwire/internal/rawpeer"
)

// dialRaw connects a rawpeer to the node at addr; the test's cleanup
// closes it.
func dialRaw(t *testing.T, addr string, creds credentials.TransportCredentials) (*rawpeer.Peer, error) {
	t.Helper()
	p, err := rawpeer.Dial(addr, creds)
	if err == nil {
		t.Cleanup(p.Close)
	}
	return p, err
}

// protoEnvelope is msg to target from sender (nil: none).
func protoEnvelope(t *testing.T, msg proto.Message, target, sender *actor.PID) rawpeer.Envelope {
	t.Helper()
	e, err := rawpeer.Proto(msg, target, sender)
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// send sends a batch through p, failing the test if the stream is gone.
func send(t *testing.T, p *rawpeer.Peer, b *remote.MessageBatch) {
	t.Helper()
	if err := p.Send(b); err != nil {
		t.Fatalf("send: %v", err)
	}
}
