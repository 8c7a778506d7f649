package tripwiretest

import (
	"fmt"
	"time"
)

// Op is a message that tells a script's target what to do with the one call
// it is sent in, for tests that decide each call's fate at the call site.
// The script's own faults come first (see Script); a call they let through
// carries out its Op in place of inner:
//
//  1. Panic: the target panics.
//  2. Hang: it waits for the call's context to end, notices a millisecond
//     late (as real code does, so its answer never ties with a deadline at
//     one instant) and answers ctx.Err().
//  3. Stuck: it ignores the context, waits until Stuck is closed, then fails.
//  4. Gate: it waits for a verdict on Gate: true goes on, false fails. If
//     the context ends first, it answers as Hang does.
//  5. It waits After, ignoring the context (a dependency that does not
//     watch it),
//  6. then answers Value and Err if either is set, fails if Fail, or else
//     answers Answer(Label).
//
// A failure wraps ErrInjected and names Label. At most one of Panic, Hang,
// Stuck and Gate is set; Panic, Hang and Stuck take no After, Fail, Err or
// Value, Fail takes no Err or Value, and After is not negative. A call
// whose Op breaks these rules is answered with an error wrapping ErrInvalid.
// An Op is carried out by value or by pointer.
//
// An actor target carries out an Op without blocking (see Script.Props): a
// Stuck or a Gate waits on a goroutine of its own, which ends only when
// Stuck is closed or Gate gives its verdict. It has no context: a Hang is
// never answered, and a Gate waits for its verdict only; Err wins over
// Value.
type Op struct {
	Label string          // names the call in its answer and its failure
	After time.Duration   // time spent in the target before answering
	Fail  bool            // fail with an error wrapping ErrInjected
	Err   error           // answer with Value and this error
	Value any             // answer with this value, not Answer(Label)
	Panic bool            // panic in the target
	Hang  bool            // wait for the call's context to end
	Stuck <-chan struct{} // ignore the context: wait until closed, then fail
	Gate  <-chan bool     // wait for a verdict: true goes on, false fails
}

// Answer is the value of a successful Op with label that sets no Value:
// "ok" without a label, "done:<label>" with one.
func Answer(label string) string {
	if label == "" {
		return "ok"
	}
	return "done:" + label
}

// opOf returns the Op that msg is, if it is one.
func opOf(msg any) (Op, bool) {
	switch m := msg.(type) {
	case Op:
		return m, true
	case *Op:
		if m != nil {
			return *m, true
		}
	}
	return Op{}, false
}

// name names o in errors: Op, or Op "label".
func (o Op) name() string {
	if o.Label == "" {
		return "Op"
	}
	return fmt.Sprintf("Op %q", o.Label)
}

// check returns an error wrapping ErrInvalid if o breaks Op's rules.
func (o Op) check() error {
	waits := 0
	for _, set := range []bool{o.Panic, o.Hang, o.Stuck != nil, o.Gate != nil} {
		if set {
			waits++
		}
	}
	answers := o.Fail || o.Err != nil || o.Value != nil
	switch {
	case o.After < 0:
		return fmt.Errorf("%w: %s: negative After %v", ErrInvalid, o.name(), o.After)
	case waits > 1:
		return fmt.Errorf("%w: %s: more than one of Panic, Hang, Stuck and Gate", ErrInvalid, o.name())
	case (o.Panic || o.Hang || o.Stuck != nil) && (answers || o.After != 0):
		return fmt.Errorf("%w: %s: Panic, Hang and Stuck take no After, Fail, Err or Value", ErrInvalid, o.name())
	case o.Fail && (o.Err != nil || o.Value != nil):
		return fmt.Errorf("%w: %s: Fail takes no Err or Value", ErrInvalid, o.name())
	}
	return nil
}

// fail is o's failure in call n, counted; how says what failed (" (stuck)").
func (s *Script) fail(o Op, n int64, how string) error {
	s.failures.Add(1)
	if o.Label == "" {
		return fmt.Errorf("%w (call %d)", ErrInjected, n)
	}
	return fmt.Errorf("%s%s: %w (call %d)", o.Label, how, ErrInjected, n)
}

// panicOp raises o's panic in call n, counted.
func (s *Script) panicOp(o Op, n int64) {
	s.panics.Add(1)
	if o.Label == "" {
		panic(fmt.Sprintf("tripwiretest: injected panic (call %d)", n))
	}
	panic(fmt.Sprintf("tripwiretest: injected panic: %s (call %d)", o.Label, n))
}

// result is o's answer in call n once it has waited.
func (s *Script) result(o Op, n int64) (any, error) {
	switch {
	case o.Err != nil || o.Value != nil:
		return o.Value, o.Err
	case o.Fail:
		return nil, s.fail(o, n, "")
	}
	return Answer(o.Label), nil
}
