package dashboard

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"time"
)

// writeTimeout bounds each event's write, so a client that stopped reading
// ends its stream instead of holding it.
const writeTimeout = 10 * time.Second

// events answers GET /api/events with a stream of server-sent events:
//
//	breakers    every key's row, at the start and every 500 ms
//	history     the recent transitions, oldest first, once at the start
//	transition  one transition, as it happens
//	missed      how many transitions this stream dropped because it lagged
//	end         the server is stopping: the rows before it are the last
//
// The stream ends when the client goes, or when the handler is closed: then
// it sends every key's row once more and "end" (data: null) first, so a page
// can keep the final state and say that the server stopped. Once the
// handler is closed, a new stream is refused: 503, ErrClosed.
func (h *Handler) events(w http.ResponseWriter, r *http.Request) {
	select {
	case <-h.done:
		writeError(w, http.StatusServiceUnavailable, ErrClosed)
		return
	default:
	}
	rc := http.NewResponseController(w)
	hdr := w.Header()
	hdr.Set("Content-Type", "text/event-stream")
	hdr.Set("Cache-Control", "no-store")
	hdr.Set("X-Accel-Buffering", "no")
	if r.Method == http.MethodHead {
		return
	}
	history, f := h.journal.follow()
	defer h.journal.leave(f)
	tick := time.NewTicker(h.every)
	defer tick.Stop()

	s := stream{w: w, rc: rc}
	s.retry(time.Second)
	s.send("breakers", breakersOf(h.src.Rows(), time.Now()))
	s.send("history", history)
	for s.err == nil {
		select {
		case <-r.Context().Done():
			return
		case <-h.done:
			s.send("breakers", breakersOf(h.src.Rows(), time.Now()))
			s.send("end", nil)
			return
		case t := <-f.ch:
			s.send("transition", t)
		case <-tick.C:
			if n := h.journal.takeMissed(f); n > 0 {
				s.send("missed", n)
			}
			s.send("breakers", breakersOf(h.src.Rows(), time.Now()))
		}
	}
}

// stream writes server-sent events and remembers the first failed write.
type stream struct {
	w   http.ResponseWriter
	rc  *http.ResponseController
	err error
}

// retry tells the browser how long to wait before it reconnects.
func (s *stream) retry(d time.Duration) {
	s.write(fmt.Appendf(nil, "retry: %d\n\n", d.Milliseconds()))
}

// send writes one event whose data is v as JSON (one line: JSON has no
// raw newlines).
func (s *stream) send(event string, v any) {
	data, err := json.Marshal(v)
	if err != nil {
		s.err = err
		return
	}
	msg := make([]byte, 0, len(event)+len(data)+16)
	msg = append(append(append(msg, "event: "...), event...), "\ndata: "...)
	msg = append(append(msg, data...), "\n\n"...)
	s.write(msg)
}

func (s *stream) write(msg []byte) {
	if s.err != nil {
		return
	}
	if err := s.rc.SetWriteDeadline(time.Now().Add(writeTimeout)); err != nil && !errors.Is(err, http.ErrNotSupported) {
		s.err = err
		return
	}
	if _, err := s.w.Write(msg); err != nil {
		s.err = err
		return
	}
	if err := s.rc.Flush(); err != nil {
		s.err = err
	}
}
