package tripwiretest

import (
	"context"
	"time"
)

// do carries out o, the message of call n, in a function target.
func (s *Script) do(ctx context.Context, o Op, n int64) (any, error) {
	if err := o.check(); err != nil {
		return nil, err
	}
	switch {
	case o.Panic:
		s.panicOp(o, n)
	case o.Hang:
		s.hangs.Add(1)
		return hang(ctx)
	case o.Stuck != nil:
		s.hangs.Add(1)
		<-o.Stuck
		return nil, s.fail(o, n, " (stuck)")
	case o.Gate != nil:
		select {
		case ok := <-o.Gate:
			if !ok {
				return nil, s.fail(o, n, "")
			}
		case <-ctx.Done():
			return hang(ctx)
		}
	}
	time.Sleep(o.After)
	return s.result(o, n)
}

// hang waits for ctx to end and notices a millisecond late, as real code
// does, so its late answer never ties with the breaker's deadline timer at
// one instant.
func hang(ctx context.Context) (any, error) {
	<-ctx.Done()
	time.Sleep(time.Millisecond)
	return nil, ctx.Err()
}
