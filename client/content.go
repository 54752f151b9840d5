package client

import (
	"encoding/json"
	"mime"
	"reflect"

	"kubeloop/api"
)

// Which encoding a request speaks, decided here and nowhere else.
//
// client-go's typed clients prefer Kubernetes' protobuf for built-in kinds
// when Config.ContentType is left empty: every method of gentype/type.go's
// Client calls Request.UseProtobufAsDefaultIfPreferred, which calls
// rest/request.go's UseProtobufAsDefault (v0.37.2), so Accept asks for
// protobuf first and JSON second, and object bodies go as protobuf.
// Patches keep their patch content types. Its dynamic client, which every
// custom resource goes through, speaks JSON: a custom resource has no
// protobuf form, and the apiserver answers a protobuf body for one with 415.
//
// The answer is decoded by the Content-Type the server wrote, as
// rest/request.go's transformResponse does, so a JSON answer to a request
// that preferred protobuf (a Status from a filter, a kind the server
// speaks only JSON for) decodes too.

// acceptProtobuf is the Accept header of a request that prefers protobuf,
// as UseProtobufAsDefault writes it.
const acceptProtobuf = api.ContentTypeProtobuf + "," + ContentTypeJSON

// prefersProtobuf reports whether requests about info's kind prefer
// protobuf: yes for a kind whose Go type carries protobuf tags, which api's
// codec (api/protobuf.go) reads and every built-in kind has; no for custom
// resources, whose *api.Unstructured has none; and never when
// Config.ContentType forces JSON.
func (c *Client) prefersProtobuf(info *api.ResourceInfo) bool {
	if c.forceJSON {
		return false
	}
	meta, ok := reflect.TypeOf(info.New()).Elem().FieldByName("ObjectMeta")
	_, tagged := meta.Tag.Lookup("protobuf")
	return ok && tagged
}

// encodeBody returns v, whose apiVersion and kind are set, as a request
// body in protobuf or JSON, and its Content-Type.
func encodeBody(protobuf bool, v any) ([]byte, string, error) {
	if protobuf {
		body, err := api.EncodeProtobuf(v)
		return body, api.ContentTypeProtobuf, err
	}
	body, err := json.Marshal(v)
	return body, ContentTypeJSON, err
}

// withTypeMeta returns obj if it names its apiVersion and kind, or else a
// shallow copy of obj that names them: the protobuf envelope must, and a
// JSON body does as client-go's does. obj itself is never written: it may
// be shared with an informer's cache.
func withTypeMeta(obj api.Object, apiVersion, kind string) api.Object {
	if tm := obj.GetTypeMeta(); tm.APIVersion != "" && tm.Kind != "" {
		return obj
	}
	v := reflect.New(reflect.TypeOf(obj).Elem())
	v.Elem().Set(reflect.ValueOf(obj).Elem())
	cp := v.Interface().(api.Object)
	tm := cp.GetTypeMeta()
	if tm.APIVersion == "" {
		tm.APIVersion = apiVersion
	}
	if tm.Kind == "" {
		tm.Kind = kind
	}
	return cp
}

// decodeBody decodes a reply's body into into by its Content-Type:
// protobuf when the server wrote protobuf, JSON otherwise.
func decodeBody(contentType string, body []byte, into any) error {
	if isProtobuf(contentType) {
		_, err := api.DecodeProtobuf(body, into)
		return err
	}
	return json.Unmarshal(body, into)
}

// isProtobuf reports whether a Content-Type is Kubernetes' protobuf (with
// or without ";stream=watch").
func isProtobuf(contentType string) bool {
	mt, _, _ := mime.ParseMediaType(contentType)
	return mt == api.ContentTypeProtobuf
}
