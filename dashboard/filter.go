package dashboard

import (
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/tripwire-go/tripwire/state"
)

// filter is what a list or a stream shows: the keys with prefix, in one of
// states (none: any), the limit worst of them.
type filter struct {
	prefix string
	states []state.State
	limit  int
}

// Limits of a list or a stream: what one shows unless asked, and at most.
const (
	defaultLimit = 100
	maxLimit     = 1000
)

// admits reports whether a key in st passes f's states.
func (f filter) admits(st state.State) bool {
	return len(f.states) == 0 || slices.Contains(f.states, st)
}

// queryOf is r's query. One it cannot read (a bad escape, "%zz", or a
// semicolon) is a bad query: url.Values would drop that parameter, and
// with it the caller's filter.
func queryOf(r *http.Request) (url.Values, error) {
	q, err := url.ParseQuery(r.URL.RawQuery)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", errBadQuery, err)
	}
	return q, nil
}

// filterOfRequest is the filter of r's query.
func filterOfRequest(r *http.Request) (filter, error) {
	q, err := queryOf(r)
	if err != nil {
		return filter{}, err
	}
	return filterOf(q)
}

// filterOf reads ?prefix=, ?state= (closed, open, half_open, comma
// separated) and ?limit= (1 to 1000, default 100), each at most once.
// Anything else there is a bad query.
func filterOf(q url.Values) (filter, error) {
	f := filter{prefix: q.Get("prefix"), limit: defaultLimit}
	for _, name := range []string{"prefix", "state", "limit"} {
		if len(q[name]) > 1 {
			return f, fmt.Errorf("%w: %s given %d times (comma-separate states)", errBadQuery, name, len(q[name]))
		}
	}
	if len(f.prefix) > maxPrefix {
		return f, fmt.Errorf("%w: prefix longer than %d bytes", errBadQuery, maxPrefix)
	}
	if s := q.Get("state"); s != "" {
		for _, name := range strings.Split(s, ",") {
			var st state.State
			if err := st.UnmarshalText([]byte(strings.TrimSpace(name))); err != nil {
				return f, fmt.Errorf("%w: state %q (want closed, open or half_open)", errBadQuery, name)
			}
			if !slices.Contains(f.states, st) {
				f.states = append(f.states, st)
			}
		}
	}
	if s := q.Get("limit"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 1 || n > maxLimit {
			return f, fmt.Errorf("%w: limit %q (want 1 to %d)", errBadQuery, s, maxLimit)
		}
		f.limit = n
	}
	return f, nil
}

// maxPrefix is the longest prefix a query may filter on: a key's most bytes.
const maxPrefix = 256
