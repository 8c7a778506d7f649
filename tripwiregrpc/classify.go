package tripwiregrpc

import (
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/tripwire-go/tripwire"
)

// DefaultClassify is how a call's answer counts unless WithClassifier says
// otherwise: FailureCodes(codes.Unavailable, codes.DeadlineExceeded,
// codes.ResourceExhausted) — the server down or unreachable, too slow, or
// out of capacity.
var DefaultClassify = FailureCodes(codes.Unavailable, codes.DeadlineExceeded, codes.ResourceExhausted)

// FailureCodes is a classifier for WithClassifier: an error whose status
// code (status.Code) is one of failures is a failure, Canceled — the
// caller's own cancellation — counts neither way unless it is listed, and
// every other answer, success or error, is a success: the server answered.
func FailureCodes(failures ...codes.Code) func(err error) tripwire.Verdict {
	set := map[codes.Code]bool{}
	for _, c := range failures {
		set[c] = true
	}
	return func(err error) tripwire.Verdict {
		code := status.Code(err)
		switch {
		case set[code]:
			return tripwire.Failure
		case code == codes.Canceled:
			return tripwire.Ignore
		}
		return tripwire.Success
	}
}

// judge runs a classifier, counting a panic in it as a failure.
func judge(classify func(error) tripwire.Verdict, err error) (v tripwire.Verdict) {
	defer func() {
		if recover() != nil {
			v = tripwire.Failure
		}
	}()
	return classify(err)
}

// verdictOf is the Settings.Classify of every key this package makes: the
// call was judged on the worker already, by the classifier of the
// interceptor that sent it.
func verdictOf(v any, err error) tripwire.Verdict {
	if c, ok := v.(*call); ok {
		return c.verdict
	}
	if err != nil {
		return tripwire.Failure
	}
	return tripwire.Success
}

// reported is the error the target reports to the registry for an answer
// judged v, so that its metrics and spans count what the breaker counted:
// none for a success (a NotFound included), the error otherwise. The
// caller gets the server's own answer from the call.
func reported(v tripwire.Verdict, err error) error {
	if v == tripwire.Success {
		return nil
	}
	return err
}
