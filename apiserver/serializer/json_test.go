package serializer

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"

	"kubeloop/api"
)

// The watch handler frames an object it encoded on its own (or took from
// the watch cache's shared encodings) with AppendEvent; the result must be
// byte for byte what encoding/json writes for the whole event, HTML
// escaping and all, so that a client cannot tell the two apart.
func TestJSONStreamFrameIsWhatEncodingJSONWrites(t *testing.T) {
	cm := &api.ConfigMap{TypeMeta: api.TypeMeta{Kind: "ConfigMap", APIVersion: "v1"},
		Data: map[string]string{"html": "<a href=\"x\">&</a>", "uni": "é\u2028"}}
	cm.Name, cm.Namespace = "c", "ns"
	type event struct {
		Type   api.EventType `json:"type"`
		Object any           `json:"object"`
	}
	for _, typ := range []api.EventType{api.Added, api.Modified, api.Deleted, api.Bookmark} {
		var want bytes.Buffer
		require.NoError(t, json.NewEncoder(&want).Encode(event{Type: typ, Object: cm}))
		obj, err := jsonEncoder{}.Encode(cm)
		require.NoError(t, err)
		require.Equal(t, want.String(), string(jsonStream{}.AppendEvent(nil, typ, obj)))
	}
}

func TestDecodersAgreeOnProblemsAndRefuseEmptyBodies(t *testing.T) {
	body := `{"metadata":{"name":"x","name":"y"},"data":{"a":"b"},"extra":1}`
	var fromJSON api.ConfigMap
	problems, err := jsonDecoder{}.Decode([]byte(body), &fromJSON, true)
	require.NoError(t, err)
	require.Equal(t, []string{`unknown field "extra"`, `duplicate field "metadata.name"`}, problems)

	var fromYAML api.ConfigMap
	problems, err = yamlDecoder{}.Decode([]byte("metadata:\n  name: x\ndata:\n  a: b\nextra: 1\n"), &fromYAML, true)
	require.NoError(t, err)
	require.Equal(t, []string{`unknown field "extra"`}, problems)
	require.Equal(t, "b", fromYAML.Data["a"])

	problems, err = yamlDecoder{}.Decode([]byte("metadata:\n  name: x\nextra: 1\n"), &fromYAML, false)
	require.NoError(t, err)
	require.Empty(t, problems, "without strict nothing is reported")

	for _, d := range []Decoder{jsonDecoder{}, yamlDecoder{}} {
		_, err := d.Decode([]byte("  \n"), &api.ConfigMap{}, true)
		require.EqualError(t, err, "the body of the request is empty")
	}
}
