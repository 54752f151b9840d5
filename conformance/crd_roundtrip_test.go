package conformance

import (
	"bytes"
	"encoding/json"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/serializer/protobuf"
	"sigs.k8s.io/yaml"

	"kubeloop/api"
)

// CustomResourceDefinitions are not served yet, but their types are
// declared (api/customresourcedefinition*.go). These tests hold them to
// apiextensions-apiserver's: the same JSON and the same protobuf bytes for
// the same CRD, and the same protobuf field numbers for every field.

func crdFixture(t *testing.T) (yamlBytes, jsonBytes []byte) {
	t.Helper()
	y, err := os.ReadFile("../api/testdata/apiextensions/customresourcedefinition.yaml")
	require.NoError(t, err)
	in, err := yaml.YAMLToJSON(y)
	require.NoError(t, err)
	return y, in
}

func TestCustomResourceDefinitionJSONMatchesKubernetes(t *testing.T) {
	y, in := crdFixture(t)
	var theirs apiextensionsv1.CustomResourceDefinition
	require.NoError(t, yaml.UnmarshalStrict(y, &theirs), "the fixture is a valid Kubernetes CRD")
	want, err := json.Marshal(&theirs)
	require.NoError(t, err)

	var ours api.CustomResourceDefinition
	unknown, _, err := api.DecodeStrict(in, &ours)
	require.NoError(t, err)
	assert.Empty(t, unknown)
	got, err := json.Marshal(&ours)
	require.NoError(t, err)
	assert.Equal(t, string(want), string(got))

	// And Kubernetes reads kubeloop's bytes into the same object.
	var back apiextensionsv1.CustomResourceDefinition
	require.NoError(t, json.Unmarshal(got, &back))
	assert.Equal(t, theirs, back)
}

// Kubernetes' gogo-generated Marshal and the envelope of its protobuf
// serializer, against kubeloop's codec: the same bytes both ways, so
// client-go's apiextensions clientset (which prefers protobuf) can talk to
// kubeloop once CRDs are served.
func TestCustomResourceDefinitionProtobufMatchesKubernetes(t *testing.T) {
	y, in := crdFixture(t)
	var theirs apiextensionsv1.CustomResourceDefinition
	require.NoError(t, yaml.UnmarshalStrict(y, &theirs))
	want, err := theirs.Marshal()
	require.NoError(t, err)

	var ours api.CustomResourceDefinition
	require.NoError(t, api.Decode(in, &ours))
	got, err := api.MarshalProto(&ours)
	require.NoError(t, err)
	assert.True(t, bytes.Equal(want, got), "bare message differs at offset %d of %d", firstDifference(want, got), len(want))

	var back api.CustomResourceDefinition
	require.NoError(t, api.UnmarshalProto(want, &back), "kubeloop reads what Kubernetes writes")
	back.TypeMeta = ours.TypeMeta // the bare message has no type meta
	assert.Equal(t, ours, back)

	scheme := runtime.NewScheme()
	require.NoError(t, apiextensionsv1.AddToScheme(scheme))
	serializer := protobuf.NewSerializer(scheme, scheme)
	theirs.SetGroupVersionKind(apiextensionsv1.SchemeGroupVersion.WithKind("CustomResourceDefinition"))
	var body bytes.Buffer
	require.NoError(t, serializer.Encode(&theirs, &body))
	ours.Kind, ours.APIVersion = "CustomResourceDefinition", "apiextensions.k8s.io/v1"
	enveloped, err := api.EncodeProtobuf(&ours)
	require.NoError(t, err)
	assert.True(t, bytes.Equal(body.Bytes(), enveloped), "envelope differs at offset %d", firstDifference(body.Bytes(), enveloped))
}

func TestCustomResourceDefinitionEmptyJSONMatchesKubernetes(t *testing.T) {
	want, err := json.Marshal(&apiextensionsv1.CustomResourceDefinition{})
	require.NoError(t, err)
	got, err := json.Marshal(&api.CustomResourceDefinition{})
	require.NoError(t, err)
	assert.Equal(t, string(want), string(got))
}

// The protobuf codec derives wire types from Go types, so only the field
// numbers (and the field set) need to agree; a field kubeloop lacks or
// numbers differently fails here by its path.
func TestCustomResourceDefinitionProtobufFieldNumbersMatchKubernetes(t *testing.T) {
	seen := map[reflect.Type]bool{}
	var walk func(theirs, ours reflect.Type, path string)
	walk = func(theirs, ours reflect.Type, path string) {
		for theirs.Kind() == reflect.Pointer || theirs.Kind() == reflect.Slice || theirs.Kind() == reflect.Map {
			theirs, ours = theirs.Elem(), ours.Elem()
		}
		if theirs.Kind() != reflect.Struct || seen[theirs] || !strings.Contains(theirs.PkgPath(), "apiextensions") {
			return
		}
		seen[theirs] = true
		for i := range theirs.NumField() {
			tf := theirs.Field(i)
			tag, ok := tf.Tag.Lookup("protobuf")
			if !ok {
				continue
			}
			of, found := ours.FieldByName(tf.Name)
			if !assert.True(t, found, "%s.%s is missing", path, tf.Name) {
				continue
			}
			assert.Equal(t, protoNumberAndName(tag), protoNumberAndName(of.Tag.Get("protobuf")), "%s.%s", path, tf.Name)
			assert.Equal(t, tf.Tag.Get("json"), of.Tag.Get("json"), "%s.%s", path, tf.Name)
			walk(tf.Type, of.Type, path+"."+tf.Name)
		}
	}
	walk(reflect.TypeFor[apiextensionsv1.CustomResourceDefinition](), reflect.TypeFor[api.CustomResourceDefinition](), "CustomResourceDefinition")
	assert.Greater(t, len(seen), 20, "the walk reached the schema types")
}

// protoNumberAndName is a protobuf tag without its wire type and
// cardinality, which k8s.io's tags do not always state right.
func protoNumberAndName(tag string) string {
	var keep []string
	for i, p := range strings.Split(tag, ",") {
		if i == 1 || strings.HasPrefix(p, "name=") {
			keep = append(keep, p)
		}
	}
	return strings.Join(keep, ",")
}
