package tripwirehttp

import (
	"fmt"
	"net"
	"net/http"
	"strings"
)

// HostKey is the default key of a request: the scheme and host of its URL
// in lower case, with the port always written —
// "https://api.example.com:443", "http://[::1]:8080". The port of a URL
// without one is 80 for http and 443 for https; a URL of another scheme
// without a port keeps the bare host. The URL is where the connection goes:
// a Host header that names another host does not change the key. A request
// without a URL, a scheme or a host is ErrKey.
func HostKey(req *http.Request) (string, error) {
	if req == nil || req.URL == nil {
		return "", fmt.Errorf("%w: a request without a URL", ErrKey)
	}
	scheme, host := strings.ToLower(req.URL.Scheme), strings.ToLower(req.URL.Hostname())
	if scheme == "" || host == "" {
		return "", fmt.Errorf("%w: URL %q has no scheme or no host", ErrKey, req.URL.Redacted())
	}
	port := req.URL.Port()
	if port == "" {
		switch scheme {
		case "http":
			port = "80"
		case "https":
			port = "443"
		default:
			if strings.Contains(host, ":") {
				host = "[" + host + "]"
			}
			return scheme + "://" + host, nil
		}
	}
	return scheme + "://" + net.JoinHostPort(host, port), nil
}
