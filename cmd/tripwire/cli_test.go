package main

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/tripwire-go/tripwire"
	"github.com/tripwire-go/tripwire/cmd/tripwire/internal/demo"
)

func TestHelpGoesToStdout(t *testing.T) {
	for name := range commands {
		for _, args := range [][]string{{name, "-h"}, {name, "-help"}, {name, "--help"}, {"help", name}} {
			// Given a request for a command's help, When it runs
			var out, errOut bytes.Buffer
			code := run(args, &out, &errOut)
			// Then the help is on stdout, where it can be paged, and nothing on stderr
			if code != 0 || !strings.HasPrefix(out.String(), "Usage: tripwire "+name) || errOut.Len() != 0 {
				t.Errorf("%q: exit %d, stdout %.40q, stderr %q", args, code, out.String(), errOut.String())
			}
		}
	}
}

func TestUnknownCommandExits2(t *testing.T) {
	for _, args := range [][]string{{"frob"}, {"help", "frob"}, {"-h", "frob"}} {
		// Given a command that does not exist, When it or its help is asked for
		var out, errOut bytes.Buffer
		code := run(args, &out, &errOut)
		// Then it exits 2, says so on stderr and lists the commands there
		if code != 2 || out.Len() != 0 || !strings.HasPrefix(errOut.String(), `tripwire: unknown command "frob"`) ||
			!strings.Contains(errOut.String(), "\n  demo ") {
			t.Errorf("%q: exit %d, stdout %q, stderr %q", args, code, out.String(), errOut.String())
		}
	}
}

func TestErrorsNameTheirCommandOnce(t *testing.T) {
	// Command lines each command refuses before it starts anything
	for _, args := range [][]string{
		{"demo", "-threshold", "-1"}, {"demo", "-keys", "0"}, {"demo", "-nope"}, {"demo", "-pattern", "nope"},
		{"demo", "-remote", "127.0.0.1:7070", "-listen", "bad"}, {"demo", "extra"},
		{"serve", "-threshold", "-1"}, {"serve", "-addr", "bad"}, {"serve", "-nope"},
		{"serve", "-soak", "-keys", "0"}, {"serve", "-soak", "-pattern", "flaky"},
		{"soak", "-keys", "0"}, {"soak", "-nope"}, {"soak", "extra"},
		{"node", "-listen", "bad"}, {"node", "-latency", "-1s"}, {"node", "-nope"}, {"node", "extra"},
	} {
		// When it is run
		var out, errOut bytes.Buffer
		code := run(args, &out, &errOut)
		// Then it exits 2; its first line names the command, once, with no prefix doubled after it
		first, _, _ := strings.Cut(errOut.String(), "\n")
		cmd := args[0]
		if args[1] == "-soak" {
			cmd = "serve -soak"
		}
		msg, named := strings.CutPrefix(first, "tripwire "+cmd+": ")
		if code != 2 || !named || msg != trimPrefixes(msg) || strings.Contains(errOut.String(), "tripwire: tripwire:") {
			t.Errorf("%q: exit %d, stderr %q", args, code, errOut.String())
		}
		// And the next line says where the flags are explained
		if !strings.Contains(errOut.String(), "\nRun 'tripwire "+args[0]+" -h' for every flag.\n") {
			t.Errorf("%q: no hint in %q", args, errOut.String())
		}
	}
}

func TestPrintErrorTakesPackagePrefixesOff(t *testing.T) {
	for err, want := range map[error]string{
		fmt.Errorf("%w: Threshold -1 is negative", tripwire.ErrInvalidSettings): "tripwire demo: invalid settings: Threshold -1 is negative\n",
		fmt.Errorf("%w: keys 0", demo.ErrInvalidConfig):                         "tripwire demo: invalid config: keys 0\n",
		fmt.Errorf("demo: spawn dep-01: %w", tripwire.ErrShutdown):              "tripwire demo: spawn dep-01: tripwire: registry shut down\n",
		errors.New("tripwire: tripwire: twice"):                                 "tripwire demo: twice\n",
		errors.New("-duration 0s must be positive"):                             "tripwire demo: -duration 0s must be positive\n",
	} {
		// Given an error of the library or a package behind a command, When the command prints it
		var b bytes.Buffer
		printError(&b, "demo", err)
		// Then it reads "tripwire demo: " and the message, its own prefixes off the front only
		if b.String() != want {
			t.Errorf("%q printed %q, want %q", err, b.String(), want)
		}
	}
}
