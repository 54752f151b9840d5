package conformance

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/utils/ptr"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/metrics/server"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"
)

// labelerReconciler is the tutorial's controller written the
// controller-runtime way: every ConfigMap gets managed-by.
type labelerReconciler struct{ c client.Client }

func (r *labelerReconciler) Reconcile(ctx context.Context, req reconcile.Request) (reconcile.Result, error) {
	var cm corev1.ConfigMap
	if err := r.c.Get(ctx, req.NamespacedName, &cm); err != nil {
		return reconcile.Result{}, client.IgnoreNotFound(err)
	}
	if cm.Labels["managed-by"] == "controller-runtime" {
		return reconcile.Result{}, nil
	}
	patch := client.MergeFrom(cm.DeepCopy())
	if cm.Labels == nil {
		cm.Labels = map[string]string{}
	}
	cm.Labels["managed-by"] = "controller-runtime"
	return reconcile.Result{}, r.c.Patch(ctx, &cm, patch)
}

// TestControllerRuntimeManagerWithDefaults runs a controller-runtime
// v0.25.2 manager as kubebuilder scaffolds it — default client, cache and
// content types — with only its metrics listener off, as every test suite
// does (it would bind :8080).
func TestControllerRuntimeManagerWithDefaults(t *testing.T) {
	ns := newNamespace(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	mgr, err := ctrl.NewManager(adminConfig(t), ctrl.Options{Metrics: server.Options{BindAddress: "0"}})
	require.NoError(t, err)
	rec := &labelerReconciler{c: mgr.GetClient()}
	require.NoError(t, ctrl.NewControllerManagedBy(mgr).For(&corev1.ConfigMap{}).Complete(rec))
	done := make(chan error, 1)
	go func() { done <- mgr.Start(ctx) }()
	t.Cleanup(func() {
		cancel()
		require.NoError(t, <-done)
	})
	require.True(t, mgr.GetCache().WaitForCacheSync(ctx))
	c := mgr.GetClient()

	// The reconciler labels a new ConfigMap; its other fields survive the
	// reconciler's patch.
	owner := newOwner(t, clientset(t), ns)
	cm := &corev1.ConfigMap{ObjectMeta: richMeta("cm", owner), Data: map[string]string{"a": "1"}, BinaryData: map[string][]byte{"bin": {1, 2}}}
	cm.Namespace = ns
	require.NoError(t, c.Create(ctx, cm))
	require.Eventually(t, func() bool {
		var got corev1.ConfigMap
		return c.Get(ctx, client.ObjectKeyFromObject(cm), &got) == nil && got.Labels["managed-by"] == "controller-runtime"
	}, 30*time.Second, 20*time.Millisecond, "the reconciler never labelled the ConfigMap")
	var got corev1.ConfigMap
	require.NoError(t, c.Get(ctx, client.ObjectKeyFromObject(cm), &got))
	assertSubset(t, cm.OwnerReferences, got.OwnerReferences, "configmap ownerReferences")
	assertSubset(t, cm.Data, got.Data, "configmap data")
	assertSubset(t, cm.BinaryData, got.BinaryData, "configmap binaryData")

	// Pods: create, get, list, update, patch, delete, every field kept.
	pod := &corev1.Pod{ObjectMeta: richMeta("p", owner), Spec: richPodSpec()}
	pod.Namespace = ns
	require.NoError(t, c.Create(ctx, pod))
	var gotPod corev1.Pod
	require.NoError(t, c.Get(ctx, client.ObjectKeyFromObject(pod), &gotPod))
	want := richPodSpec()
	assertSubset(t, want, gotPod.Spec, "pod get")
	gotPod.Labels["updated"] = "yes"
	require.NoError(t, c.Update(ctx, &gotPod))
	require.NoError(t, c.Patch(ctx, &gotPod, client.RawPatch(types.StrategicMergePatchType, []byte(`{"metadata":{"annotations":{"patched":"yes"}}}`))))
	// The manager's client lists from its informer cache, which catches
	// up with the patch shortly.
	var pods corev1.PodList
	require.Eventually(t, func() bool {
		return c.List(ctx, &pods, client.InNamespace(ns), client.MatchingLabels{"updated": "yes"}) == nil &&
			len(pods.Items) == 1 && pods.Items[0].Annotations["patched"] == "yes"
	}, 30*time.Second, 20*time.Millisecond, "the cache never showed the patched pod")
	assertSubset(t, want, pods.Items[0].Spec, "pod list")
	require.NoError(t, c.Delete(ctx, &gotPod, client.GracePeriodSeconds(0)))
	require.Eventually(t, func() bool {
		return apierrors.IsNotFound(c.Get(ctx, client.ObjectKeyFromObject(pod), &corev1.Pod{}))
	}, 30*time.Second, 20*time.Millisecond, "the pod was never deleted")

	// ReplicaSets: through the manager's cached reader too.
	rs := &appsv1.ReplicaSet{ObjectMeta: metav1.ObjectMeta{Name: "rs", Namespace: ns},
		Spec: appsv1.ReplicaSetSpec{Replicas: ptr.To[int32](0),
			Selector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": "rich"}},
			Template: corev1.PodTemplateSpec{ObjectMeta: metav1.ObjectMeta{Labels: map[string]string{"app": "rich"}}, Spec: richPodSpec()}}}
	require.NoError(t, c.Create(ctx, rs))
	var gotRS appsv1.ReplicaSet
	require.Eventually(t, func() bool { return c.Get(ctx, client.ObjectKeyFromObject(rs), &gotRS) == nil }, 30*time.Second, 20*time.Millisecond)
	assertSubset(t, rs.Spec, gotRS.Spec, "replicaset get")
	orig := gotRS.DeepCopy()
	gotRS.Spec.MinReadySeconds = 7
	require.NoError(t, c.Patch(ctx, &gotRS, client.MergeFrom(orig)))
	assert.Equal(t, int32(7), gotRS.Spec.MinReadySeconds)
	require.NoError(t, c.Delete(ctx, &gotRS))
}
