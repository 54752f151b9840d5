package customresource

import (
	"fmt"

	"kubeloop/api"
	"kubeloop/apiserver/apiextensions/schema/defaulting"
	"kubeloop/apiserver/apiextensions/schema/pruning"
	"kubeloop/apiserver/serializer"
)

// Serializers are the media types a custom resource is spoken in: JSON
// and YAML, each decoding through the version's schema. There is no
// protobuf: custom resources have no protobuf schema, so a protobuf body
// is 415 (Kubernetes' CR handler offers the same two, and CBOR).
func Serializers(v *Version) []serializer.SerializerInfo {
	var out []serializer.SerializerInfo
	for _, si := range serializer.SupportedMediaTypes() {
		switch si.MediaType {
		case serializer.ContentTypeJSON, serializer.ContentTypeYAML:
			si.Decoder = coercingDecoder{base: si.Decoder, v: v}
			out = append(out, si)
		}
	}
	return out
}

// coercingDecoder decodes a custom resource and makes it fit the schema as
// Kubernetes' schemaCoercingDecoder and unstructuredDefaulter do: unknown
// fields pruned and embedded resources' metadata made ObjectMeta (and,
// when strict, what was dropped reported as problems for
// fieldValidation), nulls without a default dropped, defaults applied.
// Bodies that are not custom resources (a Scale, DeleteOptions) decode
// as the base decoder decodes them.
type coercingDecoder struct {
	base serializer.Decoder
	v    *Version
}

func (d coercingDecoder) Decode(data []byte, into any, strict bool) ([]string, error) {
	u, ok := into.(*api.Unstructured)
	if !ok {
		return d.base.Decode(data, into, strict)
	}
	// Strictly, the base decoder reports duplicate fields and unknown
	// metadata fields; unknown fields elsewhere are found by pruning.
	problems, err := d.base.Decode(data, u, strict)
	if err != nil {
		return nil, err
	}
	if u.Content == nil {
		u.Content = map[string]any{}
	}
	unknown := pruning.Prune(u.Content, d.v.Structural, true)
	if d.v.embedded {
		meta, err := pruning.CoerceEmbeddedMetadata(u.Content, d.v.Structural)
		if err != nil {
			return nil, err
		}
		unknown = append(unknown, meta...)
	}
	if d.v.Structural != nil {
		defaulting.PruneNonNullableNullsWithoutDefaults(u.Content, d.v.Structural)
		defaulting.Default(u.Content, d.v.Structural)
	}
	if !strict {
		return nil, nil
	}
	for _, f := range unknown {
		problems = append(problems, fmt.Sprintf("unknown field %q", f))
	}
	return problems, nil
}
