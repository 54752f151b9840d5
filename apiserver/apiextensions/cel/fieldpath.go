package cel

import (
	"errors"
	"fmt"
	"strings"

	"kubeloop/apiserver/apiextensions/field"
	"kubeloop/apiserver/apiextensions/schema"
)

// ValidFieldPath reads a rule's fieldPath (or a selectable field's
// jsonPath): ".a.b" or ".a['b.c']" steps through properties, or into a
// map's values (additionalProperties). It returns the path as a field
// path ("a.b", a map key as "a[k]") and the schema it reaches. With
// allowArrayNotation false, the ['…'] form is refused. Kubernetes:
// apiextensions' cel/validation.go (ValidFieldPath), the same grammar and
// errors.
func ValidFieldPath(jsonPath string, s *schema.Structural, allowArrayNotation ...bool) (string, *schema.Structural, error) {
	allowArray := len(allowArrayNotation) == 0 || allowArrayNotation[0]
	var p field.Path
	step := func(name string) error {
		switch {
		case s.Properties != nil:
			next, ok := s.Properties[name]
			if !ok {
				return errors.New("does not refer to a valid field")
			}
			p, s = p.Child(name), &next
		case s.AdditionalProperties != nil:
			p, s = p.Key(name), s.AdditionalProperties.Structural
			if s == nil {
				return errors.New("does not refer to a valid field")
			}
		default:
			return errors.New("does not refer to a valid field")
		}
		return nil
	}
	toks := tokenizePath(jsonPath)
	for i := 0; i < len(toks); i++ {
		switch toks[i] {
		case "[":
			if !allowArray {
				return "", nil, errors.New("array notation is not allowed")
			}
			if i+1 >= len(toks) {
				return "", nil, errors.New("unexpected end of JSON path")
			}
			i++
			tok := toks[i]
			if len(tok) < 2 || tok[0] != '\'' || tok[len(tok)-1] != '\'' {
				return "", nil, fmt.Errorf("expected single quoted string but got %s", tok)
			}
			name, err := unescapeSingleQuote(tok[1 : len(tok)-1])
			if err != nil {
				return "", nil, fmt.Errorf("invalid string literal: %w", err)
			}
			if err := step(name); err != nil {
				return "", nil, err
			}
			if i+1 >= len(toks) {
				return "", nil, errors.New("unexpected end of JSON path")
			}
			i++
			if toks[i] != "]" {
				return "", nil, fmt.Errorf("expected ] but got %s", toks[i])
			}
		case ".":
			if i+1 >= len(toks) {
				return "", nil, errors.New("unexpected end of JSON path")
			}
			i++
			if err := step(toks[i]); err != nil {
				return "", nil, err
			}
		default:
			return "", nil, fmt.Errorf("expected [ or . but got: %s", toks[i])
		}
	}
	return p.String(), s, nil
}

// tokenizePath splits at '.', '[' and ']' (each its own token), keeping a
// single-quoted string, delimiters and escaped quotes included, whole.
func tokenizePath(s string) []string {
	var toks []string
	for len(s) > 0 {
		if s[0] == '\'' {
			end := len(s)
			for i := 1; i < len(s); i++ {
				if s[i] == '\'' && s[i-1] != '\\' {
					end = i + 1
					break
				}
			}
			toks, s = append(toks, s[:end]), s[end:]
			continue
		}
		if strings.ContainsRune(".[]", rune(s[0])) {
			toks, s = append(toks, s[:1]), s[1:]
			continue
		}
		end := strings.IndexAny(s, ".[]")
		if end < 0 {
			end = len(s)
		}
		toks, s = append(toks, s[:end]), s[end:]
	}
	return toks
}

func unescapeSingleQuote(s string) (string, error) {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '\\' || i+1 == len(s) {
			b.WriteByte(s[i])
			continue
		}
		i++
		switch s[i] {
		case 'a':
			b.WriteByte('\a')
		case 'b':
			b.WriteByte('\b')
		case 'f':
			b.WriteByte('\f')
		case 'n':
			b.WriteByte('\n')
		case 'r':
			b.WriteByte('\r')
		case 't':
			b.WriteByte('\t')
		case 'v':
			b.WriteByte('\v')
		case '\'':
			b.WriteByte('\'')
		case '\\':
			b.WriteByte('\\')
		default:
			return "", fmt.Errorf("invalid escape char \\%c", s[i])
		}
	}
	return b.String(), nil
}
