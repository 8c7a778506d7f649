package dashboard

import (
	"encoding/json"
	"errors"
	"net/http"

	"github.com/tripwire-go/tripwire"
	"github.com/tripwire-go/tripwire/internal/soak"
)

// writeJSON answers v as JSON with status.
func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	_ = enc.Encode(v) // the client went away: nothing to tell it
}

// errorBody is every error answer.
type errorBody struct {
	Error string `json:"error"`
}

func writeError(w http.ResponseWriter, status int, err error) {
	writeJSON(w, status, errorBody{Error: err.Error()})
}

// statusOf is the HTTP status of an error from the registry.
func statusOf(err error) int {
	switch {
	case errors.Is(err, tripwire.ErrUnknownKey), errors.Is(err, ErrUnknownAction):
		return http.StatusNotFound
	case errors.Is(err, tripwire.ErrInvalidKey):
		return http.StatusBadRequest
	case errors.Is(err, tripwire.ErrShutdown), errors.Is(err, tripwire.ErrTimeout), errors.Is(err, soak.ErrRunOver):
		return http.StatusServiceUnavailable
	}
	return http.StatusInternalServerError
}
