package dashboard

import (
	"net/http"
	"net/http/httptest"
	"testing"
	"testing/synctest"
	"time"

	"github.com/tripwire-go/tripwire/internal/testkit"
)

func TestAHandlerNeverClosedDoesNotOutliveItsRegistry(t *testing.T) {
	testkit.InBubble(t, func(t *testing.T, e *testkit.Env) {
		// Given a dashboard that nobody closes, once looked at
		testkit.Register(t, e.Reg, "k01", newDependency().target("k01"), quiet)
		h, err := New(e.Reg)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(h.Close) // only so that a failure does not hang the bubble
		if code := get(h, "/api/breakers"); code != http.StatusOK {
			t.Fatalf("list %d", code)
		}
		// When its registry shuts down, and a refresh goes by
		if err := e.Reg.Shutdown(t.Context()); err != nil {
			t.Fatal(err)
		}
		time.Sleep(defaultRefresh)
		synctest.Wait()
		// Then its goroutine has returned
		select {
		case <-h.exited:
		default:
			t.Fatal("the board's goroutine still runs after its registry shut down")
		}
		// and a list answers 503 at once
		if code := get(h, "/api/breakers"); code != http.StatusServiceUnavailable {
			t.Fatalf("list after shutdown %d", code)
		}
	})
}

func TestAListAfterShutdownBeforeAnyCensusIsAnswered503(t *testing.T) {
	testkit.InBubble(t, func(t *testing.T, e *testkit.Env) {
		// Given a dashboard nobody looked at, whose registry shut down a refresh ago
		h, err := New(e.Reg)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(h.Close)
		if err := e.Reg.Shutdown(t.Context()); err != nil {
			t.Fatal(err)
		}
		time.Sleep(defaultRefresh)
		synctest.Wait()
		// When the list is read
		code := get(h, "/api/breakers")
		// Then it is 503 (it does not wait for a census that will not come)
		if code != http.StatusServiceUnavailable {
			t.Fatalf("list %d", code)
		}
	})
}

// get serves GET path on h in the test's goroutine and returns the status.
func get(h *Handler, path string) int {
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest("GET", path, nil))
	return rec.Code
}
