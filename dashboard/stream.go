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

// stream writes server-sent events and remembers the first failed write.
type stream struct {
	w    http.ResponseWriter
	rc   *http.ResponseController
	err  error
	last time.Time // of the last write
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

// keepalive writes a comment, which no page sees, if nothing was written
// for idle: proxies that close quiet connections leave the stream open.
func (s *stream) keepalive(idle time.Duration) {
	if time.Since(s.last) >= idle {
		s.write([]byte(": keepalive\n\n"))
	}
}

func (s *stream) write(msg []byte) {
	if s.err != nil {
		return
	}
	s.last = time.Now()
	if err := s.rc.SetWriteDeadline(s.last.Add(writeTimeout)); err != nil && !errors.Is(err, http.ErrNotSupported) {
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
