package api

import (
	"fmt"
	"sort"
	"strings"
)

// FieldRequirement is one clause of a field selector: field=value or
// field!=value.
type FieldRequirement struct {
	Field    string
	Operator SelectionOperator // SelectionEquals or SelectionNotEquals
	Value    string
}

func (r FieldRequirement) matches(fields map[string]string) bool {
	// An absent field reads as "": "spec.nodeName=" selects unscheduled pods.
	eq := fields[r.Field] == r.Value
	if r.Operator == SelectionNotEquals {
		return !eq
	}
	return eq
}

func (r FieldRequirement) String() string {
	op := "="
	if r.Operator == SelectionNotEquals {
		op = "!="
	}
	return r.Field + op + EscapeFieldValue(r.Value)
}

// FieldRequirements is a field selector: the AND of its clauses, sorted by
// field. The empty one matches everything.
type FieldRequirements []FieldRequirement

// Matches is true when every clause holds.
func (rs FieldRequirements) Matches(fields map[string]string) bool {
	for _, r := range rs {
		if !r.matches(fields) {
			return false
		}
	}
	return true
}

// Empty is true for the selector with no clauses.
func (rs FieldRequirements) Empty() bool { return len(rs) == 0 }

// String renders the selector in the syntax ParseFieldSelector reads.
func (rs FieldRequirements) String() string {
	parts := make([]string, len(rs))
	for i, r := range rs {
		parts[i] = r.String()
	}
	return strings.Join(parts, ",")
}

// RequiresExactMatch returns the value of the first field=value clause.
func (rs FieldRequirements) RequiresExactMatch(field string) (string, bool) {
	for _, r := range rs {
		if r.Field == field && r.Operator != SelectionNotEquals {
			return r.Value, true
		}
	}
	return "", false
}

// Transform returns a copy with every clause passed through fn; the
// apiserver uses it to rewrite field names (and to reject unsupported ones
// by returning an error).
func (rs FieldRequirements) Transform(fn func(field, value string) (string, string, error)) (FieldRequirements, error) {
	out := make(FieldRequirements, 0, len(rs))
	for _, r := range rs {
		f, v, err := fn(r.Field, r.Value)
		if err != nil {
			return nil, err
		}
		out = append(out, FieldRequirement{Field: f, Operator: r.Operator, Value: v})
	}
	return newFieldRequirements(out), nil
}

func newFieldRequirements(rs FieldRequirements) FieldRequirements {
	sort.SliceStable(rs, func(i, j int) bool { return rs[i].Field < rs[j].Field })
	return rs
}

// EverythingFields is the field selector that matches every object.
func EverythingFields() FieldSelector { return FieldRequirements(nil) }

// FieldSelectorFromSet selects objects whose fields equal every pair of set.
func FieldSelectorFromSet(set map[string]string) FieldSelector {
	rs := make(FieldRequirements, 0, len(set))
	for f, v := range set {
		rs = append(rs, FieldRequirement{Field: f, Operator: SelectionEquals, Value: v})
	}
	return newFieldRequirements(rs)
}

// ParseFieldSelector reads "metadata.name=x,spec.nodeName!=". Only =, ==
// and != exist; a value may be empty; a backslash escapes ',', '=' and '\'
// inside a value (kubectl's EscapeValue). Which field names a kind supports
// is the apiserver's business (ResourceInfo.ObjectFields), not the parser's.
func ParseFieldSelector(s string) (FieldSelector, error) {
	var rs FieldRequirements
	for _, term := range splitFieldTerms(s) {
		if term == "" {
			continue
		}
		field, op, raw, ok := splitFieldTerm(term)
		if !ok {
			return nil, fmt.Errorf("invalid field selector: %q; can't understand %q (want field=value, field==value or field!=value)", s, term)
		}
		value, err := UnescapeFieldValue(raw)
		if err != nil {
			return nil, fmt.Errorf("invalid field selector: %q: %w", s, err)
		}
		r := FieldRequirement{Field: strings.TrimSpace(field), Operator: SelectionEquals, Value: value}
		if op == "!=" {
			r.Operator = SelectionNotEquals
		}
		rs = append(rs, r)
	}
	return newFieldRequirements(rs), nil
}

// splitFieldTerms splits on commas that are not escaped.
func splitFieldTerms(s string) []string {
	var terms []string
	start := 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++ // skip the escaped character
		case ',':
			terms = append(terms, s[start:i])
			start = i + 1
		}
	}
	return append(terms, s[start:])
}

// splitFieldTerm finds the first operator; at each position "!=" and "=="
// are tried before "=".
func splitFieldTerm(term string) (field, op, value string, ok bool) {
	for i := 0; i < len(term); i++ {
		if term[i] == '\\' {
			i++
			continue
		}
		for _, candidate := range []string{"!=", "==", "="} {
			if strings.HasPrefix(term[i:], candidate) {
				return term[:i], candidate, term[i+len(candidate):], true
			}
		}
	}
	return "", "", "", false
}

// EscapeFieldValue escapes '\', ',' and '=' so a value survives parsing.
func EscapeFieldValue(v string) string {
	r := strings.NewReplacer(`\`, `\\`, `,`, `\,`, `=`, `\=`)
	return r.Replace(v)
}

// UnescapeFieldValue undoes EscapeFieldValue; any other escape, or an
// unescaped ',' or '=', is an error.
func UnescapeFieldValue(v string) (string, error) {
	if !strings.ContainsAny(v, `\,=`) {
		return v, nil
	}
	var b strings.Builder
	for i := 0; i < len(v); i++ {
		c := v[i]
		switch c {
		case '\\':
			if i+1 >= len(v) {
				return "", fmt.Errorf("invalid escape sequence at the end of %q", v)
			}
			i++
			switch v[i] {
			case '\\', ',', '=':
				b.WriteByte(v[i])
			default:
				return "", fmt.Errorf("invalid escape sequence '\\%c' in %q", v[i], v)
			}
		case ',', '=':
			return "", fmt.Errorf("invalid field value %q: unescaped '%c' at position %d", v, c, i)
		default:
			b.WriteByte(c)
		}
	}
	return b.String(), nil
}
