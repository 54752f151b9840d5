package api

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"reflect"
)

// DecodeStrictUnstructured decodes a custom resource and names, by path,
// its duplicate fields anywhere in the body and the unknown fields of its
// metadata (`metadata.foo`), which the typed ObjectMeta would drop
// silently. Fields outside metadata are not judged unknown here: that is
// the schema's business (pruning). Kubernetes: the strict JSON serializer
// (sigs.k8s.io/json UnmarshalStrict into a map) for duplicates, and
// customresource_handler.go's schemaCoercingDecoder with
// objectmeta.GetObjectMetaWithOptions(ReturnUnknownFieldPaths) for metadata.
func DecodeStrictUnstructured(data []byte, u *Unstructured) (unknownFields, duplicateFields []string, err error) {
	w := &strictWalker{dec: json.NewDecoder(bytes.NewReader(data)), fields: map[reflect.Type]map[string]reflect.Type{}}
	w.dec.UseNumber()
	tok, err := w.dec.Token()
	if err != nil {
		return nil, nil, describeJSONError(err)
	}
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		return nil, nil, fmt.Errorf("the body must be a JSON object, got %s", describeToken(tok))
	}
	seen := map[string]bool{}
	for w.dec.More() {
		keyTok, err := w.dec.Token()
		if err != nil {
			return nil, nil, describeJSONError(err)
		}
		key := keyTok.(string)
		if seen[key] {
			w.duplicate = append(w.duplicate, key)
		}
		seen[key] = true
		val, err := w.dec.Token()
		if err != nil {
			return nil, nil, describeJSONError(err)
		}
		if key == "metadata" {
			err = w.value(val, reflect.TypeFor[ObjectMeta](), key)
		} else {
			err = w.free(val, key)
		}
		if err != nil {
			return nil, nil, err
		}
	}
	if _, err := w.dec.Token(); err != nil { // '}'
		return nil, nil, describeJSONError(err)
	}
	if _, err := w.dec.Token(); err != io.EOF {
		return nil, nil, fmt.Errorf("invalid JSON: unexpected data after the top-level object")
	}
	if err := json.Unmarshal(data, u); err != nil {
		return nil, nil, describeJSONError(err)
	}
	return w.unknown, w.duplicate, nil
}

// free walks JSON that has no Go type, noting only duplicate keys.
func (w *strictWalker) free(tok json.Token, path string) error {
	d, ok := tok.(json.Delim)
	if !ok {
		return nil
	}
	seen := map[string]bool{}
	for i := 0; w.dec.More(); i++ {
		p := fmt.Sprintf("%s[%d]", path, i)
		if d == '{' {
			keyTok, err := w.dec.Token()
			if err != nil {
				return describeJSONError(err)
			}
			key := keyTok.(string)
			p = joinPath(path, key)
			if seen[key] {
				w.duplicate = append(w.duplicate, p)
			}
			seen[key] = true
		}
		val, err := w.dec.Token()
		if err != nil {
			return describeJSONError(err)
		}
		if err := w.free(val, p); err != nil {
			return err
		}
	}
	_, err := w.dec.Token() // '}' or ']'
	return err
}
