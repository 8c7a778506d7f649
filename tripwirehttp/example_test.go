package tripwirehttp_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"time"

	"github.com/tripwire-go/tripwire"
	"github.com/tripwire-go/tripwire/state"
	"github.com/tripwire-go/tripwire/tripwirehttp"
)

// A Transport gives each host a breaker of its own: after two failures the
// host's circuit opens, and requests to it fail at once without being sent.
func Example() {
	reg, err := tripwire.Start()
	if err != nil {
		panic(err)
	}
	defer reg.Shutdown(context.Background())

	transport, err := tripwirehttp.New(reg, nil, // nil: http.DefaultTransport
		tripwirehttp.WithSettings(tripwire.Settings{Threshold: 2, OpenTimeout: time.Minute}))
	if err != nil {
		panic(err)
	}
	client := &http.Client{Transport: transport}

	down := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "overloaded", http.StatusServiceUnavailable)
	}))
	defer down.Close()

	for range 3 {
		resp, err := client.Get(down.URL)
		if errors.Is(err, tripwire.ErrOpen) {
			fmt.Println("open: not sent")
			continue
		}
		if err != nil {
			panic(err)
		}
		resp.Body.Close() // a failure status still comes back, body and all
		fmt.Println(resp.Status)
	}
	// Output:
	// 503 Service Unavailable
	// 503 Service Unavailable
	// open: not sent
}

// WithKey chooses what shares a breaker: here one per tenant of a
// multi-tenant API, named by a header.
func ExampleWithKey() {
	reg, _ := tripwire.Start()
	defer reg.Shutdown(context.Background())

	perTenant := func(req *http.Request) (string, error) {
		tenant := req.Header.Get("X-Tenant")
		if tenant == "" {
			return "", errors.New("no X-Tenant header")
		}
		return "api/" + tenant, nil
	}
	transport, _ := tripwirehttp.New(reg, nil, tripwirehttp.WithKey(perTenant))

	req, _ := http.NewRequest(http.MethodGet, "http://127.0.0.1:1/", nil)
	_, err := transport.RoundTrip(req)
	fmt.Println(errors.Is(err, tripwirehttp.ErrKey))
	// Output:
	// true
}

// WithSettingsFor gives each host its own settings when its breaker is
// made; WithClassifier decides what a failure is.
func ExampleWithSettingsFor() {
	reg, _ := tripwire.Start()
	defer reg.Shutdown(context.Background())

	perHost := func(key string) (tripwire.Settings, error) {
		if strings.HasPrefix(key, "https://reports.example.com:") {
			return tripwire.Settings{CallTimeout: 30 * time.Second, IdleTimeout: time.Hour}, nil
		}
		return tripwire.Settings{Threshold: 3, CallTimeout: 2 * time.Second}, nil
	}
	only5xx := func(resp *http.Response, err error) state.Verdict {
		if err != nil || resp.StatusCode >= 500 {
			return state.Failure
		}
		return state.Success // a 429 is the caller's to slow down, not the host failing
	}
	transport, err := tripwirehttp.New(reg, nil,
		tripwirehttp.WithSettingsFor(perHost), tripwirehttp.WithClassifier(only5xx))
	fmt.Println(transport != nil, err)
	// Output:
	// true <nil>
}
