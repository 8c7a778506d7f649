package dashboard

import (
	"fmt"
	"net/http"
	"strings"
)

// actionNames are the control actions, in the page's order.
var actionNames = []string{"force-open", "force-close", "reset", "probe-now", "crash"}

// action returns the func of the control action name.
func (h *Handler) action(name string) (func(string) error, bool) {
	switch name {
	case "force-open":
		return h.reg.ForceOpen, true
	case "force-close":
		return h.reg.ForceClose, true
	case "reset":
		return h.reg.Reset, true
	case "probe-now":
		return h.reg.ProbeNow, true
	case "crash":
		return h.cfg.crash, true
	}
	return nil, false
}

// act answers POST api/breakers/{key}/{action} (from the same origin only:
// see sameOrigin): read-only without WithControl, refused unless authorize
// accepts the request; then it does the action and answers the key's row
// after it.
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
	do, ok := h.action(name)
	if !ok {
		fail(w, fmt.Errorf("%w: %q (want one of %s)", errUnknownAction, name, strings.Join(actionNames, ", ")))
		return
	}
	if err := do(key); err != nil {
		fail(w, settle(h.reg, key, err))
		return
	}
	row, err := h.detail(key)
	if err != nil {
		fail(w, err)
		return
	}
	writeJSON(w, http.StatusOK, row)
}
