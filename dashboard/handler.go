package dashboard

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/tripwire-go/tripwire"
	"github.com/tripwire-go/tripwire/state"
)

// Handler serves a registry's dashboard: the page, its JSON API, its event
// stream, and /metrics with WithMetrics. Mount it at the root or under a
// prefix (http.StripPrefix): the page's links are relative. Close it when
// the server shuts down (http.Server.RegisterOnShutdown), or event streams
// last until their clients go.
type Handler struct {
	reg     registry
	cfg     config
	board   *board
	journal *journal
	mux     *http.ServeMux

	unsubscribe func()
	stop        context.CancelFunc
	exited      chan struct{} // the board's goroutine returned
	done        chan struct{} // closed by Close
	closeOnce   sync.Once
}

// New returns the dashboard of reg. It follows reg's transitions from now
// on; it reads the key list when a page or a list first asks. A nil
// registry or option, or an option given a bad value, is
// tripwire.ErrInvalidOption.
func New(reg *tripwire.Registry, opts ...Option) (*Handler, error) {
	if reg == nil {
		return nil, fmt.Errorf("%w: dashboard.New with a nil registry", tripwire.ErrInvalidOption)
	}
	return newHandler(reg, opts...)
}

func newHandler(reg registry, opts ...Option) (*Handler, error) {
	cfg := config{title: "Tripwire", refresh: defaultRefresh}
	for _, o := range opts {
		if o == nil {
			return nil, fmt.Errorf("%w: a nil dashboard.Option", tripwire.ErrInvalidOption)
		}
		if err := o.apply(&cfg); err != nil {
			return nil, err
		}
	}
	ctx, stop := context.WithCancel(context.Background())
	h := &Handler{reg: reg, cfg: cfg, board: newBoard(reg, cfg.refresh), journal: newJournal(),
		mux: http.NewServeMux(), stop: stop, exited: make(chan struct{}), done: make(chan struct{})}
	h.unsubscribe = reg.Subscribe(func(tr state.Transition) {
		h.board.note(tr)
		h.journal.add(tr)
	})
	h.board.from = time.Now() // it has seen every transition since (no look yet)
	h.routes()
	go func() {
		defer close(h.exited)
		h.board.run(ctx)
	}()
	return h, nil
}

func (h *Handler) routes() {
	page := pageHandler()
	get := func(f http.HandlerFunc) http.Handler { return only(http.MethodGet, f) }
	h.mux.Handle("/{$}", get(page.ServeHTTP))
	h.mux.Handle("/static/{file}", get(page.ServeHTTP))
	h.mux.Handle("/api/info", get(h.info))
	h.mux.Handle("/api/breakers", get(h.list))
	h.mux.Handle("/api/breakers/{key}", get(h.one))
	h.mux.Handle("/api/breakers/{key}/{action}", sameOrigin(only(http.MethodPost, h.act)))
	h.mux.Handle("/api/transitions", get(h.transitions))
	h.mux.Handle("/api/events", get(h.events))
	if h.cfg.metrics != nil {
		h.mux.Handle("/metrics", get(h.cfg.metrics.ServeHTTP))
	}
	h.mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		writeError(w, http.StatusNotFound, errNotFound)
	})
}

// ServeHTTP implements http.Handler. A path without its leading slash
// (http.StripPrefix("/breakers/", h)) is taken as if it had one.
func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if h == nil || h.mux == nil {
		http.Error(w, "dashboard: a Handler not made by New", http.StatusInternalServerError)
		return
	}
	if !strings.HasPrefix(r.URL.Path, "/") {
		r2 := *r
		u := *r.URL
		u.Path = "/" + u.Path
		if u.RawPath != "" {
			u.RawPath = "/" + u.RawPath
		}
		r2.URL = &u
		r = &r2
	}
	h.mux.ServeHTTP(w, r)
}

// Close ends every event stream (each sends its last changes, then "end")
// and the handler's subscription to the registry, and waits for its own
// goroutine. A stream asked for later is refused (503); the rest of the API
// keeps answering. A second Close does nothing, and so does Close of a
// Handler that New did not make.
func (h *Handler) Close() {
	if h == nil || h.done == nil {
		return
	}
	h.closeOnce.Do(func() {
		close(h.done)
		h.unsubscribe()
		h.stop()
		<-h.exited
	})
}

// closed reports whether Close was called.
func (h *Handler) closed() bool {
	select {
	case <-h.done:
		return true
	default:
		return false
	}
}
