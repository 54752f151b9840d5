package api

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestDecodeStrictReportsUnknownFieldsByPath(t *testing.T) {
	body := `{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p","labelz":{"a":"b"}},
		"spec":{"foo":1,"containers":[{"name":"a","image":"x"},{"name":"b","bar":{"deep":[1,2,{"x":1}]}}],
		"affinity":{"nodeAffinity":{"preferred":[]}}},"status":{"phase":"Running"},"extra":null}`
	var pod Pod
	unknown, dups, err := DecodeStrict([]byte(body), &pod)
	require.NoError(t, err)
	assert.Equal(t, []string{"metadata.labelz", "spec.foo", "spec.containers[1].bar", "spec.affinity.nodeAffinity.preferred", "extra"}, unknown)
	assert.Empty(t, dups)
	// The known fields are decoded all the same.
	assert.Equal(t, "p", pod.Name)
	assert.Equal(t, "b", pod.Spec.Containers[1].Name)
	assert.Equal(t, PodRunning, pod.Status.Phase)
}

func TestDecodeStrictTreatsCaseMismatchAsUnknown(t *testing.T) {
	var cm ConfigMap
	unknown, _, err := DecodeStrict([]byte(`{"Data":{"a":"b"}}`), &cm)
	require.NoError(t, err)
	assert.Equal(t, []string{"Data"}, unknown)
}

func TestDecodeStrictReportsDuplicateFields(t *testing.T) {
	body := `{"metadata":{"name":"a","name":"b","labels":{"x":"1","x":"2"}},"data":{"k":"v"},"data":{"k":"w"}}`
	var cm ConfigMap
	unknown, dups, err := DecodeStrict([]byte(body), &cm)
	require.NoError(t, err)
	assert.Empty(t, unknown)
	assert.Equal(t, []string{"metadata.name", "metadata.labels.x", "data"}, dups)
	assert.Equal(t, "b", cm.Name, "the last duplicate wins, as in encoding/json")
}

func TestDecodeStrictNamesWronglyTypedFields(t *testing.T) {
	cases := map[string]string{
		`{"spec":{"replicas":"three"}}`:                    `spec.replicas: expected integer, got string "three"`,
		`{"spec":{"replicas":3000000000}}`:                 "spec.replicas: 3000000000 is not a valid int32",
		`{"spec":{"replicas":1.5}}`:                        "spec.replicas",
		`{"metadata":{"labels":["a"]}}`:                    "metadata.labels: expected object, got an array",
		`{"spec":{"template":{"spec":{"containers":{}}}}}`: "spec.template.spec.containers: expected array, got an object",
		`{"metadata":{"creationTimestamp":"yesterday"}}`:   "metadata.creationTimestamp: ",
		`{"spec":{"template":{"spec":{"containers":[{"name":"a","resources":{"limits":{"cpu":"lots"}}}]}}}}`: `spec.template.spec.containers[0].resources.limits.cpu: quantity "lots" is invalid`,
		`{"spec":{"minReadySeconds":true}}`: "spec.minReadySeconds: expected integer, got boolean true",
		`{"metadata":{"name":5}}`:           "metadata.name: expected string, got number 5",
	}
	for body, want := range cases {
		var rs ReplicaSet
		_, _, err := DecodeStrict([]byte(body), &rs)
		require.Error(t, err, body)
		assert.Contains(t, err.Error(), want, body)
	}
}

func TestDecodeStrictRejectsMalformedJSON(t *testing.T) {
	for _, body := range []string{``, `{`, `{"a":}`, `[]`, `"x"`, `{"metadata":{"name":"a"}} trailing`, `{"a":1,}`} {
		var cm ConfigMap
		_, _, err := DecodeStrict([]byte(body), &cm)
		assert.Error(t, err, body)
	}
}

func TestDecodeNamesWronglyTypedFieldAndIgnoresUnknown(t *testing.T) {
	var rs ReplicaSet
	err := Decode([]byte(`{"spec":{"replicas":"three"}}`), &rs)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "spec.replicas")

	require.NoError(t, Decode([]byte(`{"spec":{"replicas":2,"bogus":1}}`), &rs))
	assert.Equal(t, int32(2), *rs.Spec.Replicas)
	assert.Error(t, Decode([]byte(`{"spec":`), &rs))
}

func TestEncodeWritesKubernetesShape(t *testing.T) {
	replicas := int32(2)
	rs := &ReplicaSet{
		TypeMeta:   TypeMeta{APIVersion: "apps/v1", Kind: "ReplicaSet"},
		ObjectMeta: ObjectMeta{Name: "web", Namespace: "default"},
		Spec: ReplicaSetSpec{Replicas: &replicas, Selector: &LabelSelector{MatchLabels: map[string]string{"app": "web"}},
			Template: PodTemplateSpec{Spec: PodSpec{Containers: []Container{{Name: "c", Image: "nginx"}}}}},
	}
	b, err := Encode(rs)
	require.NoError(t, err)
	assert.JSONEq(t, `{"apiVersion":"apps/v1","kind":"ReplicaSet",
		"metadata":{"name":"web","namespace":"default"},
		"spec":{"replicas":2,"selector":{"matchLabels":{"app":"web"}},
			"template":{"metadata":{},"spec":{"containers":[{"name":"c","image":"nginx","resources":{}}]}}},
		"status":{"replicas":0}}`, string(b))
}
