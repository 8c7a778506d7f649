package remoting

import (
	"context"
	"errors"
	"testing"

	"github.com/asynkron/protoactor-go/remote"
	"go.uber.org/zap"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// The guard knows protoactor's methods by name: they must be its service's.
func TestGuardNamesProtoactorsMethods(t *testing.T) {
	d := remote.Remoting_ServiceDesc
	want := map[string]bool{receiveMethod: false, listMethod: false, diagnosticsMethod: false}
	for _, m := range d.Methods {
		want["/"+d.ServiceName+"/"+m.MethodName] = true
	}
	for _, s := range d.Streams {
		want["/"+d.ServiceName+"/"+s.StreamName] = true
	}
	for m, found := range want {
		if !found {
			t.Errorf("protoactor's service has no method %s", m)
		}
	}
}

// What protoactor panics on that the checks did not foresee ends the
// peer's stream or call, not the process.
func TestGuardTurnsAPanicIntoAnError(t *testing.T) {
	var got []Refusal
	g := guard{newRefuser(zap.NewNop(), func(r Refusal) { got = append(got, r) })}
	boom := func() { panic("boom") }
	err := g.stream(nil, fakeStream{}, &grpc.StreamServerInfo{FullMethod: receiveMethod},
		func(any, grpc.ServerStream) error { boom(); return nil })
	if status.Code(err) != codes.Internal {
		t.Errorf("stream: %v, want Internal", err)
	}
	_, err = g.unary(context.Background(), nil, &grpc.UnaryServerInfo{FullMethod: "/remote.Remoting/Other"},
		func(context.Context, any) (any, error) { boom(); return nil, nil })
	if status.Code(err) != codes.Internal {
		t.Errorf("unary: %v, want Internal", err)
	}
	if len(got) != 2 || !errors.Is(got[0].Err, ErrPanicked) || !errors.Is(got[1].Err, ErrPanicked) {
		t.Errorf("refusals %+v", got)
	}
}

// fakeStream is a server stream with a context and nothing else.
type fakeStream struct{ grpc.ServerStream }

func (fakeStream) Context() context.Context { return context.Background() }
