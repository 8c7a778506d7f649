package remoting

import (
	"context"
	"time"

	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"
	"google.golang.org/grpc/credentials"
	"google.golang.org/grpc/peer"
)

// Refusal is one thing the guard refused: a message of a peer's batch, or
// a call of protoactor's service.
type Refusal struct {
	// Peer is the peer's network address, and PeerName the subject of its
	// TLS certificate ("" without TLS).
	Peer, PeerName string
	// Method is the gRPC method it came by.
	Method string
	// Type and Serializer are the message's type name ("" if the batch
	// had none for it) and serializer id.
	Type       string
	Serializer int32
	// Err says why: it wraps ErrUnknownType, ErrUnknownSerializer,
	// ErrMalformed, ErrUnimplemented or ErrPanicked.
	Err error
}

// refuser reports refusals to a Config's logger and OnRefused.
type refuser struct {
	log       *zap.Logger // sampled
	onRefused func(Refusal)
}

// newRefuser samples log to at most 10 lines a second, so that a peer that
// sends garbage fast cannot flood the node's log.
func newRefuser(log *zap.Logger, onRefused func(Refusal)) *refuser {
	log = log.Named("remoting").WithOptions(zap.WrapCore(func(c zapcore.Core) zapcore.Core {
		return zapcore.NewSamplerWithOptions(c, time.Second, 10, 0)
	}))
	return &refuser{log: log, onRefused: onRefused}
}

// refuse reports r, filling in the peer from ctx.
func (f *refuser) refuse(ctx context.Context, r Refusal) {
	if p, ok := peer.FromContext(ctx); ok {
		if p.Addr != nil {
			r.Peer = p.Addr.String()
		}
		if info, ok := p.AuthInfo.(credentials.TLSInfo); ok && len(info.State.PeerCertificates) > 0 {
			r.PeerName = info.State.PeerCertificates[0].Subject.String()
		}
	}
	f.log.Warn("refused a peer's message", zap.String("peer", r.Peer), zap.String("peer_name", r.PeerName),
		zap.String("method", r.Method), zap.String("type", r.Type), zap.Int32("serializer", r.Serializer), zap.Error(r.Err))
	if f.onRefused != nil {
		f.onRefused(r)
	}
}
