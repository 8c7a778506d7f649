package dashboard

import (
	"net/http"
	"sync"
	"time"

	"github.com/tripwire-go/tripwire"
)

// Handler serves the dashboard, its API, its event stream and the metrics.
// Close it when the server shuts down (http.Server.RegisterOnShutdown): event
// streams last until their client goes or the handler is closed.
type Handler struct {
	reg     *tripwire.Registry
	src     Source
	metrics *Metrics
	journal *journal
	mux     *http.ServeMux
	every   time.Duration // between two "breakers" events of a stream

	done      chan struct{}
	closeOnce sync.Once
}

// sampleEvery is how often an event stream sends every breaker's row: the
// page's sparklines get one point per row.
const sampleEvery = 500 * time.Millisecond

// New returns the dashboard of reg, whose keys src registered and drives
// (a *demo.Driver, or FromSoak's), with metrics the meter provider reg was
// started with (or any other). A nil argument is ErrNilArgument.
func New(reg *tripwire.Registry, src Source, metrics *Metrics) (*Handler, error) {
	if reg == nil || isNil(src) || metrics == nil {
		return nil, ErrNilArgument
	}
	h := &Handler{reg: reg, src: src, metrics: metrics, journal: newJournal(reg),
		mux: http.NewServeMux(), every: sampleEvery, done: make(chan struct{})}
	h.routes()
	return h, nil
}

func (h *Handler) routes() {
	page := pageHandler()
	get := func(f http.HandlerFunc) http.Handler { return only(http.MethodGet, f) }
	h.mux.Handle("/{$}", get(page.ServeHTTP))
	h.mux.Handle("/static/{file}", get(page.ServeHTTP))
	h.mux.Handle("/api/breakers", get(h.list))
	h.mux.Handle("/api/breakers/{key}", get(h.one))
	h.mux.Handle("/api/breakers/{key}/{action}", sameOrigin(only(http.MethodPost, h.act)))
	h.mux.Handle("/api/transitions", get(h.transitions))
	h.mux.Handle("/api/events", get(h.events))
	h.mux.Handle("/metrics", get(h.metrics.Handler().ServeHTTP))
	h.mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		writeError(w, http.StatusNotFound, ErrNotFound)
	})
}

// ServeHTTP implements http.Handler.
func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) { h.mux.ServeHTTP(w, r) }

// Close ends every event stream (each sends the rows once more, then "end")
// and the handler's subscription to the registry; a new stream is refused
// (503). The rest of the API keeps answering. A second Close does nothing.
func (h *Handler) Close() {
	h.closeOnce.Do(func() {
		close(h.done)
		h.journal.close()
	})
}

// only lets requests of method (and HEAD, for GET) through to next and
// answers others 405 with the Allow header.
func only(method string, next http.HandlerFunc) http.Handler {
	allow := method
	if method == http.MethodGet {
		allow = "GET, HEAD"
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != method && !(method == http.MethodGet && r.Method == http.MethodHead) {
			w.Header().Set("Allow", allow)
			writeError(w, http.StatusMethodNotAllowed, ErrMethod)
			return
		}
		next(w, r)
	})
}

// sameOrigin refuses state-changing requests that a browser sends from a
// page of another origin, so a web page cannot crash the breakers.
func sameOrigin(next http.Handler) http.Handler {
	p := http.NewCrossOriginProtection()
	p.SetDenyHandler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		writeError(w, http.StatusForbidden, ErrCrossOrigin)
	}))
	return p.Handler(next)
}
