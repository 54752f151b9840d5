package strategicpatch

import (
	"reflect"
	"testing"

	"github.com/stretchr/testify/require"

	"kubeloop/api"
)

// The expected results follow Kubernetes' strategicpatch behaviour for the
// same inputs (staging/src/k8s.io/apimachinery/pkg/util/strategicpatch).
func TestApplyPodPatches(t *testing.T) {
	pod := `{"metadata":{"name":"p","labels":{"a":"1","b":"2"},"finalizers":["x","y"]},
	  "spec":{"containers":[
	    {"name":"web","image":"nginx:1","ports":[{"containerPort":80},{"containerPort":443}],"env":[{"name":"A","value":"1"}]},
	    {"name":"side","image":"busybox"}],
	  "tolerations":[{"key":"k1","operator":"Exists"}]},
	  "status":{"conditions":[{"type":"Ready","status":"False"},{"type":"PodScheduled","status":"True"}]}}`
	cases := []struct {
		name, patch, want string
	}{
		{
			name:  "container merged by name keeps the others",
			patch: `{"spec":{"containers":[{"name":"web","image":"nginx:2"}]}}`,
			want: `{"metadata":{"name":"p","labels":{"a":"1","b":"2"},"finalizers":["x","y"]},
			  "spec":{"containers":[
			    {"name":"web","image":"nginx:2","ports":[{"containerPort":80},{"containerPort":443}],"env":[{"name":"A","value":"1"}]},
			    {"name":"side","image":"busybox"}],
			  "tolerations":[{"key":"k1","operator":"Exists"}]},
			  "status":{"conditions":[{"type":"Ready","status":"False"},{"type":"PodScheduled","status":"True"}]}}`,
		},
		{
			name: "kubectl apply removing a container and a label, adding one",
			patch: `{"metadata":{"labels":{"b":null,"c":"3"}},"spec":{
			  "$setElementOrder/containers":[{"name":"web"},{"name":"new"}],
			  "containers":[{"name":"new","image":"redis"},{"$patch":"delete","name":"side"}]}}`,
			want: `{"metadata":{"name":"p","labels":{"a":"1","c":"3"},"finalizers":["x","y"]},
			  "spec":{"containers":[
			    {"name":"web","image":"nginx:1","ports":[{"containerPort":80},{"containerPort":443}],"env":[{"name":"A","value":"1"}]},
			    {"name":"new","image":"redis"}],
			  "tolerations":[{"key":"k1","operator":"Exists"}]},
			  "status":{"conditions":[{"type":"Ready","status":"False"},{"type":"PodScheduled","status":"True"}]}}`,
		},
		{
			name:  "setElementOrder reorders without changing contents",
			patch: `{"spec":{"$setElementOrder/containers":[{"name":"side"},{"name":"web"}]}}`,
			want: `{"metadata":{"name":"p","labels":{"a":"1","b":"2"},"finalizers":["x","y"]},
			  "spec":{"containers":[
			    {"name":"side","image":"busybox"},
			    {"name":"web","image":"nginx:1","ports":[{"containerPort":80},{"containerPort":443}],"env":[{"name":"A","value":"1"}]}],
			  "tolerations":[{"key":"k1","operator":"Exists"}]},
			  "status":{"conditions":[{"type":"Ready","status":"False"},{"type":"PodScheduled","status":"True"}]}}`,
		},
		{
			// Without $setElementOrder, elements the patch names come
			// first, as in Kubernetes; kubectl apply always sends the order.
			name:  "ports merge by containerPort, env by name, tolerations replace",
			patch: `{"spec":{"containers":[{"name":"web","ports":[{"containerPort":80,"name":"http"}],"env":[{"name":"B","value":"2"}]}],"tolerations":[{"key":"k2","operator":"Exists"}]}}`,
			want: `{"metadata":{"name":"p","labels":{"a":"1","b":"2"},"finalizers":["x","y"]},
			  "spec":{"containers":[
			    {"name":"web","image":"nginx:1","ports":[{"containerPort":80,"name":"http"},{"containerPort":443}],"env":[{"name":"B","value":"2"},{"name":"A","value":"1"}]},
			    {"name":"side","image":"busybox"}],
			  "tolerations":[{"key":"k2","operator":"Exists"}]},
			  "status":{"conditions":[{"type":"Ready","status":"False"},{"type":"PodScheduled","status":"True"}]}}`,
		},
		{
			name:  "conditions merge by type; finalizers union and deleteFromPrimitiveList",
			patch: `{"metadata":{"finalizers":["z"],"$deleteFromPrimitiveList/finalizers":["x"]},"status":{"conditions":[{"type":"Ready","status":"True"}]}}`,
			want: `{"metadata":{"name":"p","labels":{"a":"1","b":"2"},"finalizers":["z","y"]},
			  "spec":{"containers":[
			    {"name":"web","image":"nginx:1","ports":[{"containerPort":80},{"containerPort":443}],"env":[{"name":"A","value":"1"}]},
			    {"name":"side","image":"busybox"}],
			  "tolerations":[{"key":"k1","operator":"Exists"}]},
			  "status":{"conditions":[{"type":"Ready","status":"True"},{"type":"PodScheduled","status":"True"}]}}`,
		},
		{
			name:  "$patch replace on a map and on a list",
			patch: `{"metadata":{"labels":{"$patch":"replace","only":"me"}},"spec":{"containers":[{"$patch":"replace"},{"name":"solo","image":"x"}]}}`,
			want: `{"metadata":{"name":"p","labels":{"only":"me"},"finalizers":["x","y"]},
			  "spec":{"containers":[{"name":"solo","image":"x"}],
			  "tolerations":[{"key":"k1","operator":"Exists"}]},
			  "status":{"conditions":[{"type":"Ready","status":"False"},{"type":"PodScheduled","status":"True"}]}}`,
		},
		{
			name:  "$retainKeys drops the unlisted keys",
			patch: `{"spec":{"$retainKeys":["containers","restartPolicy"],"restartPolicy":"Never"}}`,
			want: `{"metadata":{"name":"p","labels":{"a":"1","b":"2"},"finalizers":["x","y"]},
			  "spec":{"containers":[
			    {"name":"web","image":"nginx:1","ports":[{"containerPort":80},{"containerPort":443}],"env":[{"name":"A","value":"1"}]},
			    {"name":"side","image":"busybox"}],"restartPolicy":"Never"},
			  "status":{"conditions":[{"type":"Ready","status":"False"},{"type":"PodScheduled","status":"True"}]}}`,
		},
		{
			name:  "null removes a field, $patch delete empties a map",
			patch: `{"spec":{"tolerations":null},"status":{"$patch":"delete"}}`,
			want: `{"metadata":{"name":"p","labels":{"a":"1","b":"2"},"finalizers":["x","y"]},
			  "spec":{"containers":[
			    {"name":"web","image":"nginx:1","ports":[{"containerPort":80},{"containerPort":443}],"env":[{"name":"A","value":"1"}]},
			    {"name":"side","image":"busybox"}]},
			  "status":{}}`,
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			out, err := Apply([]byte(pod), []byte(tc.patch), ForKind("", "Pod"))
			require.NoError(t, err)
			require.JSONEq(t, tc.want, string(out))
		})
	}
}

func TestApplyReplicaSetTemplateMergesLikeAPod(t *testing.T) {
	rs := `{"spec":{"replicas":1,"template":{"metadata":{"labels":{"app":"a"}},"spec":{"containers":[{"name":"a","image":"1"},{"name":"b","image":"1"}]}}}}`
	patch := `{"spec":{"replicas":3,"template":{"spec":{"containers":[{"name":"b","image":"2"}]}}}}`
	out, err := Apply([]byte(rs), []byte(patch), ForKind("apps", "ReplicaSet"))
	require.NoError(t, err)
	require.JSONEq(t, `{"spec":{"replicas":3,"template":{"metadata":{"labels":{"app":"a"}},"spec":{"containers":[{"name":"a","image":"1"},{"name":"b","image":"2"}]}}}}`, string(out))
}

func TestApplyUnknownListsAreReplaced(t *testing.T) {
	out, err := Apply([]byte(`{"data":{"k":"v"},"list":[1,2]}`), []byte(`{"list":[3],"data":{"k2":"v2"}}`), ForKind("", "ConfigMap"))
	require.NoError(t, err)
	require.JSONEq(t, `{"data":{"k":"v","k2":"v2"},"list":[3]}`, string(out))
}

func TestApplyNewListDropsDirectives(t *testing.T) {
	out, err := Apply([]byte(`{"spec":{}}`), []byte(`{"spec":{"containers":[{"name":"a"},{"$patch":"delete","name":"b"}]}}`), ForKind("", "Pod"))
	require.NoError(t, err)
	require.JSONEq(t, `{"spec":{"containers":[{"name":"a"}]}}`, string(out))
}

func TestApplyRejectsBadPatches(t *testing.T) {
	for name, patch := range map[string]string{
		"unknown directive":        `{"spec":{"$patch":"explode"}}`,
		"element without key":      `{"spec":{"containers":[{"image":"x"}]}}`,
		"retainKeys violation":     `{"spec":{"$retainKeys":["a"],"b":1}}`,
		"not an object":            `[1]`,
		"delete without merge key": `{"spec":{"containers":[{"$patch":"delete"}]}}`,
		"object as merge key":      `{"spec":{"containers":[{"name":{"a":"b"}}]}}`,
		"list as merge key":        `{"spec":{"containers":[{"name":["a"],"image":"x"}]}}`,
		"object as deleted key":    `{"spec":{"containers":[{"$patch":"delete","name":{}}]}}`,
		"object in element order":  `{"spec":{"$setElementOrder/containers":[{"name":{}}]}}`,
	} {
		t.Run(name, func(t *testing.T) {
			_, err := Apply([]byte(`{"spec":{"containers":[{"name":"a"}]}}`), []byte(patch), ForKind("", "Pod"))
			require.ErrorIs(t, err, ErrBadPatch)
		})
	}
}

// The merge keys come from the api types' struct tags, so every list
// Kubernetes merges is merged, including the ones kubeloop's old hand-written
// table never listed (pod status resourceClaimStatuses, an ephemeral
// container's env through the inline EphemeralContainerCommon).
func TestApplyMergesEveryListTheStructTagsMerge(t *testing.T) {
	cases := []struct {
		name, original, patch, want string
	}{
		{
			name:     "volumes by name",
			original: `{"spec":{"volumes":[{"name":"a","emptyDir":{}},{"name":"b","emptyDir":{}}]}}`,
			patch:    `{"spec":{"volumes":[{"name":"b","configMap":{"name":"cm"}}]}}`,
			want:     `{"spec":{"volumes":[{"name":"a","emptyDir":{}},{"name":"b","emptyDir":{},"configMap":{"name":"cm"}}]}}`,
		},
		{
			name:     "imagePullSecrets by name",
			original: `{"spec":{"imagePullSecrets":[{"name":"one"}]}}`,
			patch:    `{"spec":{"imagePullSecrets":[{"name":"two"}]}}`,
			want:     `{"spec":{"imagePullSecrets":[{"name":"two"},{"name":"one"}]}}`,
		},
		{
			name:     "hostAliases by ip",
			original: `{"spec":{"hostAliases":[{"ip":"10.0.0.1","hostnames":["a"]},{"ip":"10.0.0.2","hostnames":["b"]}]}}`,
			patch:    `{"spec":{"hostAliases":[{"ip":"10.0.0.2","hostnames":["c"]}]}}`,
			want:     `{"spec":{"hostAliases":[{"ip":"10.0.0.1","hostnames":["a"]},{"ip":"10.0.0.2","hostnames":["c"]}]}}`,
		},
		{
			name:     "status resourceClaimStatuses by name (unknown to the old table)",
			original: `{"status":{"resourceClaimStatuses":[{"name":"gpu","resourceClaimName":"gpu-1"},{"name":"nic"}]}}`,
			patch:    `{"status":{"resourceClaimStatuses":[{"name":"nic","resourceClaimName":"nic-1"}]}}`,
			want:     `{"status":{"resourceClaimStatuses":[{"name":"gpu","resourceClaimName":"gpu-1"},{"name":"nic","resourceClaimName":"nic-1"}]}}`,
		},
		{
			name:     "an ephemeral container's env by name, through the inline common fields",
			original: `{"spec":{"ephemeralContainers":[{"name":"debug","env":[{"name":"A","value":"1"}]}]}}`,
			patch:    `{"spec":{"ephemeralContainers":[{"name":"debug","env":[{"name":"B","value":"2"}]}]}}`,
			want:     `{"spec":{"ephemeralContainers":[{"name":"debug","env":[{"name":"B","value":"2"},{"name":"A","value":"1"}]}]}}`,
		},
		{
			name:     "containerStatuses are atomic, as in Kubernetes",
			original: `{"status":{"containerStatuses":[{"name":"a","ready":true},{"name":"b","ready":true}]}}`,
			patch:    `{"status":{"containerStatuses":[{"name":"b","ready":false}]}}`,
			want:     `{"status":{"containerStatuses":[{"name":"b","ready":false}]}}`,
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			out, err := Apply([]byte(tc.original), []byte(tc.patch), ForKind("", "Pod"))
			require.NoError(t, err)
			require.JSONEq(t, tc.want, string(out))
		})
	}
}

func TestForTypeReadsTheStructTags(t *testing.T) {
	s := ForType(reflect.TypeFor[api.Node]())
	addresses := s.sub("status").field("addresses")
	require.NotNil(t, addresses)
	require.True(t, addresses.Merge)
	require.Equal(t, "type", addresses.MergeKey)
	cidrs := s.sub("spec").field("podCIDRs")
	require.True(t, cidrs.Merge, "a merged list of scalars")
	require.Empty(t, cidrs.MergeKey)
	require.False(t, s.sub("spec").field("taints").Merge, "taints have no strategy: replaced")
	require.Nil(t, s.sub("metadata").field("creationTimestamp"), "Time marshals itself: not an object")
	require.Nil(t, s.field("kind"), "inline TypeMeta holds only scalars")

	pod := ForType(reflect.TypeFor[api.Pod]())
	require.Same(t, pod.sub("spec").field("containers").Schema, pod.sub("spec").field("initContainers").Schema,
		"one Schema per Go type")
}

func TestForKindOfAnUnknownKindMergesOnlyMetadata(t *testing.T) {
	s := ForKind("example.com", "Widget")
	require.Equal(t, "uid", s.sub("metadata").field("ownerReferences").MergeKey)
	require.Len(t, s.Fields, 1)
}

// The order of a merged list. The patch's elements keep the patch's order
// (or the $setElementOrder list's); an element only the server has is
// placed before the next patch element that comes after it on the server,
// and an element new to the server does not hold one back (Kubernetes'
// mergeSortedSlice). Every expectation is what Kubernetes'
// StrategicMergePatch returns for the same input.
func TestApplyListOrder(t *testing.T) {
	pod := `{"spec":{"containers":[{"name":"a"},{"name":"b"},{"name":"c"},{"name":"d"}]}}`
	cases := []struct{ name, patch, want string }{
		{
			name:  "server-only elements interleave by the server's order",
			patch: `{"spec":{"containers":[{"name":"c","image":"2"},{"name":"a","image":"2"}]}}`,
			want:  `[{"name":"b"},{"name":"c","image":"2"},{"name":"a","image":"2"},{"name":"d"}]`,
		},
		{
			name:  "a new element at the head of the patch comes first",
			patch: `{"spec":{"containers":[{"name":"x"},{"name":"b","image":"2"}]}}`,
			want:  `[{"name":"x"},{"name":"a"},{"name":"b","image":"2"},{"name":"c"},{"name":"d"}]`,
		},
		{
			name:  "setElementOrder orders the named elements, server-only ones stay put",
			patch: `{"spec":{"$setElementOrder/containers":[{"name":"d"},{"name":"b"},{"name":"x"}],"containers":[{"name":"b","image":"2"},{"name":"x"}]}}`,
			want:  `[{"name":"a"},{"name":"c"},{"name":"d"},{"name":"b","image":"2"},{"name":"x"}]`,
		},
		{
			name:  "a repeated patch element merges into the first",
			patch: `{"spec":{"containers":[{"name":"x","image":"1"},{"name":"x","tty":true}]}}`,
			want:  `[{"name":"x","image":"1","tty":true},{"name":"a"},{"name":"b"},{"name":"c"},{"name":"d"}]`,
		},
		{
			name:  "deleted and added again: a new element",
			patch: `{"spec":{"containers":[{"$patch":"delete","name":"b"},{"name":"b","image":"new"}]}}`,
			want:  `[{"name":"b","image":"new"},{"name":"a"},{"name":"c"},{"name":"d"}]`,
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			out, err := Apply([]byte(pod), []byte(tc.patch), ForKind("", "Pod"))
			require.NoError(t, err)
			require.JSONEq(t, `{"spec":{"containers":`+tc.want+`}}`, string(out))
		})
	}
}

func TestApplyDeleteRemovesEveryMatch(t *testing.T) {
	out, err := Apply([]byte(`{"metadata":{"ownerReferences":[{"uid":"1","name":"a"},{"uid":"2"},{"uid":"1","name":"b"}]}}`),
		[]byte(`{"metadata":{"ownerReferences":[{"$patch":"delete","uid":"1"}]}}`), ForKind("", "Pod"))
	require.NoError(t, err)
	require.JSONEq(t, `{"metadata":{"ownerReferences":[{"uid":"2"}]}}`, string(out))
}

func TestApplyScalarListOrder(t *testing.T) {
	out, err := Apply([]byte(`{"metadata":{"finalizers":["a","b","c"]}}`),
		[]byte(`{"metadata":{"$setElementOrder/finalizers":["c","x","a"],"finalizers":["x"]}}`), ForKind("", "Pod"))
	require.NoError(t, err)
	require.JSONEq(t, `{"metadata":{"finalizers":["b","c","x","a"]}}`, string(out))
}
