package remoting_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/asynkron/protoactor-go/actor"
	"github.com/asynkron/protoactor-go/remote"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/types/known/wrapperspb"

	"github.com/tripwire-go/tripwire/internal/node"
	"github.com/tripwire-go/tripwire/internal/rawpeer"
	"github.com/tripwire-go/tripwire/remoting"
)

// Each of these batches makes protoactor's endpoint reader dereference nil
// or index past a slice on the peer's gRPC goroutine, which ends the whole
// process (remote/endpoint_reader.go, proto_serializer.go,
// endpoint_manager.go, actor/deadletter.go). The guard drops the message,
// reports it, and the peer's stream and the node go on.
func TestGuardRefusesWhatWouldCrashTheNodeAndGoesOn(t *testing.T) {
	// Given the node, a peer speaking protoactor's protocol itself, and
	// another peer already connected
	n, ca, refused := nodeUnderTest(t)
	creds := credentials.NewTLS(peerTLS(t, ca))
	peer, err := dialRaw(t, n.Address(), creds)
	if err != nil {
		t.Fatal(err)
	}
	other, err := dialRaw(t, n.Address(), creds)
	if err != nil {
		t.Fatal(err)
	}
	echo := actor.NewPID(n.Address(), node.Name)
	hello := protoEnvelope(t, wrapperspb.String("hello"), echo, actor.NewPID("127.0.0.1:1", "nobody"))
	answers := func(p *rawpeer.Peer) {
		t.Helper()
		f := actor.NewFuture(n.System(), 10*time.Second)
		send(t, p, rawpeer.Batch(protoEnvelope(t, wrapperspb.String("hi"), echo, f.PID())))
		if v, err := f.Result(); err != nil || v.(*wrapperspb.StringValue).GetValue() != "hi" {
			t.Fatalf("a good message after the refusal: %v, %v", v, err)
		}
	}
	with := func(e rawpeer.Envelope, change func(*remote.MessageBatch)) *remote.MessageBatch {
		b := rawpeer.Batch(e)
		change(b)
		return b
	}
	for _, c := range []struct {
		name  string
		batch *remote.MessageBatch
		want  error
	}{
		{"a type this process does not link",
			rawpeer.Batch(rawpeer.Envelope{Type: "tripwire.test.NoSuchMessage", Data: hello.Data, Target: echo, Sender: hello.Sender}), remoting.ErrUnknownType},
		{"a serializer it does not have", with(hello, func(b *remote.MessageBatch) { b.Envelopes[0].SerializerId = 7 }), remoting.ErrUnknownSerializer},
		{"a negative serializer", with(hello, func(b *remote.MessageBatch) { b.Envelopes[0].SerializerId = -1 }), remoting.ErrUnknownSerializer},
		{"a type past the batch's types", with(hello, func(b *remote.MessageBatch) { b.Envelopes[0].TypeId = 5 }), remoting.ErrMalformed},
		{"a target past the batch's targets", with(hello, func(b *remote.MessageBatch) { b.Envelopes[0].Target = 3 }), remoting.ErrMalformed},
		{"a sender past the batch's senders", with(hello, func(b *remote.MessageBatch) { b.Envelopes[0].Sender = 4 }), remoting.ErrMalformed},
		{"a negative sender", with(hello, func(b *remote.MessageBatch) { b.Envelopes[0].Sender = -1 }), remoting.ErrMalformed},
		{"a Terminated without who", rawpeer.Batch(protoEnvelope(t, &actor.Terminated{}, echo, nil)), remoting.ErrMalformed},
		{"a Watch without its watcher, for nobody", rawpeer.Batch(protoEnvelope(t, &actor.Watch{}, actor.NewPID(n.Address(), "nobody"), nil)), remoting.ErrMalformed},
	} {
		// When the peer sends the batch
		send(t, peer, c.batch)
		// Then it is refused, and said why
		select {
		case r := <-refused:
			if !errors.Is(r.Err, c.want) {
				t.Errorf("%s: refused for %v, want %v", c.name, r.Err, c.want)
			}
			if r.Peer == "" || !strings.Contains(r.PeerName, "CN=peer") {
				t.Errorf("%s: refusal names peer %q, %q", c.name, r.Peer, r.PeerName)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("%s: no refusal", c.name)
		}
		// And a good message on the same stream is answered
		answers(peer)
	}

	// When a batch holds a bad message and a good one, Then the good one is answered
	f := actor.NewFuture(n.System(), 10*time.Second)
	mixed := rawpeer.Batch(rawpeer.Envelope{Type: "tripwire.test.NoSuchMessage", Target: echo}, protoEnvelope(t, wrapperspb.String("hi"), echo, f.PID()))
	send(t, peer, mixed)
	if v, err := f.Result(); err != nil || v.(*wrapperspb.StringValue).GetValue() != "hi" {
		t.Fatalf("the good message of a batch with a bad one: %v, %v", v, err)
	}
	if r := <-refused; !errors.Is(r.Err, remoting.ErrUnknownType) || r.Type != "tripwire.test.NoSuchMessage" {
		t.Errorf("refusal %+v", r)
	}

	// When the peer calls what protoactor answers with a panic
	for _, call := range []func(context.Context) error{
		func(ctx context.Context) error {
			_, err := remote.NewRemotingClient(peer.Conn).ListProcesses(ctx, &remote.ListProcessesRequest{})
			return err
		},
		func(ctx context.Context) error {
			_, err := remote.NewRemotingClient(peer.Conn).GetProcessDiagnostics(ctx, &remote.GetProcessDiagnosticsRequest{})
			return err
		},
	} {
		// Then it is told it is not implemented, and the refusal reported
		if err := call(context.Background()); status.Code(err) != codes.Unimplemented {
			t.Errorf("call: %v, want Unimplemented", err)
		}
		if r := <-refused; !errors.Is(r.Err, remoting.ErrUnimplemented) {
			t.Errorf("refusal %+v", r)
		}
	}

	// And the other peer's stream carried on meanwhile
	answers(other)
	answers(peer)
	select {
	case r := <-refused:
		t.Errorf("a refusal more: %+v", r)
	default:
	}
}
