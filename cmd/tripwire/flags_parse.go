package main

import (
	"errors"
	"flag"
	"io"
)

// parseFlags parses a command's args with fs. -h or -help prints help to
// stdout, so it can be paged, and returns flag.ErrHelp; a flag the flag
// package refuses is said on stderr, as every error of cmd is, followed by
// a hint. fs's own output is used only for its defaults in help.
func parseFlags(fs *flag.FlagSet, args []string, cmd string, stdout, stderr io.Writer, help func(io.Writer, *flag.FlagSet)) error {
	fs.Usage = func() {}
	fs.SetOutput(io.Discard)
	err := fs.Parse(args)
	switch {
	case errors.Is(err, flag.ErrHelp):
		fs.SetOutput(stdout)
		help(stdout, fs)
	case err != nil:
		printError(stderr, cmd, err)
		printHint(stderr, cmd)
	}
	return err
}
