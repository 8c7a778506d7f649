package dashboard

import (
	"context"
	"net/http"
	"time"
)

// List is the answer of GET api/breakers: the summary, how many keys the
// filter matches, and the worst of them (up to ?limit=), worst first, then
// by key.
type List struct {
	Summary Summary   `json:"summary"`
	Matched int       `json:"matched"`
	Rows    []Row     `json:"rows"`
	At      time.Time `json:"at"`
}

// list answers GET api/breakers?prefix=&state=&limit=.
func (h *Handler) list(w http.ResponseWriter, r *http.Request) {
	f, err := filterOfRequest(r)
	if err != nil {
		fail(w, err)
		return
	}
	rows, matched, sum, err := h.look(r, f)
	if err != nil {
		fail(w, err)
		return
	}
	writeJSON(w, http.StatusOK, List{Summary: sum, Matched: matched, Rows: rows, At: utc(time.Now())})
}

// look is what f shows now, once the board has its first census; it is
// tripwire.ErrShutdown once the registry has shut down.
func (h *Handler) look(r *http.Request, f filter) ([]Row, int, Summary, error) {
	if err := h.board.want(r.Context(), h.done); err != nil {
		return nil, 0, Summary{}, err
	}
	rows, matched, sum := h.board.look(f)
	if h.board.isDown() {
		return nil, 0, Summary{}, errShutdown
	}
	return rows, matched, sum, nil
}

// one answers GET api/breakers/{key}: the key's row, with the registry's
// own snapshot. Asking a passivated key wakes it.
func (h *Handler) one(w http.ResponseWriter, r *http.Request) {
	row, err := h.detail(r.Context(), r.PathValue("key"))
	if err != nil {
		fail(w, err)
		return
	}
	writeJSON(w, http.StatusOK, row)
}

// detail asks key's breaker and returns its row with the snapshot.
func (h *Handler) detail(ctx context.Context, key string) (Row, error) {
	asked := time.Now().UnixNano()
	s, err := snapshot(ctx, h.reg, key)
	if err != nil {
		return Row{}, err
	}
	h.board.mu.Lock()
	row := h.board.apply(s, asked, time.Now(), true)
	h.board.mu.Unlock()
	row.Snapshot = &s
	return row, nil
}

// transitions answers GET api/transitions?prefix=&state=&limit=: the last
// limit (default: all it keeps) of the recent transitions of the keys with
// prefix to one of the states, oldest first; 503 once the registry has
// shut down, as the rest of the API.
func (h *Handler) transitions(w http.ResponseWriter, r *http.Request) {
	q, err := queryOf(r)
	if err != nil {
		fail(w, err)
		return
	}
	f, err := filterOf(q)
	if err != nil {
		fail(w, err)
		return
	}
	if h.board.isDown() || shutDown(h.reg) {
		fail(w, errShutdown)
		return
	}
	if q.Get("limit") == "" {
		f.limit = historySize
	}
	writeJSON(w, http.StatusOK, h.journal.history(f))
}
