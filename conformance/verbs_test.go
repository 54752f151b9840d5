package conformance

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	appsv1 "k8s.io/api/apps/v1"
	coordinationv1 "k8s.io/api/coordination/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/util/retry"
	"k8s.io/utils/ptr"
)

// typedClient is the verb set every client-go typed client has.
type typedClient[T runtime.Object, L runtime.Object] interface {
	Create(context.Context, T, metav1.CreateOptions) (T, error)
	Update(context.Context, T, metav1.UpdateOptions) (T, error)
	Get(context.Context, string, metav1.GetOptions) (T, error)
	List(context.Context, metav1.ListOptions) (L, error)
	Watch(context.Context, metav1.ListOptions) (watch.Interface, error)
	Patch(ctx context.Context, name string, pt types.PatchType, data []byte, opts metav1.PatchOptions, subresources ...string) (T, error)
	Delete(context.Context, string, metav1.DeleteOptions) error
	DeleteCollection(context.Context, metav1.DeleteOptions, metav1.ListOptions) error
}

// exerciseVerbs runs every verb of one typed client, with client-go's
// default (protobuf) wire, against objects labelled with the test's own
// label so that cluster-scoped kinds are not disturbed.
func exerciseVerbs[T runtime.Object, L runtime.Object](t *testing.T, c typedClient[T, L], label string, newObj func(name string) T) {
	ctx := context.Background()
	sel := "verbs=" + label
	w, err := c.Watch(ctx, metav1.ListOptions{LabelSelector: sel})
	require.NoError(t, err)
	defer w.Stop()

	names := []string{label + "-a", label + "-b", label + "-c"}
	for _, n := range names {
		obj := newObj(n)
		m, err := meta.Accessor(obj)
		require.NoError(t, err)
		m.SetLabels(map[string]string{"verbs": label})
		created, err := c.Create(ctx, obj, metav1.CreateOptions{})
		require.NoError(t, err, "create %s", n)
		cm, _ := meta.Accessor(created)
		assert.Equal(t, n, cm.GetName())
		assert.NotEmpty(t, cm.GetUID())
	}
	// Controllers write some of these kinds too (a ReplicaSet's status),
	// so the read-modify-write retries on conflict, as clients do.
	var updated T
	err = retry.RetryOnConflict(retry.DefaultRetry, func() error {
		got, err := c.Get(ctx, names[0], metav1.GetOptions{})
		if err != nil {
			return err
		}
		gm, _ := meta.Accessor(got)
		gm.SetAnnotations(map[string]string{"updated": "yes"})
		updated, err = c.Update(ctx, got, metav1.UpdateOptions{})
		return err
	})
	require.NoError(t, err)
	um, _ := meta.Accessor(updated)
	assert.Equal(t, "yes", um.GetAnnotations()["updated"])

	for pt, patch := range map[types.PatchType]string{
		types.MergePatchType:          `{"metadata":{"annotations":{"merge":"yes"}}}`,
		types.StrategicMergePatchType: `{"metadata":{"annotations":{"strategic":"yes"}}}`,
		types.JSONPatchType:           `[{"op":"add","path":"/metadata/annotations/json","value":"yes"}]`,
	} {
		patched, err := c.Patch(ctx, names[0], pt, []byte(patch), metav1.PatchOptions{})
		require.NoError(t, err, "patch %s", pt)
		pm, _ := meta.Accessor(patched)
		assert.Equal(t, "yes", pm.GetAnnotations()["updated"], "%s keeps earlier annotations", pt)
	}
	final, err := c.Get(ctx, names[0], metav1.GetOptions{})
	require.NoError(t, err)
	fm, _ := meta.Accessor(final)
	assert.Equal(t, map[string]string{"updated": "yes", "merge": "yes", "strategic": "yes", "json": "yes"}, fm.GetAnnotations())

	list, err := c.List(ctx, metav1.ListOptions{LabelSelector: sel})
	require.NoError(t, err)
	items, err := meta.ExtractList(list)
	require.NoError(t, err)
	assert.Len(t, items, 3)
	lm, _ := meta.ListAccessor(list)
	assert.NotEmpty(t, lm.GetResourceVersion())

	require.NoError(t, c.Delete(ctx, names[0], metav1.DeleteOptions{GracePeriodSeconds: ptr.To[int64](0)}))
	require.NoError(t, c.DeleteCollection(ctx, metav1.DeleteOptions{GracePeriodSeconds: ptr.To[int64](0)}, metav1.ListOptions{LabelSelector: sel}))
	require.Eventually(t, func() bool {
		list, err := c.List(ctx, metav1.ListOptions{LabelSelector: sel})
		if err != nil {
			return false
		}
		items, _ := meta.ExtractList(list)
		return len(items) == 0
	}, 30*time.Second, 20*time.Millisecond, "deletecollection left objects behind")
	_, err = c.Get(ctx, names[1], metav1.GetOptions{})
	assert.True(t, apierrors.IsNotFound(err), "%v", err)

	// The watch saw 3 ADDED, the update and patches, and 3 DELETED, each
	// decoded from protobuf frames into the typed object.
	counts := map[watch.EventType]int{}
	deadline := time.After(30 * time.Second)
	for counts[watch.Deleted] < 3 {
		select {
		case ev, ok := <-w.ResultChan():
			require.True(t, ok, "the watch ended early")
			require.NotEqual(t, watch.Error, ev.Type, "%v", ev.Object)
			_, err := meta.Accessor(ev.Object)
			require.NoError(t, err)
			counts[ev.Type]++
		case <-deadline:
			t.Fatalf("watch events so far: %v", counts)
		}
	}
	assert.Equal(t, 3, counts[watch.Added])
	assert.GreaterOrEqual(t, counts[watch.Modified], 4)
}

// TestClientGoEveryVerbOfEveryKind: Namespaces are left out because
// client-go's NamespaceInterface has no DeleteCollection (Kubernetes does
// not serve it); the other verbs on namespaces run in clientgo_test.go.
func TestClientGoEveryVerbOfEveryKind(t *testing.T) {
	cs := clientset(t)
	ns := newNamespace(t)
	label := func(kind string) string { return fmt.Sprintf("%s-%s", kind, ns) }
	t.Run("ConfigMap", func(t *testing.T) {
		exerciseVerbs(t, cs.CoreV1().ConfigMaps(ns), label("cm"), func(n string) *corev1.ConfigMap {
			return &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: n}, Data: map[string]string{"a": "1"}}
		})
	})
	t.Run("Pod", func(t *testing.T) {
		exerciseVerbs(t, cs.CoreV1().Pods(ns), label("pod"), func(n string) *corev1.Pod {
			return &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: n}, Spec: corev1.PodSpec{SchedulerName: "nobody", Containers: podSpec().Containers}}
		})
	})
	t.Run("ReplicaSet", func(t *testing.T) {
		exerciseVerbs(t, cs.AppsV1().ReplicaSets(ns), label("rs"), func(n string) *appsv1.ReplicaSet {
			return &appsv1.ReplicaSet{ObjectMeta: metav1.ObjectMeta{Name: n}, Spec: appsv1.ReplicaSetSpec{Replicas: ptr.To[int32](0),
				Selector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": n}},
				Template: corev1.PodTemplateSpec{ObjectMeta: metav1.ObjectMeta{Labels: map[string]string{"app": n}}, Spec: podSpec()}}}
		})
	})
	t.Run("Event", func(t *testing.T) {
		exerciseVerbs(t, cs.CoreV1().Events(ns), label("ev"), func(n string) *corev1.Event {
			return &corev1.Event{ObjectMeta: metav1.ObjectMeta{Name: n}, InvolvedObject: corev1.ObjectReference{Kind: "Pod", Name: "p", Namespace: ns},
				Reason: "Tested", Message: "m", Type: corev1.EventTypeNormal}
		})
	})
	t.Run("Lease", func(t *testing.T) {
		exerciseVerbs(t, cs.CoordinationV1().Leases(ns), label("lease"), func(n string) *coordinationv1.Lease {
			return &coordinationv1.Lease{ObjectMeta: metav1.ObjectMeta{Name: n}, Spec: coordinationv1.LeaseSpec{HolderIdentity: ptr.To("me")}}
		})
	})
	t.Run("Node", func(t *testing.T) {
		exerciseVerbs(t, cs.CoreV1().Nodes(), label("node"), func(n string) *corev1.Node {
			return &corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: n}, Spec: corev1.NodeSpec{Unschedulable: true}}
		})
	})
}
