package tripwirehttp

import (
	"context"
	"errors"
	"net/http"

	"github.com/tripwire-go/tripwire/state"
)

// DefaultClassify is how a round trip counts unless WithClassifier says
// otherwise: a transport error is a failure — except context.Canceled,
// the caller's own cancellation, which counts neither way — a response with
// a 5xx status or 429 Too Many Requests is a failure, and any other
// response is a success.
func DefaultClassify(resp *http.Response, err error) state.Verdict {
	switch {
	case errors.Is(err, context.Canceled):
		return state.Ignore
	case err != nil, resp == nil:
		return state.Failure
	case resp.StatusCode >= 500, resp.StatusCode == http.StatusTooManyRequests:
		return state.Failure
	}
	return state.Success
}

// judge runs a classifier, counting a panic in it as a failure: the
// response must still reach its caller, or be discarded.
func judge(classify func(*http.Response, error) state.Verdict, resp *http.Response, err error) (v state.Verdict) {
	defer func() {
		if recover() != nil {
			v = state.Failure
		}
	}()
	return classify(resp, err)
}

// verdictOf is the Settings.Classify of every key this package makes: the
// round trip was judged on the worker already, by the classifier of the
// Transport that sent it.
func verdictOf(v any, err error) state.Verdict {
	if x, ok := v.(*exchange); ok {
		return x.verdict
	}
	if err != nil {
		return state.Failure
	}
	return state.Success
}
