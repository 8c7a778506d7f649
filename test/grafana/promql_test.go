package grafana

import (
	"fmt"
	"strings"
)

// A small reader of the PromQL the dashboard uses — selectors with label
// matchers, functions, aggregations with by/without, binary operators and
// range brackets — enough to list what a query names. It refuses what it
// does not know (a selector without a metric name), so the check never
// passes a query it did not understand.

// matcher is one label matcher of a selector: label op "value".
type matcher struct {
	label, op, value string
}

// selector is a metric name and its matchers.
type selector struct {
	metric   string
	matchers []matcher
}

// query is what one PromQL expression names.
type query struct {
	selectors []selector
	grouping  []string // the labels of by, without, on, ignoring, group_left, group_right
}

type tokenKind int

const (
	tIdent tokenKind = iota
	tString
	tNumber
	tVar
	tPunct
)

type token struct {
	kind tokenKind
	text string
}

// grouping keywords take a parenthesised list of labels.
var groupingKeywords = map[string]bool{"by": true, "without": true, "on": true, "ignoring": true, "group_left": true, "group_right": true}

// keywords that are neither metrics nor functions.
var keywords = map[string]bool{"and": true, "or": true, "unless": true, "bool": true, "offset": true}

func lex(s string) ([]token, error) {
	var out []token
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n':
			i++
		case c == '"' || c == '\'':
			j := i + 1
			var b strings.Builder
			for ; j < len(s) && s[j] != c; j++ {
				if s[j] == '\\' && j+1 < len(s) {
					j++
				}
				b.WriteByte(s[j])
			}
			if j == len(s) {
				return nil, fmt.Errorf("unterminated string at %d", i)
			}
			out = append(out, token{tString, b.String()})
			i = j + 1
		case c == '[': // a range or a subquery: durations only
			j := strings.IndexByte(s[i:], ']')
			if j < 0 {
				return nil, fmt.Errorf("unterminated [ at %d", i)
			}
			i += j + 1
		case isIdentStart(c):
			j := i
			for j < len(s) && isIdentPart(s[j]) {
				j++
			}
			out = append(out, token{tIdent, s[i:j]})
			i = j
		case c == '$':
			j := i + 1
			if j < len(s) && s[j] == '{' {
				k := strings.IndexByte(s[j:], '}')
				if k < 0 {
					return nil, fmt.Errorf("unterminated ${ at %d", i)
				}
				j += k + 1
			} else {
				for j < len(s) && isIdentPart(s[j]) {
					j++
				}
			}
			out = append(out, token{tVar, s[i:j]})
			i = j
		case c >= '0' && c <= '9' || c == '.':
			j := i
			for j < len(s) && (isIdentPart(s[j]) || s[j] == '.') {
				j++
			}
			out = append(out, token{tNumber, s[i:j]})
			i = j
		case strings.IndexByte("=!<>", c) >= 0:
			j := i + 1
			if j < len(s) && (s[j] == '=' || s[j] == '~') {
				j++
			}
			out = append(out, token{tPunct, s[i:j]})
			i = j
		case strings.IndexByte("(){},+-*/%^", c) >= 0:
			out = append(out, token{tPunct, s[i : i+1]})
			i++
		default:
			return nil, fmt.Errorf("unexpected %q at %d", c, i)
		}
	}
	return out, nil
}

func isIdentStart(c byte) bool {
	return c == '_' || c == ':' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')
}

func isIdentPart(c byte) bool { return isIdentStart(c) || (c >= '0' && c <= '9') }

// parseQuery lists the selectors and grouping labels of a PromQL expression.
func parseQuery(expr string) (query, error) {
	toks, err := lex(expr)
	if err != nil {
		return query{}, err
	}
	var q query
	is := func(j int, text string) bool { return j < len(toks) && toks[j].kind == tPunct && toks[j].text == text }
	for j := 0; j < len(toks); j++ {
		t := toks[j]
		switch {
		case t.kind == tPunct && t.text == "{":
			return q, fmt.Errorf("a selector without a metric name")
		case t.kind != tIdent, keywords[t.text]:
			continue
		case groupingKeywords[t.text]:
			if !is(j+1, "(") {
				continue // group_left without labels
			}
			for j += 2; j < len(toks) && !is(j, ")"); j++ {
				if toks[j].kind == tIdent {
					q.grouping = append(q.grouping, toks[j].text)
				} else if !is(j, ",") {
					return q, fmt.Errorf("unexpected %q in %s(...)", toks[j].text, t.text)
				}
			}
		case is(j+1, "("): // a function or an aggregation
		case j+1 < len(toks) && toks[j+1].kind == tIdent && groupingKeywords[toks[j+1].text]: // sum by (...) (...)
		case is(j+1, "{"):
			sel := selector{metric: t.text}
			for j += 2; j < len(toks) && !is(j, "}"); j++ {
				if is(j, ",") {
					continue
				}
				if j+2 >= len(toks) || toks[j].kind != tIdent || toks[j+1].kind != tPunct || toks[j+2].kind != tString {
					return q, fmt.Errorf("a matcher of %s that is not label op \"value\"", t.text)
				}
				sel.matchers = append(sel.matchers, matcher{toks[j].text, toks[j+1].text, toks[j+2].text})
				j += 2
			}
			q.selectors = append(q.selectors, sel)
		default:
			q.selectors = append(q.selectors, selector{metric: t.text})
		}
	}
	return q, nil
}
