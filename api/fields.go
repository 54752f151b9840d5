package api

import (
	"cmp"
	"fmt"
	"slices"
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

// Requirements returns the clauses themselves.
func (rs FieldRequirements) Requirements() FieldRequirements { return rs }

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
		if f == "" && v == "" {
			continue // as in ParseFieldSelector: a clause about nothing
		}
		out = append(out, FieldRequirement{Field: f, Operator: r.Operator, Value: v})
	}
	return newFieldRequirements(out), nil
}

// newFieldRequirements puts the clauses in one canonical order (field, then
// operator, then value), so two spellings of a selector compare equal.
func newFieldRequirements(rs FieldRequirements) FieldRequirements {
	slices.SortFunc(rs, func(a, b FieldRequirement) int {
		return cmp.Or(cmp.Compare(a.Field, b.Field), cmp.Compare(a.Operator, b.Operator), cmp.Compare(a.Value, b.Value))
	})
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
// inside a value (kubectl's EscapeValue). The field is everything before
// the first operator, taken as it is: no escapes, no trimming, so
// "a =b" names the field "a " (which no kind has). Which field names a kind
// supports is the apiserver's business (ResourceInfo.ObjectFields), not the
// parser's. The error messages are Kubernetes'.
//
// Kubernetes: apimachinery/pkg/fields/selector.go, ParseSelector.
func ParseFieldSelector(s string) (FieldSelector, error) {
	var rs FieldRequirements
	// Kubernetes sorts the terms before reading them, which decides the
	// term a message names when several are wrong.
	terms := splitFieldTerms(s)
	slices.Sort(terms)
	for _, term := range terms {
		if term == "" {
			continue
		}
		field, op, raw, ok := splitFieldTerm(term)
		if !ok {
			return nil, fmt.Errorf("invalid selector: '%s'; can't understand '%s'", s, term)
		}
		value, err := UnescapeFieldValue(raw)
		if err != nil {
			return nil, err
		}
		if field == "" && value == "" {
			continue // "=" and "!=" select everything in Kubernetes
		}
		r := FieldRequirement{Field: field, Operator: SelectionEquals, Value: value}
		if op == "!=" {
			r.Operator = SelectionNotEquals
		}
		rs = append(rs, r)
	}
	return newFieldRequirements(rs), nil
}

// splitFieldTerms splits on commas that are not escaped. Like Kubernetes'
// splitTerms it walks runes, so a backslash escapes the whole rune after it.
func splitFieldTerms(s string) []string {
	var terms []string
	start := 0
	escaped := false
	for i, c := range s {
		switch {
		case escaped:
			escaped = false
		case c == '\\':
			escaped = true
		case c == ',':
			terms = append(terms, s[start:i])
			start = i + 1
		}
	}
	return append(terms, s[start:])
}

// splitFieldTerm splits at the first operator; at each position "!=" and
// "==" are tried before "=". A field has no escapes, so a backslash in it
// is an ordinary character.
func splitFieldTerm(term string) (field, op, value string, ok bool) {
	for i := range term {
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
// unescaped ',' or '=', is an error, in Kubernetes' words (which print the
// offending character as its code point: "unescaped character in value: 61").
func UnescapeFieldValue(v string) (string, error) {
	if !strings.ContainsAny(v, `\,=`) {
		return v, nil
	}
	var b strings.Builder
	escaped := false
	for _, c := range v {
		if escaped {
			switch c {
			case '\\', ',', '=':
				b.WriteRune(c)
			default:
				return "", fmt.Errorf("invalid field selector: invalid escape sequence: %s", string([]rune{'\\', c}))
			}
			escaped = false
			continue
		}
		switch c {
		case '\\':
			escaped = true
		case ',', '=':
			return "", fmt.Errorf("invalid field selector: unescaped character in value: %d", c)
		default:
			b.WriteRune(c)
		}
	}
	if escaped {
		return "", fmt.Errorf("invalid field selector: invalid escape sequence: %s", `\`)
	}
	return b.String(), nil
}
