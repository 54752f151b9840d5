package api

import (
	"encoding/json"
	"fmt"
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
	if u.decodeFast(data) { // unstructured_fast.go: no duplicates, clean metadata
		return nil, nil, nil
	}
	return walkStrictWith(data, u, unstructuredMembers)
}

// unstructuredMembers walks a custom resource's top-level members: metadata
// as ObjectMeta, everything else as free JSON.
func unstructuredMembers(w *strictWalker) error {
	seen := map[string]bool{}
	for w.dec.More() {
		key, _, val, err := w.member("", seen)
		if err != nil {
			return err
		}
		if key == "metadata" {
			err = w.value(val, reflect.TypeFor[ObjectMeta](), key)
		} else {
			err = w.free(val, key)
		}
		if err != nil {
			return err
		}
	}
	_, err := w.dec.Token() // '}'
	return err
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
		var val json.Token
		var err error
		if d == '{' {
			_, p, val, err = w.member(path, seen)
		} else if val, err = w.dec.Token(); err != nil {
			err = describeJSONError(err)
		}
		if err != nil {
			return err
		}
		if err := w.free(val, p); err != nil {
			return err
		}
	}
	_, err := w.dec.Token() // '}' or ']'
	return err
}
