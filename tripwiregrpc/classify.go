package tripwiregrpc

import (
	"context"
	"errors"

	"github.com/tripwire-go/tripwire/state"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// DefaultClassify is how a call's answer counts unless WithClassifier says
// otherwise: FailureCodes(codes.Unavailable, codes.DeadlineExceeded,
// codes.ResourceExhausted) — the server down or unreachable, too slow, or
// out of capacity.
var DefaultClassify = FailureCodes(codes.Unavailable, codes.DeadlineExceeded, codes.ResourceExhausted)

// FailureCodes is a classifier for WithClassifier: an error whose code is
// one of failures is a failure, Canceled — the caller's own cancellation —
// counts neither way unless it is listed, and every other answer, success
// or error, is a success: the server answered. An error's code is that of
// its gRPC status (status.Code) or, for an error without one, that of a
// context error in its chain, as status.FromContextError gives it:
// context.DeadlineExceeded is DeadlineExceeded, context.Canceled is
// Canceled, anything else Unknown.
func FailureCodes(failures ...codes.Code) func(err error) state.Verdict {
	set := map[codes.Code]bool{}
	for _, c := range failures {
		set[c] = true
	}
	return func(err error) state.Verdict {
		code := codeOf(err)
		switch {
		case set[code]:
			return state.Failure
		case code == codes.Canceled:
			return state.Ignore
		}
		return state.Success
	}
}

// codeOf is err's code for FailureCodes. A context's end without a status
// — an interceptor further down the chain, or an invoker of the program's
// own, returns ctx.Err() as it is — would be Unknown to status.Code, and
// count as a success: a deadline is not one, nor is a cancellation.
func codeOf(err error) codes.Code {
	switch {
	case err == nil || hasStatus(err):
		return status.Code(err)
	case errors.Is(err, context.DeadlineExceeded):
		return codes.DeadlineExceeded
	case errors.Is(err, context.Canceled):
		return codes.Canceled
	}
	return codes.Unknown
}

// judge runs a classifier, counting a panic in it as a failure.
func judge(classify func(error) state.Verdict, err error) (v state.Verdict) {
	defer func() {
		if recover() != nil {
			v = state.Failure
		}
	}()
	return classify(err)
}

// verdictOf is the Settings.Classify of every key this package makes: the
// call was judged on the worker already, by the classifier of the
// interceptor that sent it.
func verdictOf(v any, err error) state.Verdict {
	if c, ok := v.(*call); ok {
		return c.verdict
	}
	if err != nil {
		return state.Failure
	}
	return state.Success
}

// reported is the error the target reports to the registry for an answer
// judged v, so that its metrics and spans count what the breaker counted:
// none for a success (a NotFound included), the error otherwise. The
// caller gets the server's own answer from the call.
func reported(v state.Verdict, err error) error {
	if v == state.Success {
		return nil
	}
	return err
}
