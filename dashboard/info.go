package dashboard

import (
	"net/http"

	"github.com/tripwire-go/tripwire/state"
)

// Info is what a page needs to know of the handler, for the request that
// asks: GET api/info, and the "hello" event of a stream.
type Info struct {
	Title string `json:"title"`
	// Control: this request may use the control actions (WithControl and
	// its authorize said yes); Actions names them (crash only WithCrash).
	Control bool     `json:"control"`
	Actions []string `json:"actions,omitempty"`
	Metrics bool     `json:"metrics"` // /metrics is served
	// RefreshMs is how often a stream looks; Limit and MaxLimit bound what a
	// list or stream shows (?limit=).
	RefreshMs     float64 `json:"refresh_ms"`
	Limit         int     `json:"limit"`
	MaxLimit      int     `json:"max_limit"`
	StatsWindowMs float64 `json:"stats_window_ms"`
}

// infoFor is the Info of r, whose list or stream shows limit keys.
func (h *Handler) infoFor(r *http.Request, limit int) Info {
	in := Info{Title: h.cfg.title, Metrics: h.cfg.metrics != nil, RefreshMs: ms(h.cfg.refresh),
		Limit: limit, MaxLimit: maxLimit, StatsWindowMs: ms(state.StatsWindow)}
	if h.authorized(r) {
		in.Control, in.Actions = true, h.actions()
	}
	return in
}

// authorized reports whether r may use the control actions.
func (h *Handler) authorized(r *http.Request) bool {
	return h.cfg.authorize != nil && h.cfg.authorize(r)
}

// info answers GET api/info.
func (h *Handler) info(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, http.StatusOK, h.infoFor(r, defaultLimit))
}
