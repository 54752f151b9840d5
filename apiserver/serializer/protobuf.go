package serializer

import (
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"

	"kubeloop/api"
)

// protobufDecoder reads Kubernetes' protobuf request bodies of the simple
// kinds below. kubectl's generator commands (`kubectl create namespace`,
// `kubectl create configmap`) send their bodies as protobuf whatever the
// server prefers, and client-go only falls back from CBOR, never from
// protobuf. So the decoder reads those kinds, turns them into JSON and
// decodes that; answers stay JSON, which those clients accept. Every other
// kind is 415. (The complete codec, for every kind, in both directions and
// for watch streams, replaces this one as the protobuf entry of
// SupportedMediaTypes.)
//
// Kubernetes: staging/src/k8s.io/apimachinery/pkg/runtime/serializer/
// protobuf/protobuf.go (the "k8s\x00" envelope around runtime.Unknown) and
// the field numbers in staging/src/k8s.io/api/core/v1/generated.proto and
// staging/src/k8s.io/apimachinery/pkg/apis/meta/v1/generated.proto.
type protobufDecoder struct{}

// protobufMagic starts every Kubernetes protobuf body.
var protobufMagic = []byte("k8s\x00")

func (protobufDecoder) Decode(data []byte, into any, strict bool) ([]string, error) {
	if !bytes.HasPrefix(data, protobufMagic) {
		return nil, api.NewBadRequest("protobuf body without the k8s envelope")
	}
	var group, kind, version string
	switch into.(type) {
	case *api.ConfigMap:
		kind, version = "ConfigMap", "v1"
	case *api.Namespace:
		kind, version = "Namespace", "v1"
	default:
		return nil, api.NewUnsupportedMediaType(ContentTypeProtobuf)
	}
	js, err := protobufToJSON(group, version, kind, data)
	if err != nil {
		return nil, err
	}
	return jsonDecoder{}.Decode(js, into, strict)
}

// protobufToJSON converts a protobuf body of a kind with a decoder below
// into JSON.
func protobufToJSON(group, version, kind string, data []byte) ([]byte, error) {
	// runtime.Unknown: 1 typeMeta {1 apiVersion, 2 kind}, 2 raw.
	env, err := pbFields(data[len(protobufMagic):])
	if err != nil {
		return nil, api.NewBadRequest(fmt.Sprintf("decoding protobuf: %v", err))
	}
	var raw []byte
	for _, f := range env {
		if f.num == 2 {
			raw = f.bytes
		}
	}
	var obj map[string]any
	switch kind {
	case "ConfigMap":
		obj, err = pbConfigMap(raw)
	case "Namespace":
		obj, err = pbNamespace(raw)
	}
	if err != nil {
		return nil, api.NewBadRequest(fmt.Sprintf("decoding protobuf %s: %v", kind, err))
	}
	apiVersion := version
	if group != "" {
		apiVersion = group + "/" + version
	}
	obj["apiVersion"], obj["kind"] = apiVersion, kind
	return json.Marshal(obj)
}

func pbConfigMap(raw []byte) (map[string]any, error) {
	fields, err := pbFields(raw)
	if err != nil {
		return nil, err
	}
	out := map[string]any{}
	data, binData := map[string]any{}, map[string]any{}
	for _, f := range fields {
		switch f.num {
		case 1:
			if out["metadata"], err = pbObjectMeta(f.bytes); err != nil {
				return nil, err
			}
		case 2, 3:
			k, v, err := pbMapEntry(f.bytes)
			if err != nil {
				return nil, err
			}
			if f.num == 2 {
				data[k] = string(v)
			} else {
				binData[k] = base64.StdEncoding.EncodeToString(v)
			}
		case 4:
			out["immutable"] = f.varint != 0
		}
	}
	if len(data) > 0 {
		out["data"] = data
	}
	if len(binData) > 0 {
		out["binaryData"] = binData
	}
	return out, nil
}

func pbNamespace(raw []byte) (map[string]any, error) {
	fields, err := pbFields(raw)
	if err != nil {
		return nil, err
	}
	out := map[string]any{}
	for _, f := range fields {
		switch f.num {
		case 1:
			if out["metadata"], err = pbObjectMeta(f.bytes); err != nil {
				return nil, err
			}
		case 2: // NamespaceSpec: 1 finalizers
			spec, err := pbFields(f.bytes)
			if err != nil {
				return nil, err
			}
			var fins []string
			for _, s := range spec {
				if s.num == 1 {
					fins = append(fins, string(s.bytes))
				}
			}
			if len(fins) > 0 {
				out["spec"] = map[string]any{"finalizers": fins}
			}
		}
	}
	return out, nil
}

// pbObjectMeta reads the client-owned fields of ObjectMeta; the server
// owns the rest and would ignore them anyway.
func pbObjectMeta(raw []byte) (map[string]any, error) {
	fields, err := pbFields(raw)
	if err != nil {
		return nil, err
	}
	m := map[string]any{}
	labels, annotations := map[string]any{}, map[string]any{}
	var finalizers []string
	for _, f := range fields {
		switch f.num {
		case 1:
			m["name"] = string(f.bytes)
		case 2:
			m["generateName"] = string(f.bytes)
		case 3:
			m["namespace"] = string(f.bytes)
		case 6:
			m["resourceVersion"] = string(f.bytes)
		case 11, 12:
			k, v, err := pbMapEntry(f.bytes)
			if err != nil {
				return nil, err
			}
			if f.num == 11 {
				labels[k] = string(v)
			} else {
				annotations[k] = string(v)
			}
		case 15:
			finalizers = append(finalizers, string(f.bytes))
		}
	}
	if len(labels) > 0 {
		m["labels"] = labels
	}
	if len(annotations) > 0 {
		m["annotations"] = annotations
	}
	if len(finalizers) > 0 {
		m["finalizers"] = finalizers
	}
	return m, nil
}

// pbMapEntry reads one entry of a protobuf map: 1 key, 2 value.
func pbMapEntry(raw []byte) (string, []byte, error) {
	fields, err := pbFields(raw)
	if err != nil {
		return "", nil, err
	}
	var k string
	var v []byte
	for _, f := range fields {
		switch f.num {
		case 1:
			k = string(f.bytes)
		case 2:
			v = f.bytes
		}
	}
	return k, v, nil
}

// pbField is one field of a protobuf message: varints and length-delimited
// fields are kept, fixed-width ones skipped.
type pbField struct {
	num    uint64
	varint uint64
	bytes  []byte
}

// pbFields splits a protobuf message into its fields (wire format:
// https://protobuf.dev/programming-guides/encoding/).
func pbFields(b []byte) ([]pbField, error) {
	var out []pbField
	for len(b) > 0 {
		tag, n := binary.Uvarint(b)
		if n <= 0 {
			return nil, errors.New("bad field tag")
		}
		b = b[n:]
		f := pbField{num: tag >> 3}
		switch tag & 7 {
		case 0:
			v, n := binary.Uvarint(b)
			if n <= 0 {
				return nil, errors.New("bad varint")
			}
			f.varint, b = v, b[n:]
		case 1:
			if len(b) < 8 {
				return nil, errors.New("short fixed64")
			}
			b = b[8:]
		case 2:
			l, n := binary.Uvarint(b)
			if n <= 0 || uint64(len(b)-n) < l {
				return nil, errors.New("bad length")
			}
			f.bytes, b = b[n:n+int(l)], b[n+int(l):]
		case 5:
			if len(b) < 4 {
				return nil, errors.New("short fixed32")
			}
			b = b[4:]
		default:
			return nil, fmt.Errorf("unsupported wire type %d", tag&7)
		}
		out = append(out, f)
	}
	return out, nil
}
