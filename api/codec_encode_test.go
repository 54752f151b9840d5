package api

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"sigs.k8s.io/yaml"
)

// Encode writes json.Marshal's bytes, and writes them itself (without
// giving up to Marshal) for the objects the apiserver stores and answers.
func TestEncodeIsJSONMarshal(t *testing.T) {
	many := map[string]string{}
	for i := range 40 {
		many[fmt.Sprintf("k%d", 40-i)] = fmt.Sprint(i)
	}
	objects := map[string]Object{
		"created configmap": storedConfigMap(t),
		"created pod":       storedPod(t),
		"tracked pod":       trackedPod(t),
		"odd strings": &ConfigMap{ObjectMeta: ObjectMeta{Name: "a<b>&c", Labels: many,
			Annotations: map[string]string{"é": "\u2028\u2029", "ctl": "\x01\t\n\"\\", "bad": "\xff", "": ""}},
			Data: map[string]string{}, BinaryData: map[string][]byte{"a": {0, 1, 2}, "b": {}, "c": nil}},
		"empties": &Pod{ObjectMeta: ObjectMeta{Finalizers: []string{}, Labels: map[string]string{}},
			Spec: PodSpec{Containers: []Container{{Resources: ResourceRequirements{Limits: ResourceList{}}}}}},
		"zero times": &Pod{Status: PodStatus{Conditions: []PodCondition{{Type: PodReady}},
			ContainerStatuses: []ContainerStatus{{State: ContainerState{Running: &ContainerStateRunning{}}}}}},
		"a lease": &Lease{ObjectMeta: ObjectMeta{Name: "n"}, Spec: LeaseSpec{
			RenewTime: &MicroTime{time.Date(2026, 1, 2, 3, 4, 5, 600_000_000, time.UTC)}, AcquireTime: &MicroTime{}}},
	}
	paths, err := filepath.Glob("testdata/*.yaml")
	require.NoError(t, err)
	for _, p := range paths {
		raw, err := os.ReadFile(p)
		require.NoError(t, err)
		data, err := yaml.YAMLToJSON(raw)
		require.NoError(t, err)
		var tm TypeMeta
		require.NoError(t, json.Unmarshal(data, &tm))
		group, _, found := strings.Cut(tm.APIVersion, "/")
		if !found {
			group = ""
		}
		info, ok := Builtin().ForKind(group, tm.Kind)
		if !ok {
			continue
		}
		obj := info.New()
		require.NoError(t, json.Unmarshal(data, obj))
		objects[p] = obj
	}
	for name, obj := range objects {
		t.Run(name, func(t *testing.T) {
			want, err := json.Marshal(obj)
			require.NoError(t, err)
			got, ok := encodeClean(nil, obj)
			require.True(t, ok, "encodeClean gave up")
			assert.Equal(t, string(want), string(got))
			got, err = Encode(obj)
			require.NoError(t, err)
			assert.Equal(t, string(want), string(got))
		})
	}
}

// A managedFields set that compacting would change, or that is not JSON,
// is left to Marshal, whose bytes (or error) are json.Marshal's.
func TestEncodeLeavesSetsToCompactToMarshal(t *testing.T) {
	for _, raw := range []string{`{"f:a": {}}`, `{"k:{\"n\":\"<a>\"}":{}}`, "{\"f:\u2028\":{}}", `{"f:a":`, `nope`} {
		cm := storedConfigMap(t)
		cm.ManagedFields[0].FieldsV1.Raw = []byte(raw)
		_, ok := encodeClean(nil, cm)
		assert.False(t, ok, raw)
		want, wantErr := json.Marshal(cm)
		got, err := Encode(cm)
		if wantErr != nil {
			require.Error(t, err, raw)
			continue
		}
		require.NoError(t, err, raw)
		assert.Equal(t, string(want), string(got), raw)
	}
}
