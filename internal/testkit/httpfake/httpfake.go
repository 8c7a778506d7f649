// Package httpfake is an in-memory HTTP transport for the tests of
// tripwirehttp, in fake time (testing/synctest), where real sockets do not
// run.
package httpfake

import (
	"context"
	"io"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
)

// Transport is an in-memory http.RoundTripper that counts its round trips
// and answers with Fn.
type Transport struct {
	Calls atomic.Int64
	Fn    func(*http.Request) (*http.Response, error)
}

// RoundTrip counts the round trip and answers with Fn.
func (f *Transport) RoundTrip(req *http.Request) (*http.Response, error) {
	f.Calls.Add(1)
	return f.Fn(req)
}

// Respond is a response with a tracked Body of text, read under req's
// context as net/http's are: once it ends, reads fail.
func Respond(req *http.Request, code int, text string) *http.Response {
	return &http.Response{
		StatusCode: code, Status: http.StatusText(code), Header: http.Header{}, Request: req,
		Body: &Body{ctx: req.Context(), r: strings.NewReader(text)},
	}
}

// Body records how a response body was used.
type Body struct {
	ctx context.Context
	r   *strings.Reader

	mu           sync.Mutex
	eof, closed  bool
	aliveAtClose bool // the request's context had not ended when it was closed
}

// Read reads the text, unless the request's context has ended.
func (b *Body) Read(p []byte) (int, error) {
	if err := b.ctx.Err(); err != nil {
		return 0, err
	}
	n, err := b.r.Read(p)
	if err == io.EOF {
		b.mu.Lock()
		b.eof = true
		b.mu.Unlock()
	}
	return n, err
}

// Close records the close.
func (b *Body) Close() error {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.closed, b.aliveAtClose = true, b.ctx.Err() == nil
	return nil
}

// State reports whether the body was read to its end, closed, and closed
// while it could still be read.
func (b *Body) State() (eof, closed, aliveAtClose bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.eof, b.closed, b.aliveAtClose
}
