// Package rawpeer speaks protoactor's remote protocol itself, over a gRPC
// stream of its own, for the tests of what a node does with what no
// protoactor node would send: a message of a type it does not link, for a
// serializer it does not have, or pointing outside its batch's tables.
package rawpeer

import (
	"context"

	"github.com/asynkron/protoactor-go/actor"
	"github.com/asynkron/protoactor-go/remote"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials"
	"google.golang.org/protobuf/proto"
)

// Peer is a connection to a node and the stream protoactor's nodes talk
// over.
type Peer struct {
	Conn   *grpc.ClientConn
	stream remote.Remoting_ReceiveClient
	cancel context.CancelFunc
}

// Dial connects to the node at addr with creds, opens the stream and makes
// protoactor's connect request, returning the error of the first step
// that fails.
func Dial(addr string, creds credentials.TransportCredentials) (*Peer, error) {
	conn, err := grpc.Dial(addr, grpc.WithTransportCredentials(creds))
	if err != nil {
		return nil, err
	}
	p := &Peer{Conn: conn}
	ctx, cancel := context.WithCancel(context.Background())
	p.cancel = cancel
	if err := p.connect(ctx); err != nil {
		p.Close()
		return nil, err
	}
	return p, nil
}

func (p *Peer) connect(ctx context.Context) error {
	stream, err := remote.NewRemotingClient(p.Conn).Receive(ctx)
	if err != nil {
		return err
	}
	err = stream.Send(&remote.RemoteMessage{MessageType: &remote.RemoteMessage_ConnectRequest{
		ConnectRequest: &remote.ConnectRequest{ConnectionType: &remote.ConnectRequest_ServerConnection{
			ServerConnection: &remote.ServerConnection{SystemId: "raw-peer", Address: "127.0.0.1:1"},
		}},
	}})
	if err != nil {
		return err
	}
	if _, err := stream.Recv(); err != nil {
		return err
	}
	p.stream = stream
	return nil
}

// Send sends a batch.
func (p *Peer) Send(b *remote.MessageBatch) error {
	return p.stream.Send(&remote.RemoteMessage{MessageType: &remote.RemoteMessage_MessageBatch{MessageBatch: b}})
}

// Close ends the stream and the connection.
func (p *Peer) Close() {
	p.cancel()
	_ = p.Conn.Close()
}

// Envelope is one message of a batch.
type Envelope struct {
	Type       string
	Data       []byte
	Serializer int32
	Target     *actor.PID
	Sender     *actor.PID // nil: none
}

// Proto is msg to target from sender (nil: none), as protoactor sends it.
func Proto(msg proto.Message, target, sender *actor.PID) (Envelope, error) {
	data, err := proto.Marshal(msg)
	if err != nil {
		return Envelope{}, err
	}
	return Envelope{Type: string(proto.MessageName(msg)), Data: data, Target: target, Sender: sender}, nil
}

// Batch is a batch of the envelopes, with an entry in its tables per
// envelope.
func Batch(envs ...Envelope) *remote.MessageBatch {
	b := &remote.MessageBatch{}
	for i, e := range envs {
		b.TypeNames = append(b.TypeNames, e.Type)
		b.Targets = append(b.Targets, e.Target)
		me := &remote.MessageEnvelope{TypeId: int32(i), Target: int32(i), SerializerId: e.Serializer, MessageData: e.Data}
		if e.Sender != nil {
			b.Senders = append(b.Senders, e.Sender)
			me.Sender = int32(len(b.Senders))
		}
		b.Envelopes = append(b.Envelopes, me)
	}
	return b
}
