package fieldpath

// Skip on a first reading: a speed-up. writeKey spells a path element as
// its FieldsV1 key by JSON-encoding it twice (the element's own JSON, then
// that as a JSON string); on a pod's managedFields that was a quarter of
// what the field manager allocated (BenchmarkUpdatePod in
// apiserver/fieldmanager). For the keys nearly every set is made of, field
// names and list keys of plain ASCII, both encodings are known in advance:
// appendKey writes them straight into the buffer, and leaves anything else
// (quotes, backslashes, <>&, which encoding/json escapes, non-ASCII,
// unusual value types) to writeKey. TestAppendKeyWritesWhatWriteKeyWrites
// holds the two to each other.

import (
	"bytes"
	"encoding/json"
)

// appendKey writes `"<element>":` as writeKey does.
func appendKey(b *bytes.Buffer, pe PathElement) error {
	switch {
	case pe.FieldName != nil && plainJSON(*pe.FieldName):
		b.WriteString(`"f:`)
		b.WriteString(*pe.FieldName)
		b.WriteString(`":`)
		return nil
	case pe.Key != nil && plainKey(pe.Key):
		b.WriteString(`"k:{`)
		for i, k := range pe.Key {
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteString(`\"`)
			b.WriteString(k.Name)
			b.WriteString(`\":`)
			writePlainValue(b, k.Value)
		}
		b.WriteString(`}":`)
		return nil
	case pe.Value != nil && plainValue(*pe.Value):
		b.WriteString(`"v:`)
		writePlainValue(b, *pe.Value)
		b.WriteString(`":`)
		return nil
	}
	return writeKey(b, pe)
}

// plainJSON reports whether s is its own JSON string content, also once
// quoted again: printable ASCII without quotes, backslashes or the
// characters encoding/json escapes for HTML.
func plainJSON(s string) bool {
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c < 0x20 || c > 0x7e, c == '"', c == '\\', c == '<', c == '>', c == '&':
			return false
		}
	}
	return true
}

func plainKey(fields []KeyField) bool {
	for _, k := range fields {
		if !plainJSON(k.Name) || !plainValue(k.Value) {
			return false
		}
	}
	return true
}

// plainValue: a plain string, a number or a boolean.
func plainValue(v any) bool {
	switch v := v.(type) {
	case string:
		return plainJSON(v)
	case json.Number:
		return plainJSON(string(v)) && json.Valid([]byte(v))
	case bool:
		return true
	}
	return false
}

// writePlainValue writes a plainValue as it appears inside a key: a
// string's quotes escaped.
func writePlainValue(b *bytes.Buffer, v any) {
	switch v := v.(type) {
	case string:
		b.WriteString(`\"`)
		b.WriteString(v)
		b.WriteString(`\"`)
	case json.Number:
		b.WriteString(string(v))
	case bool:
		if v {
			b.WriteString("true")
		} else {
			b.WriteString("false")
		}
	}
}
