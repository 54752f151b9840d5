package api

import (
	"encoding/json"
	"time"
)

// The scalar types with their own JSON methods (Time, MicroTime, Quantity)
// are in every object, many times: a pod carries a dozen timestamps and
// quantities. Calling json.Marshal or json.Unmarshal from inside those
// methods starts a whole encoder or decoder (with its validity scan) per
// scalar, which showed up as several percent of the spine benchmark's CPU.
// Their values are plain ASCII in practice, so these helpers take a
// direct path for that case and leave anything else to encoding/json.

// quoteJSON appends s as a JSON string. It matches json.Marshal's output,
// which also escapes <, > and & for HTML; strings with any byte that
// needs care take json.Marshal itself.
func quoteJSON(dst []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x7f || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' {
			b, _ := json.Marshal(s) // a string always marshals
			return append(dst, b...)
		}
	}
	dst = append(dst, '"')
	dst = append(dst, s...)
	return append(dst, '"')
}

// unquoteJSON reads the JSON string b. Anything but a plain quoted ASCII
// string (escapes, a number, an object) goes through json.Unmarshal, so
// its errors are encoding/json's as before.
func unquoteJSON(b []byte) (string, error) {
	if len(b) >= 2 && b[0] == '"' && b[len(b)-1] == '"' {
		inner := b[1 : len(b)-1]
		plain := true
		for _, c := range inner {
			if c == '\\' || c == '"' || c < 0x20 || c >= 0x7f {
				plain = false
				break
			}
		}
		if plain {
			return string(inner), nil
		}
	}
	var s string
	err := json.Unmarshal(b, &s)
	return s, err
}

// appendTimeJSON appends t in layout as a JSON string. Time layouts are
// plain ASCII, so no escaping is ever needed.
func appendTimeJSON(dst []byte, t time.Time, layout string) []byte {
	dst = append(dst, '"')
	dst = t.UTC().AppendFormat(dst, layout)
	return append(dst, '"')
}
