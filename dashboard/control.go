package dashboard

import (
	"context"
	"fmt"
	"net/http"
	"strings"
)

// actionNames are the control actions, in the page's order; crash, a
// fault injection, last: it is offered only WithCrash.
var actionNames = []string{"force-open", "force-close", "reset", "probe-now", "crash"}

// actions are the control actions h offers.
func (h *Handler) actions() []string {
	if h.cfg.crash == nil {
		return actionNames[:len(actionNames)-1]
	}
	return actionNames
}

// action returns the func of the control action name, or an error if h
// has no such action.
func (h *Handler) action(name string) (func(context.Context, string) error, error) {
	switch name {
	case "force-open":
		return h.reg.ForceOpen, nil
	case "force-close":
		return h.reg.ForceClose, nil
	case "reset":
		return h.reg.Reset, nil
	case "probe-now":
		return h.reg.ProbeNow, nil
	case "crash":
		if h.cfg.crash == nil {
			return nil, errNoCrash
		}
		return h.cfg.crash, nil
	}
	return nil, fmt.Errorf("%w: %q (want one of %s)", errUnknownAction, name, strings.Join(h.actions(), ", "))
}

// act answers POST api/breakers/{key}/{action} (from the same origin only:
// see sameOrigin): read-only without WithControl, refused unless authorize
// accepts the request, crash refused without WithCrash; then it does the
// action and answers the key's row after it.
func (h *Handler) act(w http.ResponseWriter, r *http.Request) {
	switch {
	case h.cfg.authorize == nil:
		fail(w, errReadOnly)
		return
	case !h.cfg.authorize(r):
		fail(w, errForbidden)
		return
	}
	key, name := r.PathValue("key"), r.PathValue("action")
	do, err := h.action(name)
	if err != nil {
		fail(w, err)
		return
	}
	if err := do(r.Context(), key); err != nil {
		fail(w, settle(h.reg, key, err))
		return
	}
	row, err := h.detail(r.Context(), key)
	if err != nil {
		fail(w, err)
		return
	}
	writeJSON(w, http.StatusOK, row)
}
