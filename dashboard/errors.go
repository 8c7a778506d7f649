package dashboard

import (
	"errors"

	"github.com/tripwire-go/tripwire"
)

// What the handler answers with, as {"error": "..."}; see doc.go for the
// statuses.
var (
	errNotFound      = errors.New("dashboard: not found")
	errMethod        = errors.New("dashboard: method not allowed")
	errBadQuery      = errors.New("dashboard: bad query")
	errUnknownAction = errors.New("dashboard: unknown action")
	errReadOnly      = errors.New("dashboard: read-only (no control: see dashboard.WithControl)")
	errForbidden     = errors.New("dashboard: not authorized to control breakers")
	errNoCrash       = errors.New("dashboard: crash is not offered (a fault injection: see dashboard.WithCrash)")
	errCrossOrigin   = errors.New("dashboard: cross-origin request refused")
	errClosed        = errors.New("dashboard: closed, the server is stopping")
)

// errShutdown is the registry's, as lists and streams answer it.
var errShutdown = tripwire.ErrShutdown
