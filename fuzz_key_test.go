package tripwire_test

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/tripwire-go/tripwire"
	"github.com/tripwire-go/tripwire/internal/testkit"
)

// fuzzRegistry returns one registry shared by every input of a fuzz target;
// it is shut down when the fuzz target ends.
func fuzzRegistry(f *testing.F) *tripwire.Registry {
	f.Helper()
	return testkit.Start(f, testkit.NewSystem(f))
}

// okTarget answers every call at once.
var okTarget = tripwire.Func(func(context.Context, any) (any, error) { return "ok", nil })

// validKey is the documented key rule, written apart from the library's:
// 1 to 256 bytes of valid UTF-8 without invisible characters — the Unicode
// categories Cc (C0, C1, DEL), Cf (format: U+200B, U+202E, U+FEFF, ...), Zl
// and Zp (U+2028, U+2029).
func validKey(key string) bool {
	if key == "" || len(key) > 256 || !utf8.ValidString(key) {
		return false
	}
	return !strings.ContainsFunc(key, func(r rune) bool {
		return unicode.In(r, unicode.Cc, unicode.Cf, unicode.Zl, unicode.Zp)
	})
}

// FuzzKey checks Register's key validation: any string is either registered
// or refused with ErrInvalidKey, exactly as the documented rule says; a
// registered key is listed by Keys, reachable, refused a second time with
// ErrDuplicateKey, and gone after Unregister.
func FuzzKey(f *testing.F) {
	for _, k := range []string{
		"", "a", "weather", "billing/eu", "a#1", "$1", "tripwire-1", "deadletter", " ",
		strings.Repeat("x", 256), strings.Repeat("x", 257),
		strings.Repeat("é", 128), strings.Repeat("é", 128) + "a",
		"a\x00b", "line\nbreak", "tab\t", "\x7f", "\u0085", "\u009f", "\u00a0",
		"\u200b", "\u2028", "\u2029", "\ufeff", "\u202e", "ab\u00adc", "\u200d", "日本語", "\xff", "a\xc3", "\xed\xa0\x80", "🔥",
	} {
		f.Add(k)
	}
	reg := fuzzRegistry(f)
	f.Fuzz(func(t *testing.T, key string) {
		err := reg.Register(context.Background(), key, okTarget, tripwire.Settings{})
		if !validKey(key) {
			if !errors.Is(err, tripwire.ErrInvalidKey) {
				t.Fatalf("Register(%q) = %v, want ErrInvalidKey", key, err)
			}
			if slices.Contains(reg.Keys(), key) {
				t.Fatalf("refused key %q is listed by Keys", key)
			}
			if _, err := reg.State(key); !errors.Is(err, tripwire.ErrInvalidKey) {
				t.Fatalf("State(%q) = %v, want ErrInvalidKey", key, err)
			}
			return
		}
		if err != nil {
			t.Fatalf("Register(%q) = %v, want success for a valid key", key, err)
		}
		defer func() {
			if err := reg.Unregister(context.Background(), key); err != nil {
				t.Fatalf("Unregister(%q): %v", key, err)
			}
			if slices.Contains(reg.Keys(), key) {
				t.Fatalf("Keys() still lists %q after Unregister", key)
			}
		}()
		if !slices.Contains(reg.Keys(), key) {
			t.Fatalf("Keys() = %q, missing %q", reg.Keys(), key)
		}
		if v, err := reg.Call(context.Background(), key, "ping"); err != nil || v != "ok" {
			t.Fatalf("Call(%q) = %v, %v", key, v, err)
		}
		if err := reg.Register(context.Background(), key, okTarget, tripwire.Settings{}); !errors.Is(err, tripwire.ErrDuplicateKey) {
			t.Fatalf("second Register(%q) = %v, want ErrDuplicateKey", key, err)
		}
	})
}
