package dashboard

import "net/http"

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
			writeError(w, http.StatusMethodNotAllowed, errMethod)
			return
		}
		next(w, r)
	})
}

// sameOrigin refuses state-changing requests that a browser sends from a
// page of another origin (Sec-Fetch-Site, or Origin against Host), so a
// web page cannot act on the breakers with its visitor's credentials.
func sameOrigin(next http.Handler) http.Handler {
	p := http.NewCrossOriginProtection()
	p.SetDenyHandler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		writeError(w, http.StatusForbidden, errCrossOrigin)
	}))
	return p.Handler(next)
}
