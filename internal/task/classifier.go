package task

import "github.com/tripwire-go/tripwire/state"

// Classifier decides how a call's result counts. A nil Classifier counts
// every non-nil error as a failure and everything else as a success.
type Classifier func(value any, err error) state.Verdict

// FailureIf adapts a yes/no failure test (Settings.IsFailure) to a Classifier.
func FailureIf(isFailure func(value any, err error) bool) Classifier {
	if isFailure == nil {
		return nil
	}
	return func(value any, err error) state.Verdict {
		if isFailure(value, err) {
			return state.Failure
		}
		return state.Success
	}
}

// classify runs c outside any actor turn; a panicking classifier counts the
// call as failed rather than crashing the worker.
func (c Classifier) classify(o *Completion) {
	v := c.verdict(o.Value, o.Err)
	o.Failed, o.Ignored = v == state.Failure, v == state.Ignore
}

func (c Classifier) verdict(value any, err error) (v state.Verdict) {
	if c == nil {
		if err != nil {
			return state.Failure
		}
		return state.Success
	}
	defer func() {
		if recover() != nil {
			v = state.Failure
		}
	}()
	return c(value, err)
}
