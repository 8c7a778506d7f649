package task

// Completion is what the data plane reports for one forwarded call: a worker
// posts it to the key's mailbox when a function target returns, and an ask's
// caller does when an actor target replies (Ask.Completion). Call is the
// call it ends; Failed and Ignored are the Classifier's verdict (neither:
// a success).
type Completion struct {
	Call    Call
	Value   any
	Err     error
	Failed  bool
	Ignored bool
}
