package dashboard

import (
	"encoding/json"
	"errors"
	"net/http"

	"github.com/tripwire-go/tripwire"
)

// writeJSON answers v as JSON with status.
func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v) // the client went away: nothing to tell it
}

// errorBody is every error answer.
type errorBody struct {
	Error string `json:"error"`
}

func writeError(w http.ResponseWriter, status int, err error) {
	writeJSON(w, status, errorBody{Error: err.Error()})
}

// fail answers err with its status.
func fail(w http.ResponseWriter, err error) { writeError(w, statusOf(err), err) }

// statusOf is the HTTP status of an error of the handler or the registry.
func statusOf(err error) int {
	is := func(targets ...error) bool {
		for _, t := range targets {
			if errors.Is(err, t) {
				return true
			}
		}
		return false
	}
	switch {
	case is(tripwire.ErrUnknownKey, errUnknownAction, errNotFound):
		return http.StatusNotFound
	case is(tripwire.ErrInvalidKey, errBadQuery):
		return http.StatusBadRequest
	case is(errReadOnly, errForbidden, errNoCrash, errCrossOrigin):
		return http.StatusForbidden
	case is(errMethod):
		return http.StatusMethodNotAllowed
	case is(tripwire.ErrShutdown, tripwire.ErrTimeout, errClosed):
		return http.StatusServiceUnavailable
	}
	return http.StatusInternalServerError
}
