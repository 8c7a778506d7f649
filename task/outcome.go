package task

// Outcome is what the data plane reports to a breaker for one call. Worker and
// Ask send it to the breaker's PID; Token is the breaker's handle for the call.
type Outcome struct {
	Token  any
	Value  any
	Err    error
	Failed bool
}

// Classifier decides whether a call's result counts as a failure.
// A nil Classifier counts every non-nil error as a failure.
type Classifier func(value any, err error) bool

// classify runs c outside any actor turn; a panicking classifier counts the
// call as failed rather than crashing the worker.
func (c Classifier) classify(value any, err error) (failed bool) {
	if c == nil {
		return err != nil
	}
	defer func() {
		if recover() != nil {
			failed = true
		}
	}()
	return c(value, err)
}
