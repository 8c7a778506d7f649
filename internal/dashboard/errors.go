package dashboard

import "errors"

var (
	// ErrNilArgument: New got no registry, driver or metrics.
	ErrNilArgument = errors.New("dashboard: nil registry, driver or metrics")
	// ErrUnknownAction: a POST named an action other than force-open,
	// force-close, reset and crash.
	ErrUnknownAction = errors.New("dashboard: unknown action")
	// ErrMethod: the path exists but not for the request's method.
	ErrMethod = errors.New("dashboard: method not allowed")
	// ErrNotFound: no page or endpoint at the path.
	ErrNotFound = errors.New("dashboard: not found")
	// ErrCrossOrigin: a POST from a page of another origin.
	ErrCrossOrigin = errors.New("dashboard: cross-origin request refused")
)
