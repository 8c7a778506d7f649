package dashboard_test

import (
	"context"
	"encoding/json"
	"fmt"
	"log"
	"net/http"
	"net/http/httptest"

	"github.com/tripwire-go/tripwire"
	"github.com/tripwire-go/tripwire/dashboard"
)

// The dashboard of a service's registry, mounted under /breakers/ of its
// own server, its buttons only for operators.
func Example() {
	reg, err := tripwire.Start()
	if err != nil {
		log.Fatal(err)
	}
	defer reg.Shutdown(context.Background())
	charge := func(ctx context.Context, msg any) (any, error) { return "charged", nil }
	if err := reg.Register(context.Background(), "payments", tripwire.Func(charge), tripwire.Settings{}); err != nil {
		log.Fatal(err)
	}

	// isOperator is your own check: a session, a client certificate, a
	// header your proxy sets after it authenticated the request.
	isOperator := func(r *http.Request) bool { return r.Header.Get("X-Role") == "operator" }
	dash, err := dashboard.New(reg, dashboard.WithControl(isOperator), dashboard.WithTitle("checkout"))
	if err != nil {
		log.Fatal(err)
	}
	mux := http.NewServeMux()
	mux.Handle("/breakers/", http.StripPrefix("/breakers", dash))
	srv := &http.Server{Addr: "127.0.0.1:8080", Handler: mux}
	srv.RegisterOnShutdown(dash.Close) // event streams end when the server shuts down

	ts := httptest.NewServer(srv.Handler) // here, instead of srv.ListenAndServe()
	defer ts.Close()
	defer dash.Close()
	for _, role := range []string{"viewer", "operator"} {
		req, _ := http.NewRequest("GET", ts.URL+"/breakers/api/info", nil)
		req.Header.Set("X-Role", role)
		var info dashboard.Info
		if err := getJSON(req, &info); err != nil {
			log.Fatal(err)
		}
		fmt.Println(role, "may control:", info.Control)
	}
	req, _ := http.NewRequest("GET", ts.URL+"/breakers/api/breakers?state=closed", nil)
	var list dashboard.List
	if err := getJSON(req, &list); err != nil {
		log.Fatal(err)
	}
	fmt.Println(list.Summary.Keys, "key:", list.Rows[0].Key, list.Rows[0].State, list.Rows[0].Severity)
	// Output:
	// viewer may control: false
	// operator may control: true
	// 1 key: payments closed healthy
}

func getJSON(req *http.Request, v any) error {
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	return json.NewDecoder(resp.Body).Decode(v)
}
