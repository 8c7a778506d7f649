package tripwire

// Reply is what an actor that used Request receives: one per request.
type Reply struct {
	Key     string
	Request any
	Value   any
	Err     error
}
