package dashboard

import (
	"net/http"
	"time"
)

// Stream pacing: how long a browser waits to reconnect, how long a stream
// stays silent before a keepalive comment, and how many transitions one
// "transitions" event carries at most.
const (
	reconnectAfter = time.Second
	keepaliveAfter = 15 * time.Second
	transitionsMax = 100
)

// events answers GET api/events?prefix=&state=&limit= with server-sent
// events:
//
//	hello        Info, once
//	rows         a Frame: at first every row shown (reset), then only what changed
//	history      the recent transitions of the keys with prefix, once
//	transitions  the transitions as they happen, a few at a time
//	missed       how many transitions this stream dropped because it lagged
//	end          the server is stopping, or the registry shut down: no more events
//
// Every refresh it looks at the keys it shows; a key whose row did not
// change sends nothing. The stream ends when the client goes, the handler
// is closed (after its last changes and "end") or the registry shuts down.
// Once the handler is closed, a new stream is refused: 503.
func (h *Handler) events(w http.ResponseWriter, r *http.Request) {
	f, err := filterOfRequest(r)
	if err != nil {
		fail(w, err)
		return
	}
	if h.closed() {
		fail(w, errClosed)
		return
	}
	v := h.board.join(f)
	defer h.board.leave(v)
	history, fl := h.journal.follow(f.prefix)
	defer h.journal.leave(fl)
	rows, matched, sum, err := h.look(r, f)
	if err != nil {
		fail(w, err)
		return
	}
	hdr := w.Header()
	hdr.Set("Content-Type", "text/event-stream")
	hdr.Set("Cache-Control", "no-store")
	hdr.Set("X-Accel-Buffering", "no")
	if r.Method == http.MethodHead {
		return
	}
	s := &stream{w: w, rc: http.NewResponseController(w)}
	s.retry(reconnectAfter)
	s.send("hello", h.infoFor(r, f.limit))
	d := newDiff()
	s.send("rows", d.first(rows, matched, sum))
	s.send("history", history)
	h.follow(r, s, v, fl, d)
}

// follow sends a stream's events until it ends.
func (h *Handler) follow(r *http.Request, s *stream, v *view, fl *follower, d *diff) {
	quiet := time.NewTimer(keepaliveAfter)
	defer quiet.Stop()
	for ; s.err == nil; quiet.Reset(keepaliveAfter - time.Since(s.last)) { // from the last write
		select {
		case <-r.Context().Done():
			return
		case <-h.done:
			if rows, matched, sum := h.board.look(v.filter); !h.board.isDown() {
				keys := make([]string, len(rows))
				byKey := make(map[string]Row, len(rows))
				for i, row := range rows {
					keys[i], byKey[row.Key] = row.Key, row
				}
				if fr, ok := d.next(keys, byKey, matched, sum); ok {
					s.send("rows", fr)
				}
			}
			s.send("end", nil)
			return
		case t := <-fl.ch:
			batch := []Transition{t}
			for len(batch) < transitionsMax && len(fl.ch) > 0 {
				batch = append(batch, <-fl.ch)
			}
			s.send("transitions", batch)
		case <-v.ticked:
			if n := h.journal.takeMissed(fl); n > 0 {
				s.send("missed", n)
			}
			if fr, ok := d.next(h.board.frame(v)); ok {
				s.send("rows", fr)
			}
			if h.board.isDown() {
				s.send("end", nil)
				return
			}
		case <-quiet.C:
			s.keepalive(keepaliveAfter)
		}
	}
}
