package typed

// Skip on a first reading: a speed-up. A custom resource writes itself
// (api.Unstructured.MarshalJSON), so its value was its JSON parsed back,
// for the stored and the new object of every tracked write: the largest
// part of what managedFields cost a custom resource's create
// (BenchmarkCreateCustomResourceVsConfigMap in crdserving). Its content is
// already a JSON value; only the numbers differ (int64 and float64 where
// the parsed form has json.Number, written as encoding/json writes them),
// and its metadata is a typed ObjectMeta, walked as any struct is.
// TestToValueByReflectionEqualsJSON holds this to the JSON round trip.

import (
	"encoding/json"
	"reflect"
	"strconv"

	"kubeloop/api"
)

var unstructuredType = reflect.TypeFor[api.Unstructured]()

// unstructuredOf is the custom resource v holds, if it holds one.
func unstructuredOf(v reflect.Value) (*api.Unstructured, bool) {
	switch {
	case v.Type() == unstructuredType && v.CanAddr():
		return v.Addr().Interface().(*api.Unstructured), true
	case v.Type() == unstructuredType:
		u := v.Interface().(api.Unstructured)
		return &u, true
	case v.Kind() == reflect.Pointer && v.Type().Elem() == unstructuredType && !v.IsNil():
		return v.Interface().(*api.Unstructured), true
	}
	return nil, false
}

// unstructuredValue is what MarshalJSON writes of u, parsed: the content,
// then apiVersion, kind and metadata over it, as MarshalJSON lets them
// win; metadata without the field omitInMetadata ("" for none).
func unstructuredValue(u *api.Unstructured, omitInMetadata string) (any, error) {
	out := make(map[string]any, len(u.Content)+3)
	for k, v := range u.Content {
		c, err := contentValue(v)
		if err != nil {
			return nil, err
		}
		out[k] = c
	}
	if u.APIVersion != "" {
		out["apiVersion"] = u.APIVersion
	}
	if u.Kind != "" {
		out["kind"] = u.Kind
	}
	meta, err := reflectStructOmitting(reflect.ValueOf(&u.ObjectMeta).Elem(), omitInMetadata, "")
	if err != nil {
		return nil, err
	}
	out["metadata"] = meta
	return out, nil
}

// contentValue copies an unstructured value into the parsed form; a type
// JSON does not decode to is walked by reflection, as before.
func contentValue(v any) (any, error) {
	switch t := v.(type) {
	case nil, bool, string:
		return t, nil
	case int64:
		return json.Number(strconv.FormatInt(t, 10)), nil
	case map[string]any:
		if t == nil {
			return nil, nil
		}
		out := make(map[string]any, len(t))
		for k, e := range t {
			c, err := contentValue(e)
			if err != nil {
				return nil, err
			}
			out[k] = c
		}
		return out, nil
	case []any:
		if t == nil {
			return nil, nil
		}
		out := make([]any, len(t))
		for i, e := range t {
			c, err := contentValue(e)
			if err != nil {
				return nil, err
			}
			out[i] = c
		}
		return out, nil
	}
	return reflectValue(reflect.ValueOf(v))
}
