package fieldpath

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// ToJSON writes the set in the FieldsV1 format: one JSON object per level
// whose keys are the serialized path elements in Compare order. A member
// with nothing below it is {}; a member that also has paths below it gets
// a "." entry first in its object; a path that is only a parent has no
// ".". Kubernetes: serialize.go Set.ToJSON (emitContentsV1).
func (s *Set) ToJSON() ([]byte, error) {
	var b bytes.Buffer
	if err := s.writeJSON(&b, false); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

func (s *Set) writeJSON(b *bytes.Buffer, self bool) error {
	b.WriteByte('{')
	first := true
	next := func() {
		if !first {
			b.WriteByte(',')
		}
		first = false
	}
	if self && !s.Empty() {
		next()
		b.WriteString(`".":{}`)
	}
	members, children := s.elems(), s.nodes()
	i, j := 0, 0
	for i < len(members) || j < len(children) {
		var c int
		switch {
		case i >= len(members):
			c = 1
		case j >= len(children):
			c = -1
		default:
			c = members[i].Compare(children[j].pe)
		}
		next()
		switch {
		case c < 0: // a member alone
			if err := appendKey(b, members[i]); err != nil {
				return err
			}
			b.WriteString("{}")
			i++
		default: // a parent, and a member too when c == 0
			if err := appendKey(b, children[j].pe); err != nil {
				return err
			}
			if err := children[j].set.writeJSON(b, c == 0); err != nil {
				return err
			}
			if c == 0 {
				i++
			}
			j++
		}
	}
	b.WriteByte('}')
	return nil
}

// writeKey writes `"<element>":` with the element JSON-escaped as a string
// (so a key's quotes come out as \"). ToJSON calls it through appendKey
// (serialize_fast.go; skip it on a first reading).
func writeKey(b *bytes.Buffer, pe PathElement) error {
	s, err := pe.serialize()
	if err != nil {
		return err
	}
	q, err := json.Marshal(s)
	if err != nil {
		return err
	}
	b.Write(q)
	b.WriteByte(':')
	return nil
}

// FromJSON reads a FieldsV1 set. Every value must be an object; "." marks
// its parent as a member, as does an empty object. Kubernetes: serialize.go
// Set.FromJSON (readIterV1).
func FromJSON(data []byte) (*Set, error) {
	d := json.NewDecoder(bytes.NewReader(data))
	d.UseNumber()
	var raw map[string]any
	if err := d.Decode(&raw); err != nil {
		return nil, fmt.Errorf("parsing FieldsV1: %w", err)
	}
	if raw == nil {
		return &Set{}, nil
	}
	s, _, err := fromObject(raw)
	return s, err
}

// fromObject returns the set below one FieldsV1 object and whether the
// object marks its own path as a member.
func fromObject(raw map[string]any) (*Set, bool, error) {
	s := &Set{}
	member := len(raw) == 0
	for key, v := range raw {
		if key == "." {
			member = true
			continue
		}
		pe, err := ParsePathElement(key)
		if err != nil {
			return nil, false, fmt.Errorf("parsing key %q of FieldsV1: %w", key, err)
		}
		obj, ok := v.(map[string]any)
		if !ok {
			return nil, false, fmt.Errorf("parsing FieldsV1: the value of %q is not an object", key)
		}
		below, isMember, err := fromObject(obj)
		if err != nil {
			return nil, false, err
		}
		if isMember {
			s.insertMember(pe)
		}
		if !below.Empty() {
			*s.child(pe) = *below
		}
	}
	return s, member, nil
}

// AppendKey writes `"<element>":` as ToJSON does, for a writer that makes
// FieldsV1 without building a Set (typed.CreatedFields).
func AppendKey(b *bytes.Buffer, pe PathElement) error { return appendKey(b, pe) }
