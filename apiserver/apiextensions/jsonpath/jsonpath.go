package jsonpath

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
)

// step is one hop of a path: a field name, an index, or every child.
type step struct {
	name  string
	index int
	kind  stepKind
}

type stepKind int

const (
	fieldStep stepKind = iota
	indexStep
	wildcardStep
)

// Path is a parsed JSONPath.
type Path struct {
	src   string
	steps []step
}

// String is the path as written.
func (p *Path) String() string { return p.src }

// Parse reads a path such as ".spec.ports[0].name"; the braces of the
// template form ("{.spec.x}") are accepted and dropped.
func Parse(src string) (*Path, error) {
	s := strings.TrimSpace(src)
	if strings.HasPrefix(s, "{") && strings.HasSuffix(s, "}") {
		s = s[1 : len(s)-1]
	}
	s = strings.TrimPrefix(s, "$")
	p := &Path{src: src}
	for s != "" {
		switch s[0] {
		case '.':
			s = s[1:]
			end := strings.IndexAny(s, ".[")
			if end < 0 {
				end = len(s)
			}
			if end == 0 {
				return nil, fmt.Errorf("invalid JSONPath %q: empty field name", src)
			}
			name := s[:end]
			if name == "*" {
				p.steps = append(p.steps, step{kind: wildcardStep})
			} else {
				p.steps = append(p.steps, step{name: name})
			}
			s = s[end:]
		case '[':
			end := strings.IndexByte(s, ']')
			if end < 0 {
				return nil, fmt.Errorf("invalid JSONPath %q: unclosed [", src)
			}
			inner := strings.TrimSpace(s[1:end])
			s = s[end+1:]
			switch {
			case inner == "*":
				p.steps = append(p.steps, step{kind: wildcardStep})
			case len(inner) >= 2 && (inner[0] == '\'' || inner[0] == '"') && inner[len(inner)-1] == inner[0]:
				p.steps = append(p.steps, step{name: inner[1 : len(inner)-1]})
			default:
				i, err := strconv.Atoi(inner)
				if err != nil {
					return nil, fmt.Errorf("invalid JSONPath %q: unsupported subscript [%s]", src, inner)
				}
				p.steps = append(p.steps, step{kind: indexStep, index: i})
			}
		default:
			return nil, fmt.Errorf("invalid JSONPath %q: expected . or [ at %q", src, s)
		}
	}
	return p, nil
}

// Find returns every value the path reaches in v, in document order
// (map children sorted by key under [*]); none when a step is missing.
func (p *Path) Find(v any) []any {
	cur := []any{v}
	for _, st := range p.steps {
		var next []any
		for _, x := range cur {
			next = appendStep(next, st, x)
		}
		if len(next) == 0 {
			return nil
		}
		cur = next
	}
	return cur
}

func appendStep(out []any, st step, x any) []any {
	switch st.kind {
	case fieldStep:
		if m, ok := x.(map[string]any); ok {
			if v, ok := m[st.name]; ok {
				out = append(out, v)
			}
		}
	case indexStep:
		if l, ok := x.([]any); ok {
			i := st.index
			if i < 0 {
				i += len(l)
			}
			if i >= 0 && i < len(l) {
				out = append(out, l[i])
			}
		}
	case wildcardStep:
		switch t := x.(type) {
		case []any:
			out = append(out, t...)
		case map[string]any:
			keys := make([]string, 0, len(t))
			for k := range t {
				keys = append(keys, k)
			}
			sort.Strings(keys)
			for _, k := range keys {
				out = append(out, t[k])
			}
		}
	}
	return out
}

// FieldNames returns the names of a path made only of .name steps
// (".spec.replicas" → [spec replicas]), or false.
func (p *Path) FieldNames() ([]string, bool) {
	names := make([]string, len(p.steps))
	for i, st := range p.steps {
		if st.kind != fieldStep {
			return nil, false
		}
		names[i] = st.name
	}
	return names, true
}
