package defaulting

import "kubeloop/apiserver/apiextensions/schema"

// Default fills in, in place, every default of s that x lacks: a property
// that is absent, or null where the schema does not allow null, gets a
// copy of its default; so does a null map value or list element. The walk
// then descends into every value, including the defaults just written, so
// a default object gets the defaults of its own fields.
func Default(x any, s *schema.Structural) {
	if s == nil {
		return
	}
	switch t := x.(type) {
	case map[string]any:
		for k, prop := range s.Properties {
			if prop.Default == nil {
				continue
			}
			if v, found := t[k]; !found || isNonNullableNull(v, &prop) {
				t[k] = schema.DeepCopyJSONValue(prop.Default)
			}
		}
		for k, v := range t {
			if prop, found := s.Property(k); found {
				Default(v, prop)
			} else if s.AdditionalProperties != nil {
				ap := s.AdditionalProperties.Structural
				if isNonNullableNull(v, ap) {
					t[k] = schema.DeepCopyJSONValue(ap.Default)
				}
				Default(t[k], ap)
			}
		}
	case []any:
		for i := range t {
			if isNonNullableNull(t[i], s.Items) {
				t[i] = schema.DeepCopyJSONValue(s.Items.Default)
			}
			Default(t[i], s.Items)
		}
	}
}

func isNonNullableNull(x any, s *schema.Structural) bool {
	return x == nil && s != nil && !s.Nullable
}

// PruneNonNullableNullsWithoutDefaults deletes the null fields that the
// schema neither allows as null nor can default, so that a client sending
// "field": null for an optional field gets the field absent rather than a
// validation error. It runs before Default.
func PruneNonNullableNullsWithoutDefaults(x any, s *schema.Structural) {
	switch t := x.(type) {
	case map[string]any:
		for k, v := range t {
			fs := fieldSchema(k, s)
			if v == nil && fs != nil && !fs.Nullable && fs.Default == nil {
				delete(t, k)
			} else {
				PruneNonNullableNullsWithoutDefaults(v, fs)
			}
		}
	case []any:
		var items *schema.Structural
		if s != nil {
			items = s.Items
		}
		for _, e := range t {
			PruneNonNullableNullsWithoutDefaults(e, items)
		}
	}
}

func fieldSchema(k string, s *schema.Structural) *schema.Structural {
	if s == nil {
		return nil
	}
	if p, ok := s.Property(k); ok {
		return p
	}
	if s.AdditionalProperties != nil {
		return s.AdditionalProperties.Structural
	}
	return nil
}
