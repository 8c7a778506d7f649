package tripwirehttp

import (
	"context"
	"io"
	"net/http"
)

// tieBody makes the end of resp's body — read to io.EOF, or closed — end
// the request's own context, which the round trip made. Until then the
// body reads on after RoundTrip has returned, bounded only by the request's
// context: the call is over, but the response is not. A response without
// a body (nil, or http.NoBody: HEAD, 204, 304) has nothing left to read,
// and its caller need not close it: its context ends at once, or it would
// stay registered on the caller's for as long as that lives.
func tieBody(resp *http.Response, cancel context.CancelCauseFunc) {
	if resp.Body == nil || resp.Body == http.NoBody {
		cancel(nil)
		return
	}
	switch b := resp.Body.(type) {
	case io.ReadWriteCloser: // 101 Switching Protocols: the connection itself
		resp.Body = &duplexBody{b: b, cancel: cancel}
	default:
		resp.Body = &body{rc: b, cancel: cancel}
	}
}

// body is a response body that ends its request's context when it ends.
type body struct {
	rc     io.ReadCloser
	cancel context.CancelCauseFunc
}

func (b *body) Read(p []byte) (int, error) {
	n, err := b.rc.Read(p)
	if err == io.EOF {
		// net/http has put the connection back in its pool by now: ending
		// the context releases it, and the request, without closing it.
		b.cancel(nil)
	}
	return n, err
}

func (b *body) Close() error {
	err := b.rc.Close()
	b.cancel(nil)
	return err
}

// duplexBody is the body of a switched protocol, which stays writable; its
// context ends only when it is closed.
type duplexBody struct {
	b      io.ReadWriteCloser
	cancel context.CancelCauseFunc
}

func (d *duplexBody) Read(p []byte) (int, error)  { return d.b.Read(p) }
func (d *duplexBody) Write(p []byte) (int, error) { return d.b.Write(p) }

func (d *duplexBody) Close() error {
	err := d.b.Close()
	d.cancel(nil)
	return err
}
