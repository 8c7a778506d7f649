package grafana

import (
	"fmt"
	"strings"
)

// series are the series of a scrape in the Prometheus text format: for each
// series name (a histogram's _bucket, _sum and _count apart), its labels
// and the values each label took.
type series map[string]map[string]map[string]bool

// parseScrape reads the text format's sample lines.
func parseScrape(text string) (series, error) {
	out := series{}
	for _, line := range strings.Split(text, "\n") {
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		name, rest, hasLabels := strings.Cut(line, "{")
		if !hasLabels {
			name, _, _ = strings.Cut(line, " ")
		}
		labels := out[name]
		if labels == nil {
			labels = map[string]map[string]bool{}
			out[name] = labels
		}
		if !hasLabels {
			continue
		}
		end := strings.LastIndexByte(rest, '}')
		if end < 0 {
			return nil, fmt.Errorf("no } in %q", line)
		}
		for _, pair := range splitLabels(rest[:end]) {
			k, v, ok := strings.Cut(pair, "=")
			if !ok || len(v) < 2 || v[0] != '"' || v[len(v)-1] != '"' {
				return nil, fmt.Errorf("label %q in %q", pair, line)
			}
			if labels[k] == nil {
				labels[k] = map[string]bool{}
			}
			labels[k][v[1:len(v)-1]] = true
		}
	}
	return out, nil
}

// splitLabels splits k="v",k2="v2" at the commas outside quotes.
func splitLabels(s string) []string {
	var out []string
	start, quoted := 0, false
	for i := 0; i < len(s); i++ {
		switch {
		case s[i] == '\\':
			i++
		case s[i] == '"':
			quoted = !quoted
		case s[i] == ',' && !quoted:
			out = append(out, s[start:i])
			start = i + 1
		}
	}
	if start < len(s) {
		out = append(out, s[start:])
	}
	return out
}
