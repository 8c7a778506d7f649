package task

// Releaser is implemented by a token that must know when the data plane is
// done with its call: a function target returned, or an actor target
// replied, or its ask was abandoned (see actor.Call.Hold).
type Releaser interface {
	Release()
}

func release(token any) {
	if r, ok := token.(Releaser); ok {
		r.Release()
	}
}
