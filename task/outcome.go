package task

// Outcome is what the data plane reports to a breaker for one call. Worker and
// Ask send it to the breaker's PID; Token is the breaker's handle for the call.
// Failed and Ignored are the Classifier's verdict (neither: a success).
type Outcome struct {
	Token   any
	Value   any
	Err     error
	Failed  bool
	Ignored bool
}

// Verdict is how a call's result counts for its breaker.
type Verdict uint8

const (
	// Success resets the consecutive failures and counts as a success.
	Success Verdict = iota
	// Failure counts toward opening the circuit.
	Failure
	// Ignore counts neither way; a half-open probe's permit is freed.
	Ignore
)

// Classifier decides how a call's result counts. A nil Classifier counts
// every non-nil error as a failure and everything else as a success.
type Classifier func(value any, err error) Verdict

// FailureIf adapts a yes/no failure test (Settings.IsFailure) to a Classifier.
func FailureIf(isFailure func(value any, err error) bool) Classifier {
	if isFailure == nil {
		return nil
	}
	return func(value any, err error) Verdict {
		if isFailure(value, err) {
			return Failure
		}
		return Success
	}
}

// classify runs c outside any actor turn; a panicking classifier counts the
// call as failed rather than crashing the worker.
func (c Classifier) classify(o *Outcome) {
	v := c.verdict(o.Value, o.Err)
	o.Failed, o.Ignored = v == Failure, v == Ignore
}

func (c Classifier) verdict(value any, err error) (v Verdict) {
	if c == nil {
		if err != nil {
			return Failure
		}
		return Success
	}
	defer func() {
		if recover() != nil {
			v = Failure
		}
	}()
	return c(value, err)
}
