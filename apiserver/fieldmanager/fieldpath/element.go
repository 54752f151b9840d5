package fieldpath

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
)

// PathElement is one step of a Path. Exactly one of its fields is set.
type PathElement struct {
	// FieldName is a field of a struct or a key of a map: f:name.
	FieldName *string
	// Key selects the element of a map list whose key fields have these
	// values: k:{"containerPort":80,"protocol":"TCP"}. Sorted by name.
	Key []KeyField
	// Value selects the element of a set list equal to it: v:"x".
	Value *any
	// Index selects an element of an atomic list by position: i:0. Owned
	// fields never hold one for built-in kinds (an atomic list is owned as
	// a whole); it exists for completeness of the format.
	Index *int
}

// KeyField is one field of a map list element's key.
type KeyField struct {
	Name  string
	Value any
}

// Field, Key, Value and Index build path elements.
func Field(name string) PathElement { return PathElement{FieldName: &name} }

// Key builds a key element from name/value pairs; it sorts them by name,
// as SMD does, so one element has one spelling.
func Key(fields ...KeyField) PathElement {
	k := append([]KeyField(nil), fields...)
	sortKeyFields(k)
	return PathElement{Key: k}
}

// KeyOf is Key without the copy, for a caller that built fields for the
// element alone and does not use them again (one allocation less per
// list element a walk names).
func KeyOf(fields []KeyField) PathElement {
	sortKeyFields(fields)
	return PathElement{Key: fields}
}

func Value(v any) PathElement { return PathElement{Value: &v} }

func Index(i int) PathElement { return PathElement{Index: &i} }

func sortKeyFields(k []KeyField) {
	// insertion sort: keys have one to three fields.
	for i := 1; i < len(k); i++ {
		for j := i; j > 0 && k[j].Name < k[j-1].Name; j-- {
			k[j], k[j-1] = k[j-1], k[j]
		}
	}
}

// Compare orders path elements: field names first, then keys, values and
// indexes; within a kind by name, key fields, value or number. This is the
// order of a Set and of the entries of a FieldsV1 object.
func (e PathElement) Compare(o PathElement) int {
	if r, ro := e.rank(), o.rank(); r != ro {
		if r < ro {
			return -1
		}
		return 1
	}
	switch {
	case e.FieldName != nil:
		return strings.Compare(*e.FieldName, *o.FieldName)
	case e.Key != nil:
		for i := 0; i < len(e.Key) && i < len(o.Key); i++ {
			if c := strings.Compare(e.Key[i].Name, o.Key[i].Name); c != 0 {
				return c
			}
			if c := CompareValues(e.Key[i].Value, o.Key[i].Value); c != 0 {
				return c
			}
		}
		return compareInts(int64(len(e.Key)), int64(len(o.Key)))
	case e.Value != nil:
		return CompareValues(*e.Value, *o.Value)
	case e.Index != nil:
		return compareInts(int64(*e.Index), int64(*o.Index))
	}
	return 0
}

func (e PathElement) rank() int {
	switch {
	case e.FieldName != nil:
		return 0
	case e.Key != nil:
		return 1
	case e.Value != nil:
		return 2
	case e.Index != nil:
		return 3
	}
	return 4
}

// Equals reports whether two elements name the same thing.
func (e PathElement) Equals(o PathElement) bool { return e.Compare(o) == 0 }

// String is the human form used in conflict messages: .name,
// [name="c",protocol="TCP"], [="x"], [0].
func (e PathElement) String() string {
	switch {
	case e.FieldName != nil:
		return "." + *e.FieldName
	case e.Key != nil:
		parts := make([]string, len(e.Key))
		for i, k := range e.Key {
			parts[i] = k.Name + "=" + valueString(k.Value)
		}
		return "[" + strings.Join(parts, ",") + "]"
	case e.Value != nil:
		return "[=" + valueString(*e.Value) + "]"
	case e.Index != nil:
		return "[" + strconv.Itoa(*e.Index) + "]"
	}
	return "<invalid path element>"
}

// valueString writes strings quoted and everything else as JSON, like
// SMD's value.ToString.
func valueString(v any) string {
	if s, ok := v.(string); ok {
		return strconv.Quote(s)
	}
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}

// serialize writes the element as a FieldsV1 object key (before that key's
// own JSON string escaping): f:name, k:{...}, v:..., i:N.
func (e PathElement) serialize() (string, error) {
	switch {
	case e.FieldName != nil:
		return "f:" + *e.FieldName, nil
	case e.Key != nil:
		var b strings.Builder
		b.WriteString("k:{")
		for i, k := range e.Key {
			if i > 0 {
				b.WriteByte(',')
			}
			name, _ := json.Marshal(k.Name)
			v, err := json.Marshal(k.Value)
			if err != nil {
				return "", err
			}
			b.Write(name)
			b.WriteByte(':')
			b.Write(v)
		}
		b.WriteByte('}')
		return b.String(), nil
	case e.Value != nil:
		v, err := json.Marshal(*e.Value)
		if err != nil {
			return "", err
		}
		return "v:" + string(v), nil
	case e.Index != nil:
		return "i:" + strconv.Itoa(*e.Index), nil
	}
	return "", fmt.Errorf("invalid path element")
}

// ParsePathElement reads a FieldsV1 object key back into an element.
// Kubernetes: serialize-pe.go DeserializePathElement, whose messages these
// are.
func ParsePathElement(s string) (PathElement, error) {
	if len(s) < 2 {
		return PathElement{}, fmt.Errorf("key must be 2 characters long: %q", s)
	}
	if s[1] != ':' {
		return PathElement{}, fmt.Errorf("missing colon: %v", s)
	}
	rest := s[2:]
	switch s[0] {
	case 'f':
		return Field(rest), nil
	case 'v':
		v, err := decodeValue(rest)
		if err != nil {
			return PathElement{}, err
		}
		return Value(v), nil
	case 'k':
		v, err := decodeValue(rest)
		if err != nil {
			return PathElement{}, err
		}
		m, ok := v.(map[string]any)
		if !ok {
			return PathElement{}, fmt.Errorf("key element %q is not a JSON object", s)
		}
		fields := make([]KeyField, 0, len(m))
		for name, fv := range m {
			fields = append(fields, KeyField{Name: name, Value: fv})
		}
		return Key(fields...), nil
	case 'i':
		i, err := strconv.Atoi(rest)
		if err != nil {
			return PathElement{}, err
		}
		return Index(i), nil
	}
	return PathElement{}, fmt.Errorf("unknown path element type")
}

// decodeValue decodes exactly one JSON value, numbers as json.Number.
func decodeValue(s string) (any, error) {
	d := json.NewDecoder(strings.NewReader(s))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		return nil, err
	}
	if d.More() {
		return nil, fmt.Errorf("unexpected trailing data after JSON value in %q", s)
	}
	return v, nil
}

// Path is a list of elements from the root of an object.
type Path []PathElement

// MakePath builds a path from field names (strings) and elements.
func MakePath(parts ...any) Path {
	p := make(Path, 0, len(parts))
	for _, part := range parts {
		switch part := part.(type) {
		case string:
			p = append(p, Field(part))
		case PathElement:
			p = append(p, part)
		case int:
			p = append(p, Index(part))
		default:
			panic(fmt.Sprintf("fieldpath.MakePath: unsupported part %T", part))
		}
	}
	return p
}

// String joins the elements' strings: .spec.containers[name="c"].image.
func (p Path) String() string {
	var b strings.Builder
	for _, e := range p {
		b.WriteString(e.String())
	}
	return b.String()
}

// Copy returns a path that does not share its backing array with p, for
// walkers that append to one path as they descend.
func (p Path) Copy() Path { return append(Path(nil), p...) }
