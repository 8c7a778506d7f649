package grafana

import (
	"encoding/json"
	"fmt"
	"regexp"
	"sort"
	"strings"
)

// scrapeLabels are the labels the Prometheus server adds to every series
// it scrapes (from its scrape config), which no exporter's output shows.
var scrapeLabels = map[string]bool{"instance": true, "job": true}

// panelQuery is one PromQL query of the dashboard and the legend it feeds.
type panelQuery struct {
	where, expr, legend string
}

// dashboard is the part of Grafana's JSON model the check reads.
type dashboard struct {
	Panels      []panel `json:"panels"`
	Annotations struct {
		List []struct {
			Name       string `json:"name"`
			Expr       string `json:"expr"`
			TextFormat string `json:"textFormat"`
		} `json:"list"`
	} `json:"annotations"`
	Templating struct {
		List []struct {
			Name  string          `json:"name"`
			Type  string          `json:"type"`
			Query json.RawMessage `json:"query"`
		} `json:"list"`
	} `json:"templating"`
}

type panel struct {
	Title   string  `json:"title"`
	Type    string  `json:"type"`
	Panels  []panel `json:"panels"`
	Targets []struct {
		Expr         string `json:"expr"`
		LegendFormat string `json:"legendFormat"`
	} `json:"targets"`
}

var (
	legendLabel = regexp.MustCompile(`\{\{\s*([a-zA-Z_][a-zA-Z0-9_]*)\s*\}\}`)
	labelValues = regexp.MustCompile(`^label_values\((.*),\s*([a-zA-Z_][a-zA-Z0-9_]*)\)$`)
	plainValue  = regexp.MustCompile(`^[a-zA-Z0-9_]+$`)
)

// queries lists every query of the dashboard: its panels' (rows' panels
// too) and its annotations'. A panel that is not a row and has no query is
// a problem.
func (d dashboard) queries() ([]panelQuery, []string) {
	var out []panelQuery
	var problems []string
	var walk func([]panel)
	walk = func(ps []panel) {
		for _, p := range ps {
			walk(p.Panels)
			if p.Type != "row" && len(p.Targets) == 0 {
				problems = append(problems, fmt.Sprintf("panel %q has no query", p.Title))
			}
			for _, t := range p.Targets {
				out = append(out, panelQuery{where: "panel " + p.Title, expr: t.Expr, legend: t.LegendFormat})
			}
		}
	}
	walk(d.Panels)
	for _, a := range d.Annotations.List {
		out = append(out, panelQuery{where: "annotation " + a.Name, expr: a.Expr, legend: a.TextFormat})
	}
	return out, problems
}

// check lists what the dashboard uses that the scrape s does not have: a
// metric, a label of it, a value of a label, a label a legend shows; and the
// series of s the dashboard never uses.
func check(raw []byte, s series) []string {
	var d dashboard
	if err := json.Unmarshal(raw, &d); err != nil {
		return []string{"the dashboard is not JSON: " + err.Error()}
	}
	qs, problems := d.queries()
	if len(qs) == 0 {
		problems = append(problems, "the dashboard has no query")
	}
	used := map[string]bool{}
	for _, pq := range qs {
		problems = append(problems, checkQuery(pq, s, used)...)
	}
	for _, v := range d.Templating.List {
		if v.Type != "query" {
			continue
		}
		var text string
		var obj struct {
			Query string `json:"query"`
		}
		if json.Unmarshal(v.Query, &text) != nil {
			if err := json.Unmarshal(v.Query, &obj); err != nil {
				problems = append(problems, fmt.Sprintf("variable %s: query %s", v.Name, v.Query))
				continue
			}
			text = obj.Query
		}
		m := labelValues.FindStringSubmatch(text)
		if m == nil {
			problems = append(problems, fmt.Sprintf("variable %s: %q is not label_values(selector, label)", v.Name, text))
			continue
		}
		problems = append(problems, checkQuery(panelQuery{where: "variable " + v.Name, expr: m[1], legend: "{{" + m[2] + "}}"}, s, used)...)
	}
	var names []string
	for name := range s {
		if strings.HasPrefix(name, "tripwire_") && !used[name] {
			names = append(names, name)
		}
	}
	sort.Strings(names)
	for _, name := range names {
		problems = append(problems, fmt.Sprintf("series %s is exported but no panel shows it", name))
	}
	return problems
}

// checkQuery checks one query against s, and marks the series it uses.
func checkQuery(pq panelQuery, s series, used map[string]bool) []string {
	var problems []string
	bad := func(format string, args ...any) {
		problems = append(problems, pq.where+": "+fmt.Sprintf(format, args...)+"\n\t"+pq.expr)
	}
	q, err := parseQuery(pq.expr)
	if err != nil {
		bad("cannot read the query: %v", err)
		return problems
	}
	if len(q.selectors) == 0 {
		bad("the query names no metric")
	}
	has := func(label string) bool { // some metric of the query has label
		for _, sel := range q.selectors {
			if s[sel.metric][label] != nil {
				return true
			}
		}
		return scrapeLabels[label]
	}
	for _, sel := range q.selectors {
		labels, ok := s[sel.metric]
		if !ok {
			bad("metric %s is not exported", sel.metric)
			continue
		}
		used[sel.metric] = true
		for _, m := range sel.matchers {
			if scrapeLabels[m.label] {
				continue
			}
			values, ok := labels[m.label]
			if !ok {
				bad("%s has no label %s", sel.metric, m.label)
				continue
			}
			if strings.Contains(m.value, "$") {
				continue // a dashboard variable
			}
			alternatives := []string{m.value}
			if m.op == "=~" || m.op == "!~" {
				alternatives = strings.Split(m.value, "|")
			}
			for _, v := range alternatives {
				if !plainValue.MatchString(v) {
					bad("cannot check the value %q of %s", m.value, m.label)
				} else if !values[v] {
					bad("%s{%s} never takes the value %q", sel.metric, m.label, v)
				}
			}
		}
	}
	for _, label := range q.grouping {
		if !has(label) {
			bad("groups by %s, which its metrics do not have", label)
		}
	}
	for _, m := range legendLabel.FindAllStringSubmatch(pq.legend, -1) {
		label := m[1]
		switch {
		case len(q.grouping) > 0 && !contains(q.grouping, label):
			bad("the legend shows %s, which the query's grouping drops", label)
		case len(q.grouping) == 0 && !has(label):
			bad("the legend shows %s, which its metrics do not have", label)
		}
	}
	return problems
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
