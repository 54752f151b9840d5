package watchcache

import (
	"reflect"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"kubeloop/api"
)

// sharedPod is a pod as a ReplicaSet's template makes it: a container with
// requests, labels, an owner.
func sharedPod(name, node string) *api.Pod {
	p := nodePod(name, node)
	p.Labels = map[string]string{"app": "web"}
	p.OwnerReferences = []api.OwnerReference{{APIVersion: "apps/v1", Kind: "ReplicaSet", Name: "web", UID: "rs-uid"}}
	p.Spec.Containers = []api.Container{{Name: "web", Image: "nginx:1.27", Resources: api.ResourceRequirements{
		Requests: api.ResourceList{api.ResourceCPU: api.MustParseQuantity("10m")}}}}
	p.ManagedFields = []api.ManagedFieldsEntry{{Manager: "kube-controller-manager", Operation: "Update",
		FieldsV1: &api.FieldsV1{Raw: []byte(`{"f:metadata":{"f:labels":{}}}`)}}}
	return p
}

func TestShareUnchangedKeepsContentAndSharesEqualParts(t *testing.T) {
	old := sharedPod("a", "")
	cur := sharedPod("a", "node-1")
	cur.Status.Phase = api.PodRunning
	want := cur.DeepCopy()

	var s partSharer
	s.share(cur, old)

	require.Equal(t, want, cur, "sharing never changes what the object says")
	require.Same(t, &old.Spec.Containers[0], &cur.Spec.Containers[0], "the unchanged containers are the older version's")
	require.Same(t, old.ManagedFields[0].FieldsV1, cur.ManagedFields[0].FieldsV1, "an unchanged managedFields set is held once")
	old.Labels["probe"] = "x"
	require.Equal(t, "x", cur.Labels["probe"], "the unchanged labels are the older version's map")
	require.Equal(t, "node-1", cur.Spec.NodeName)
	require.NotEqual(t, old.Status.Phase, cur.Status.Phase)
}

func TestShareUnchangedLeavesChangedPartsAlone(t *testing.T) {
	old := sharedPod("a", "node-1")
	cur := sharedPod("a", "node-1")
	cur.Labels["tier"] = "front"
	cur.Spec.Containers[0].Image = "nginx:1.28"

	var s partSharer
	s.share(cur, old)

	require.Equal(t, map[string]string{"app": "web"}, old.Labels, "the older version is never changed")
	require.Equal(t, "nginx:1.27", old.Spec.Containers[0].Image)
	require.Equal(t, "nginx:1.28", cur.Spec.Containers[0].Image)
	require.NotSame(t, &old.Spec.Containers[0], &cur.Spec.Containers[0])
	require.Equal(t, reflect.ValueOf(old.Spec.Containers[0].Resources.Requests).Pointer(),
		reflect.ValueOf(cur.Spec.Containers[0].Resources.Requests).Pointer(),
		"inside a changed container, its unchanged requests are shared")
}

func TestNewObjectSharesWithTheOneAddedBefore(t *testing.T) {
	info, _ := api.Builtin().ForResource("", "pods")
	w := newWatchCache(info, 10)
	w.replace(nil, 1)
	a, b := sharedPod("a", "node-1"), sharedPod("b", "node-2")
	a.ResourceVersion, b.ResourceVersion = "2", "3"
	w.processEvent(api.Added, a, 2, time.Now())
	ev := w.processEvent(api.Added, b, 3, time.Now())

	got := ev.Object.(*api.Pod)
	require.Equal(t, "b", got.Name)
	require.Equal(t, "node-2", got.Spec.NodeName)
	require.Same(t, a.ManagedFields[0].FieldsV1, got.ManagedFields[0].FieldsV1, "pods of one template hold its sets once")
	require.Equal(t, "node-2", ev.ObjFields.get("spec.nodeName"))
}

func TestShareUnchangedSharesTheEntriesALongerSliceKeeps(t *testing.T) {
	old := sharedPod("a", "")
	cur := sharedPod("a", "node-1")
	cur.ManagedFields = append(cur.ManagedFields, api.ManagedFieldsEntry{Manager: "kubelet", Operation: "Update",
		Subresource: "status", FieldsV1: &api.FieldsV1{Raw: []byte(`{"f:status":{}}`)}})
	want := cur.DeepCopy()

	var s partSharer
	s.share(cur, old)

	require.Equal(t, want, cur)
	require.Len(t, old.ManagedFields, 1, "the older version is never changed")
	require.Same(t, old.ManagedFields[0].FieldsV1, cur.ManagedFields[0].FieldsV1, "the first writer's set, unchanged, is held once")
}
