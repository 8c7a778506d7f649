package dashboard

import "errors"

var (
	// ErrNilArgument: New got no registry, source or metrics, or FromSoak
	// no run.
	ErrNilArgument = errors.New("dashboard: nil registry, source, metrics or soak run")
	// ErrUnknownAction: a POST named an action other than force-open,
	// force-close, reset and crash.
	ErrUnknownAction = errors.New("dashboard: unknown action")
	// ErrMethod: the path exists but not for the request's method.
	ErrMethod = errors.New("dashboard: method not allowed")
	// ErrNotFound: no page or endpoint at the path.
	ErrNotFound = errors.New("dashboard: not found")
	// ErrClosed: an event stream asked for once the handler is closed.
	ErrClosed = errors.New("dashboard: closed, the server is stopping")
	// ErrCrossOrigin: a POST from a page of another origin.
	ErrCrossOrigin = errors.New("dashboard: cross-origin request refused")
)
