package dashboard

import (
	"fmt"
	"net/http"
	"time"

	"github.com/tripwire-go/tripwire"
)

// actions are what POST /api/breakers/{key}/{action} can do to a breaker.
var actions = map[string]func(*tripwire.Registry, string) error{
	"force-open":  (*tripwire.Registry).ForceOpen,
	"force-close": (*tripwire.Registry).ForceClose,
	"reset":       (*tripwire.Registry).Reset,
	"crash":       (*tripwire.Registry).Crash,
}

// actionNames lists the actions for error messages, in the page's order.
const actionNames = "force-open, force-close, reset, crash"

// list answers GET /api/breakers: every key's row, in key order.
func (h *Handler) list(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, http.StatusOK, breakersOf(h.src.Rows(), time.Now()))
}

// one answers GET /api/breakers/{key}.
func (h *Handler) one(w http.ResponseWriter, r *http.Request) {
	b, err := h.row(r.PathValue("key"))
	if err != nil {
		writeError(w, statusOf(err), err)
		return
	}
	writeJSON(w, http.StatusOK, b)
}

// act answers POST /api/breakers/{key}/{action}: it does the action and
// answers the key's row after it.
func (h *Handler) act(w http.ResponseWriter, r *http.Request) {
	key, name := r.PathValue("key"), r.PathValue("action")
	do, ok := actions[name]
	if !ok {
		err := fmt.Errorf("%w: %q (want one of %s)", ErrUnknownAction, name, actionNames)
		writeError(w, statusOf(err), err)
		return
	}
	if c, ok := h.src.(Crasher); ok && name == "crash" {
		do = func(_ *tripwire.Registry, key string) error { return c.Crash(key) }
	}
	if err := do(h.reg, key); err != nil {
		writeError(w, statusOf(err), err)
		return
	}
	b, err := h.row(key)
	if err != nil {
		writeError(w, statusOf(err), err)
		return
	}
	writeJSON(w, http.StatusOK, b)
}

// transitions answers GET /api/transitions: the recent transitions, oldest
// first.
func (h *Handler) transitions(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, http.StatusOK, h.journal.history())
}

// row is key's row. The registry says whether the key is valid and known;
// a key registered by someone other than the source has no row.
func (h *Handler) row(key string) (Breaker, error) {
	if _, err := h.reg.State(key); err != nil {
		return Breaker{}, err
	}
	now := time.Now()
	for _, r := range h.src.Rows() {
		if r.Key == key {
			return breakerOf(r, now), nil
		}
	}
	return Breaker{}, fmt.Errorf("%w: %q is not a key of the dashboard's load", tripwire.ErrUnknownKey, key)
}
