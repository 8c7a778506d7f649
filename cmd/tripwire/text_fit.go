package main

import (
	"strings"
	"unicode/utf8"
)

// The live table's text is measured in terminal columns: one per rune, as
// every rune it prints takes one (ASCII, "·", "×", "µ", "…"), and none for
// the ANSI sequences that colour it.

// visibleWidth is the number of columns s takes on a terminal.
func visibleWidth(s string) int {
	n := 0
	for i := 0; i < len(s); {
		if j := escapeEnd(s, i); j > i {
			i = j
			continue
		}
		_, size := utf8.DecodeRuneInString(s[i:])
		i += size
		n++
	}
	return n
}

// escapeEnd is the end of the ANSI control sequence (ESC [ ... final byte)
// that starts at s[i], or i if none does.
func escapeEnd(s string, i int) int {
	if i+1 >= len(s) || s[i] != '\x1b' || s[i+1] != '[' {
		return i
	}
	for j := i + 2; j < len(s); j++ {
		if s[j] >= 0x40 && s[j] <= 0x7e {
			return j + 1
		}
	}
	return len(s)
}

// cut shortens s to at most width columns, ending it with "…" if it had to,
// and keeps its colour sequences whole (resetting the colour after a cut).
func cut(s string, width int) string {
	if visibleWidth(s) <= width {
		return s
	}
	if width <= 0 {
		return ""
	}
	var b strings.Builder
	n, coloured := 0, false
	for i := 0; i < len(s); {
		if j := escapeEnd(s, i); j > i {
			b.WriteString(s[i:j])
			coloured = true
			i = j
			continue
		}
		if n == width-1 {
			break
		}
		_, size := utf8.DecodeRuneInString(s[i:])
		b.WriteString(s[i : i+size])
		i += size
		n++
	}
	b.WriteString("…")
	if coloured {
		b.WriteString(ansiReset)
	}
	return b.String()
}

// firstFitting is the first of forms, longest to shortest, that fits in
// width columns, else the last cut to fit.
func firstFitting(width int, forms ...string) string {
	for _, f := range forms {
		if visibleWidth(f) <= width {
			return f
		}
	}
	return cut(forms[len(forms)-1], width)
}

// wrapWords breaks plain text into lines of at most width columns at its
// spaces; a word longer than a line is cut.
func wrapWords(text string, width int) []string {
	var lines []string
	line := ""
	for _, word := range strings.Fields(text) {
		switch {
		case line == "":
			line = word
		case visibleWidth(line)+1+visibleWidth(word) <= width:
			line += " " + word
		default:
			lines = append(lines, cut(line, width))
			line = word
		}
	}
	if line != "" {
		lines = append(lines, cut(line, width))
	}
	return lines
}
