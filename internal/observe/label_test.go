package observe

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/tripwire-go/tripwire/internal/errs"
)

func TestClassifyNamesEachOutcome(t *testing.T) {
	boom := errors.New("boom")
	for _, c := range []struct {
		err  error
		want string
	}{
		{nil, "success"},
		{boom, "failure"},
		{errs.ErrOpen, "rejected"},
		{fmt.Errorf("key k: %w", errs.ErrOpen), "rejected"},
		{errs.ErrTimeout, "timeout"},
		{context.Canceled, "canceled"},
		{fmt.Errorf("caller: %w", context.Canceled), "canceled"},
		// a target's own deadline error is the target failing, not Tripwire's timeout
		{context.DeadlineExceeded, "failure"},
		{errs.ErrBreakerRestarted, "failure"},
	} {
		t.Run(fmt.Sprint(c.err), func(t *testing.T) {
			require.Equal(t, c.want, LabelOf(c.err).String())
		})
	}
}
