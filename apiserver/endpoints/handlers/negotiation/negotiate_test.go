package negotiation

import (
	"net/http/httptest"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kubeloop/api"
	"kubeloop/apiserver/serializer"
)

func TestNegotiateInputSerializerByContentType(t *testing.T) {
	serializers := serializer.SupportedMediaTypes()
	for ct, want := range map[string]string{
		"":                                    serializer.ContentTypeJSON,
		"application/json":                    serializer.ContentTypeJSON,
		"application/json; charset=utf-8":     serializer.ContentTypeJSON,
		"*/*":                                 serializer.ContentTypeJSON,
		"application/yaml":                    serializer.ContentTypeYAML,
		"Application/YAML":                    serializer.ContentTypeYAML,
		"application/vnd.kubernetes.protobuf": serializer.ContentTypeProtobuf,
	} {
		r := httptest.NewRequest("POST", "/api/v1/namespaces/a/configmaps", nil)
		if ct != "" {
			r.Header.Set("Content-Type", ct)
		}
		si, err := NegotiateInputSerializer(r, serializers)
		require.NoError(t, err, ct)
		assert.Equal(t, want, si.MediaType, ct)
	}
	r := httptest.NewRequest("POST", "/api/v1/namespaces/a/configmaps", nil)
	r.Header.Set("Content-Type", "text/plain")
	_, err := NegotiateInputSerializer(r, serializers)
	var se *api.StatusError
	require.ErrorAs(t, err, &se)
	assert.EqualValues(t, 415, se.ErrStatus.Code)
}

func TestNegotiateOutputTakesTheFirstClauseItCanWrite(t *testing.T) {
	serializers := serializer.SupportedMediaTypes()
	protobuf := serializer.ContentTypeProtobuf
	for accept, want := range map[string]struct {
		opts      MediaTypeOptions
		mediaType string
	}{
		"":                 {MediaTypeOptions{}, ""},
		"application/json": {MediaTypeOptions{}, ""},
		"application/json;as=Table;v=v1;g=meta.k8s.io,application/json":                     {MediaTypeOptions{Convert: "Table", ConvertVersion: "v1"}, ""},
		"application/json;as=Table;v=v1beta1;g=meta.k8s.io":                                 {MediaTypeOptions{Convert: "Table", ConvertVersion: "v1beta1"}, ""},
		"application/json,application/json;as=Table;v=v1;g=meta.k8s.io":                     {MediaTypeOptions{}, ""},
		"application/vnd.kubernetes.protobuf;as=Table;v=v1;g=meta.k8s.io,application/json":  {MediaTypeOptions{}, ""},
		"application/json;as=PartialObjectMetadataList;v=v1;g=meta.k8s.io,application/json": {MediaTypeOptions{}, ""},
		"application/json;as=Table;v=v2;g=meta.k8s.io,*/*;as=Table;v=v1;g=meta.k8s.io":      {MediaTypeOptions{Convert: "Table", ConvertVersion: "v1"}, ""},
		"text/html": {MediaTypeOptions{}, ""},
		"application/vnd.kubernetes.protobuf,application/json": {MediaTypeOptions{}, protobuf},
	} {
		r := httptest.NewRequest("GET", "/api/v1/pods", nil)
		if accept != "" {
			r.Header.Set("Accept", accept)
		}
		got, si := NegotiateOutputMediaType(r, serializers)
		assert.Equal(t, want.opts, got, accept)
		if want.mediaType == "" {
			want.mediaType = serializer.ContentTypeJSON
		}
		assert.Equal(t, want.mediaType, si.MediaType, accept)
	}
}
