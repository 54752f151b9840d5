package conformance

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/managedfields"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	"sigs.k8s.io/yaml"

	"kubeloop/api"
	"kubeloop/apiserver/fieldmanager"
	"kubeloop/apiserver/fieldmanager/typed"
)

// applyStep is one write of an apply sequence: an apply (config set) or a
// plain update by mutate.
type applyStep struct {
	manager string
	config  string // YAML apply configuration; empty for an update
	force   bool
	mutate  func(map[string]any)
	// conflict is the message Kubernetes refuses the step with, if any
	conflict string
}

// TestApplyMatchesKubernetes runs apply sequences through apimachinery's
// default field manager and ours: resulting objects, managedFields and
// conflict messages must agree.
func TestApplyMatchesKubernetes(t *testing.T) {
	for name, tc := range map[string]struct {
		gvk   schema.GroupVersionKind
		steps []applyStep
	}{
		"configmap ownership": {schema.GroupVersionKind{Version: "v1", Kind: "ConfigMap"}, []applyStep{
			{manager: "alice", config: "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c, namespace: default, labels: {x: 'y'}}\ndata: {a: '1', b: '1'}\n"},
			{manager: "bob", config: "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c, namespace: default}\ndata: {a: '2', c: '3'}\n",
				conflict: `Apply failed with 1 conflict: conflict with "alice": .data.a`},
			{manager: "bob", config: "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c, namespace: default}\ndata: {a: '2', c: '3'}\n", force: true},
			{manager: "alice", config: "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c, namespace: default}\ndata: {b: '1'}\n"},
			{manager: "editor", mutate: func(o map[string]any) { o["data"].(map[string]any)["b"] = "9" }},
			{manager: "alice", config: "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c, namespace: default}\ndata: {b: '1', d: '4'}\n",
				conflict: `Apply failed with 1 conflict: conflict with "editor" using v1: .data.b`},
			{manager: "bob", config: "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c, namespace: default}\ndata: {}\n"},
		}},
		"pod containers": {schema.GroupVersionKind{Version: "v1", Kind: "Pod"}, []applyStep{
			{manager: "alice", config: `apiVersion: v1
kind: Pod
metadata: {name: p, namespace: default}
spec:
  containers:
  - {name: a, image: x, ports: [{containerPort: 80}, {containerPort: 53, protocol: UDP}], env: [{name: A, value: "1"}]}
  - {name: b, image: "y"}
  tolerations: [{key: k, operator: Exists}]
`},
			{manager: "bob", config: `apiVersion: v1
kind: Pod
metadata: {name: p, namespace: default}
spec:
  containers:
  - {name: c, image: z}
  - {name: a, env: [{name: B, value: "2"}]}
`},
			{manager: "alice", config: `apiVersion: v1
kind: Pod
metadata: {name: p, namespace: default}
spec:
  containers:
  - {name: a, image: x2, ports: [{containerPort: 80}]}
`},
			{manager: "carol", config: `apiVersion: v1
kind: Pod
metadata: {name: p, namespace: default}
spec:
  containers:
  - {name: a, image: x3}
  tolerations: []
`, conflict: `Apply failed with 1 conflict: conflict with "alice": .spec.containers[name="a"].image`},
			// alice's last apply dropped the tolerations she alone owned, so
			// they were removed and carol's [] conflicts with nobody; with
			// force carol takes the image
			{manager: "carol", force: true, config: `apiVersion: v1
kind: Pod
metadata: {name: p, namespace: default}
spec:
  containers:
  - {name: a, image: x3}
`},
			{manager: "dave", config: `apiVersion: v1
kind: Pod
metadata: {name: p, namespace: default}
spec:
  containers:
  - {name: a, image: x4, env: [{name: B, value: "3"}]}
`, conflict: "Apply failed with 2 conflicts: conflicts with \"bob\":\n- .spec.containers[name=\"a\"].env[name=\"B\"].value\nconflicts with \"carol\":\n- .spec.containers[name=\"a\"].image"},
		}},
	} {
		t.Run(name, func(t *testing.T) { runApplySequence(t, tc.gvk, tc.steps) })
	}
}

func runApplySequence(t *testing.T, gvk schema.GroupVersionKind, steps []applyStep) {
	k8s, err := managedfields.NewDefaultFieldManager(smdTypeConverter(), clientgoscheme.Scheme, clientgoscheme.Scheme,
		clientgoscheme.Scheme, gvk, gvk.GroupVersion(), "", k8sResetFields(t, gvk, ""))
	require.NoError(t, err)
	info, ok := api.Builtin().ForKind(gvk.Group, gvk.Kind)
	require.True(t, ok)
	ours := fieldmanager.NewFieldManager(typed.ForObject(info.New()), gvk.GroupVersion().String(), "")

	k8sLive, err := clientgoscheme.Scheme.New(gvk)
	require.NoError(t, err)
	ourLive := info.New()
	for i, step := range steps {
		var k8sOut runtime.Object
		var k8sErr error
		var ourObj api.Object
		var ourErr error
		if step.config != "" {
			js, err := yaml.YAMLToJSON([]byte(step.config))
			require.NoError(t, err)
			u := &unstructured.Unstructured{}
			require.NoError(t, u.UnmarshalJSON(js))
			k8sOut, k8sErr = k8s.Apply(k8sLive, u, step.manager, step.force)

			cfg, err := typed.DecodeValue(js)
			require.NoError(t, err)
			merged, managed, err := ours.Apply(ourLive, cfg, step.manager, step.force)
			ourErr = err
			if err == nil {
				b, err := json.Marshal(merged)
				require.NoError(t, err)
				ourObj = info.New()
				require.NoError(t, json.Unmarshal(b, ourObj))
				ourObj.GetObjectMeta().ManagedFields = managed
			}
		} else {
			m, err := runtime.DefaultUnstructuredConverter.ToUnstructured(k8sLive)
			require.NoError(t, err)
			step.mutate(m)
			k8sNew, err := clientgoscheme.Scheme.New(gvk)
			require.NoError(t, err)
			require.NoError(t, runtime.DefaultUnstructuredConverter.FromUnstructured(m, k8sNew))
			k8sOut = k8s.UpdateNoErrors(k8sLive, k8sNew, step.manager)
			ourObj = toOurs(t, k8sNew)
			ours.Update(ourLive, ourObj, step.manager)
		}
		if step.conflict != "" {
			require.Error(t, k8sErr, "step %d: Kubernetes should refuse", i)
			assert.Equal(t, step.conflict, k8sErr.(*apierrors.StatusError).ErrStatus.Message, "step %d: the expected message is Kubernetes'", i)
			require.Error(t, ourErr, "step %d", i)
			assert.Equal(t, step.conflict, ourErr.Error(), "step %d", i)
			var ce *fieldmanager.ConflictError
			require.ErrorAs(t, ourErr, &ce)
			var want, got []string
			for _, c := range k8sErr.(*apierrors.StatusError).ErrStatus.Details.Causes {
				want = append(want, string(c.Type)+" "+c.Field+" "+c.Message)
			}
			for _, c := range ce.Status().ErrStatus.Details.Causes {
				got = append(got, string(c.Type)+" "+c.Field+" "+c.Message)
			}
			assert.ElementsMatch(t, want, got, "step %d causes", i)
			assert.Equal(t, int32(k8sErr.(*apierrors.StatusError).ErrStatus.Code), ce.Status().ErrStatus.Code)
			continue
		}
		require.NoError(t, k8sErr, "step %d", i)
		require.NoError(t, ourErr, "step %d", i)
		if k8sOut == nil { // a no-op apply
			k8sOut = k8sLive
		}
		if i == 0 {
			setUID(k8sOut, "uid-1")
			ourObj.GetObjectMeta().UID = "uid-1"
		}
		assert.Equal(t, k8sEntries(t, k8sOut), ourEntries(ourObj), "step %d managedFields", i)
		// the objects, managedFields aside, must be the same
		want := toOurs(t, k8sOut)
		want.GetObjectMeta().ManagedFields, ourObj.GetObjectMeta().ManagedFields = nil, nil
		wantJSON, _ := json.Marshal(want)
		gotJSON, _ := json.Marshal(ourObj)
		assert.JSONEq(t, string(wantJSON), string(gotJSON), "step %d object", i)
		ourObj.GetObjectMeta().ManagedFields = toOurs(t, k8sOut).GetObjectMeta().ManagedFields
		k8sLive, ourLive = k8sOut, ourObj
	}
}
