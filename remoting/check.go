package remoting

import (
	"fmt"

	"github.com/asynkron/protoactor-go/actor"
	"github.com/asynkron/protoactor-go/remote"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/reflect/protoregistry"
)

// protoSerializer is the id of protoactor's protobuf serializer, the first
// it registers (remote/serializer.go) and the one its nodes send with.
const protoSerializer = 0

// check returns why the envelope e of batch b must not reach protoactor's
// endpoint reader (nil: it may), and its type name if it has one. Each
// refusal is a message the reader would index past a table with, or
// dereference nil for (remote/endpoint_reader.go, proto_serializer.go,
// endpoint_manager.go, actor/deadletter.go): on a gRPC server goroutine, a
// crash of the whole process.
func check(b *remote.MessageBatch, e *remote.MessageEnvelope) (typeName string, err error) {
	switch {
	case e == nil:
		return "", fmt.Errorf("%w: an empty envelope", ErrMalformed)
	case e.TypeId < 0 || int(e.TypeId) >= len(b.TypeNames):
		return "", fmt.Errorf("%w: type %d of a batch of %d types", ErrMalformed, e.TypeId, len(b.TypeNames))
	}
	typeName = b.TypeNames[e.TypeId]
	switch {
	case e.Target < 0 || int(e.Target) >= len(b.Targets) || b.Targets[e.Target] == nil:
		return typeName, fmt.Errorf("%w: target %d of a batch of %d targets", ErrMalformed, e.Target, len(b.Targets))
	case e.Sender < 0 || int(e.Sender) > len(b.Senders) || (e.Sender > 0 && b.Senders[e.Sender-1] == nil):
		return typeName, fmt.Errorf("%w: sender %d of a batch of %d senders", ErrMalformed, e.Sender, len(b.Senders))
	case e.SerializerId < 0:
		return typeName, fmt.Errorf("%w: serializer %d", ErrUnknownSerializer, e.SerializerId)
	case e.SerializerId != protoSerializer:
		// protoactor's nodes never send with another serializer; which
		// ones this process has, protoactor does not say. Decode it here:
		// protoactor indexes its list of serializers with the id.
		return typeName, decodes(typeName, e.MessageData, e.SerializerId)
	}
	mt, err := protoregistry.GlobalTypes.FindMessageByName(protoreflect.FullName(typeName))
	if err != nil {
		return typeName, fmt.Errorf("%w: %q", ErrUnknownType, typeName)
	}
	if actsOn(mt) {
		return typeName, decodes(typeName, e.MessageData, e.SerializerId)
	}
	return typeName, nil
}

// actsOn reports whether protoactor's endpoint reader itself acts on a
// message of type mt, on the peer's gRPC goroutine, rather than pass it to
// an actor: a Watch, Unwatch or Terminated, or a message it translates
// after decoding (remote.RootSerialized, such as the cluster's pub-sub
// batches). These are decoded and checked before it gets them.
func actsOn(mt protoreflect.MessageType) bool {
	switch mt.Descriptor().FullName() {
	case "actor.Watch", "actor.Unwatch", "actor.Terminated":
		return true
	}
	_, ok := mt.Zero().Interface().(remote.RootSerialized)
	return ok
}

// decodes decodes a message as protoactor's endpoint reader will, and
// returns why it must not get it: its serializer is not there, or
// decoding fails or panics, or the message lacks a PID protoactor will
// dereference.
func decodes(typeName string, data []byte, serializer int32) (err error) {
	defer func() {
		if p := recover(); p != nil {
			why := ErrMalformed
			if serializer != protoSerializer {
				why = ErrUnknownSerializer
			}
			err = fmt.Errorf("%w: decoding %q with serializer %d panicked: %v", why, typeName, serializer, p)
		}
	}()
	msg, err := remote.Deserialize(data, typeName, serializer)
	if err != nil {
		return fmt.Errorf("%w: %q: %v", ErrMalformed, typeName, err)
	}
	if rs, ok := msg.(remote.RootSerialized); ok {
		if _, err := rs.Deserialize(); err != nil {
			return fmt.Errorf("%w: %q: %v", ErrMalformed, typeName, err)
		}
		return nil
	}
	switch m := msg.(type) {
	case *actor.Watch:
		if m.Watcher == nil {
			return fmt.Errorf("%w: a Watch without its watcher", ErrMalformed)
		}
	case *actor.Unwatch:
		if m.Watcher == nil {
			return fmt.Errorf("%w: an Unwatch without its watcher", ErrMalformed)
		}
	case *actor.Terminated:
		if m.Who == nil {
			return fmt.Errorf("%w: a Terminated without who", ErrMalformed)
		}
	}
	return nil
}
