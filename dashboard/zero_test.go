package dashboard

import (
	"net/http"
	"net/http/httptest"
	"testing"
)

// A Handler that New did not make (nil, or a zero value) answers 500 and
// closes without a panic.
func TestAHandlerNotMadeByNewAnswersAnErrorAndCloses(t *testing.T) {
	for name, h := range map[string]*Handler{"nil": nil, "zero": {}} {
		w := httptest.NewRecorder()
		h.ServeHTTP(w, httptest.NewRequest(http.MethodGet, "/api/keys", nil))
		if w.Code != http.StatusInternalServerError {
			t.Errorf("%s: %d %q, want 500", name, w.Code, w.Body)
		}
		h.Close()
		h.Close()
	}
}
