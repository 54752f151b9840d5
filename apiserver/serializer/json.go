package serializer

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"

	"kubeloop/api"
)

// errEmptyBody is what every decoder says about a body with nothing in it.
var errEmptyBody = errors.New("the body of the request is empty")

// jsonDecoder reads JSON bodies with api's decoder, which knows the wire
// names of every kind. Kubernetes:
// staging/src/k8s.io/apimachinery/pkg/runtime/serializer/json/json.go
// (Serializer.Decode, unmarshal).
type jsonDecoder struct{}

// JSONDecoder is the JSON decoder, for what is JSON whatever the request's
// media type (a patched object).
func JSONDecoder() Decoder { return jsonDecoder{} }

func (jsonDecoder) Decode(data []byte, into any, strict bool) ([]string, error) {
	if len(bytes.TrimSpace(data)) == 0 {
		return nil, errEmptyBody
	}
	switch into := into.(type) {
	case *api.DeleteOptions:
		if !strict {
			return nil, json.Unmarshal(data, into)
		}
		unknown, dup, err := api.DecodeStrictOptions(data, into)
		return problems(unknown, dup), err
	case api.Object:
		if !strict {
			return nil, api.Decode(data, into)
		}
		var unknown, dup []string
		var err error
		if u, ok := into.(*api.Unstructured); ok {
			// A custom resource's own fields are the schema's to judge
			// (pruning); strictly, only its duplicates and unknown metadata
			// are reported here.
			unknown, dup, err = api.DecodeStrictUnstructured(data, u)
		} else {
			unknown, dup, err = api.DecodeStrict(data, into)
		}
		if err != nil {
			return nil, err
		}
		return problems(unknown, dup), nil
	}
	return nil, fmt.Errorf("cannot decode into %T", into)
}

// problems words unknown and duplicate fields as Kubernetes' strict decoder
// does.
func problems(unknown, dup []string) []string {
	out := make([]string, 0, len(unknown)+len(dup))
	for _, f := range unknown {
		out = append(out, fmt.Sprintf("unknown field %q", f))
	}
	for _, f := range dup {
		out = append(out, fmt.Sprintf("duplicate field %q", f))
	}
	return out
}

// jsonEncoder writes answers as encoding/json does, HTML-escaped, which is
// byte for byte what Kubernetes' JSON serializer writes (api.Marshal is
// json.Marshal with managedFields' sets copied, not scanned).
type jsonEncoder struct{}

func (jsonEncoder) Encode(v any) ([]byte, error) {
	if l, ok := v.(api.ListObject); ok {
		// A long list item by item (json_list.go, a memory saving).
		if out, ok, err := encodeListItemByItem(l); ok {
			return out, err
		}
	}
	return api.Marshal(v)
}

// jsonStream frames a watch as one JSON object per line:
// {"type":"ADDED","object":{...}}. Kubernetes: the JSON serializer with
// json.Framer (staging/src/k8s.io/apimachinery/pkg/runtime/serializer/json/json.go).
type jsonStream struct{}

func (jsonStream) MediaType() string { return ContentTypeJSON }

func (jsonStream) AppendEvent(buf []byte, eventType api.EventType, object []byte) []byte {
	buf = append(buf, `{"type":"`...)
	buf = append(buf, eventType...)
	buf = append(buf, `","object":`...)
	buf = append(buf, object...)
	return append(buf, "}\n"...)
}
