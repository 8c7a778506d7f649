package remoting

import (
	"testing"

	"github.com/asynkron/protoactor-go/actor"
	"github.com/asynkron/protoactor-go/remote"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/wrapperspb"
)

// The guard's cost per message a node receives, with protoactor's own
// decoding of the same message measured in the same run as its peer.
func BenchmarkGuard(b *testing.B) {
	data, err := proto.Marshal(wrapperspb.String("paris"))
	if err != nil {
		b.Fatal(err)
	}
	batch := &remote.MessageBatch{
		TypeNames: []string{"google.protobuf.StringValue"},
		Targets:   []*actor.PID{actor.NewPID("10.0.0.5:7070", "weather")},
		Senders:   []*actor.PID{actor.NewPID("10.0.0.7:7070", "caller")},
		Envelopes: []*remote.MessageEnvelope{{MessageData: data, Sender: 1}},
	}
	b.Run("check", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := check(batch, batch.Envelopes[0]); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("protoactor-decode", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := remote.Deserialize(data, batch.TypeNames[0], 0); err != nil {
				b.Fatal(err)
			}
		}
	})
}
