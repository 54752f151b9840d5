package store

import (
	"bytes"
	"fmt"

	"kubeloop/api"
)

// The storage codec: which bytes an object is stored as, and how stored
// bytes become an object again. Every write of a value goes through
// EncodeValue and every read through DecodeValue.
//
//   - A built-in kind (one of api.Builtin()'s, whose Go types carry
//     k8s.io/api's protobuf tags) is stored as Kubernetes stores it: the
//     protobuf body the apiserver also sends, "k8s\x00" and then the
//     runtime.Unknown envelope with apiVersion, kind and the object's
//     message (api/protobuf.go). It is 60 to 70 % of the JSON's size (a
//     Running pod 2664 bytes against 4119, a node lease 467 against 782),
//     and a single-member etcd keeps its whole file in memory.
//   - Anything else is JSON (api.Encode): custom resources
//     (api.Unstructured) have no protobuf form, in Kubernetes neither.
//   - Reading sniffs: a value that starts with the prefix is protobuf, any
//     other is JSON (no JSON text starts with "k"). So values written as
//     JSON before kubeloop stored protobuf, or by hand, still read; an
//     update rewrites them as protobuf (their bytes differ, so even an
//     update that changes nothing writes once, as in Kubernetes).
//
// The resourceVersion is not the codec's business: the callers clear it
// before encoding (encode) and set it from the key's revision after
// decoding (decode).
//
// Kubernetes: the storage codec of every resource is built by
// staging/src/k8s.io/apiserver/pkg/server/storage/storage_codec.go
// (NewStorageCodec): it encodes in --storage-media-type (protobuf by
// default, JSON for kinds without protobuf) and decodes with a recognizer
// (apimachinery/pkg/runtime/serializer/recognizer) that lets the protobuf
// serializer claim the values with its prefix and the JSON serializer the
// rest. v1.37.2.

// storedAsProtobuf says whether obj's kind is stored as protobuf: the
// built-in kinds are, everything else is JSON.
func storedAsProtobuf(obj api.Object) bool {
	_, builtin := api.Builtin().ForObject(obj)
	return builtin
}

// EncodeValue returns the bytes the store writes for obj: protobuf for a
// built-in kind, JSON otherwise. obj's apiVersion and kind must be set
// (the store sets them); its resourceVersion is written if set, so the
// store clears it first.
func EncodeValue(obj api.Object) ([]byte, error) {
	return encodeAs(obj, storedAsProtobuf(obj))
}

// DecodeValue reads a stored value into into, whichever format it was
// written in, and sets into's apiVersion and kind from it.
func DecodeValue(data []byte, into api.Object) error {
	return decodeAs(data, into, storedAsProtobuf(into))
}

// encodeAs and decodeAs are EncodeValue and DecodeValue for a kind whose
// format is known: a Store decides it once, in New.
func encodeAs(obj api.Object, protobuf bool) ([]byte, error) {
	if protobuf {
		return api.EncodeProtobuf(obj)
	}
	return api.Encode(obj)
}

func decodeAs(data []byte, into api.Object, protobuf bool) error {
	if !bytes.HasPrefix(data, []byte(api.ProtobufPrefix)) {
		return api.Decode(data, into)
	}
	if !protobuf {
		// The protobuf codec would read nothing into a type without
		// protobuf tags; say so instead.
		return fmt.Errorf("a protobuf value cannot be read into %T, which has no protobuf form", into)
	}
	_, err := api.DecodeProtobuf(data, into)
	return err
}

// notOurs says that a value under this Store's prefix is not one of its
// objects: a protobuf value where the kind is stored as JSON. That happens
// only where a CustomResourceDefinition repeats a built-in resource's
// group and plural (apiserver/apiextensions/crdserving/builtin_test.go):
// the custom resource's keys are the built-in's, and the built-in objects
// are protobuf. List and Watch leave them out, so that such a custom
// resource's storage never shows, and its CRD's deletion never deletes, a
// built-in object. (Kubernetes' custom resource storage fails to decode
// them instead; Get and updates here fail too.)
func (s *Store) notOurs(value []byte) bool {
	return !s.protobuf && bytes.HasPrefix(value, []byte(api.ProtobufPrefix))
}
