package main

import (
	"errors"
	"io"
	"strconv"
	"time"

	"github.com/tripwire-go/tripwire/cmd/tripwire/internal/demo"
	"github.com/tripwire-go/tripwire/state"
)

// patternValue is the -pattern flag.
type patternValue struct{ p *demo.Pattern }

func (v patternValue) String() string {
	if v.p == nil {
		return ""
	}
	return string(*v.p)
}

func (v patternValue) Set(s string) error {
	p, err := demo.ParsePattern(s)
	if err == nil {
		*v.p = p
	}
	return err
}

// windowValue is the -window flag: a count of calls, or a period.
type windowValue struct{ w *state.Window }

func (v windowValue) String() string {
	switch {
	case v.w == nil:
		return ""
	case v.w.Size > 0:
		return strconv.Itoa(v.w.Size)
	case v.w.Period > 0:
		return v.w.Period.String()
	}
	return ""
}

func (v windowValue) Set(s string) error {
	if n, err := strconv.Atoi(s); err == nil {
		if n <= 0 {
			return errors.New("want a positive number of calls")
		}
		v.w.Size, v.w.Period = n, 0
		return nil
	}
	d, err := time.ParseDuration(s)
	if err != nil || d <= 0 {
		return errors.New("want a number of calls (20) or a positive period (5s)")
	}
	v.w.Size, v.w.Period = 0, d
	return nil
}

// liveMode is the -live flag.
type liveMode string

const (
	liveAuto   liveMode = "auto"
	liveAlways liveMode = "always"
	liveNever  liveMode = "never"
)

func (m *liveMode) String() string {
	if m == nil || *m == "" {
		return string(liveAuto)
	}
	return string(*m)
}

func (m *liveMode) Set(s string) error {
	switch l := liveMode(s); l {
	case liveAuto, liveAlways, liveNever:
		*m = l
		return nil
	}
	return errors.New("want auto, always or never")
}

// on reports whether the demo draws the live table on w.
func (m liveMode) on(w io.Writer) bool {
	return m == liveAlways || (m != liveNever && isTerminal(w))
}
