package conformance

import (
	"context"
	autoscalingv1 "k8s.io/api/autoscaling/v1"
	"k8s.io/client-go/util/retry"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/utils/ptr"
)

// client-go's typed clients send their dry runs as protobuf bodies with
// ?dryRun=All (and DeleteOptions.dryRun in a protobuf body): each answers
// what would be stored and leaves the stored object as it was.
func TestClientGoDryRunStoresNothing(t *testing.T) {
	ctx := context.Background()
	cs := clientset(t)
	ns := newNamespace(t)
	dry := []string{metav1.DryRunAll}

	cms := cs.CoreV1().ConfigMaps(ns)
	cm, err := cms.Create(ctx, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "cm"}, Data: map[string]string{"a": "1"}}, metav1.CreateOptions{DryRun: dry})
	require.NoError(t, err)
	assert.NotEmpty(t, cm.UID)
	assert.Empty(t, cm.ResourceVersion)
	_, err = cms.Get(ctx, "cm", metav1.GetOptions{})
	require.True(t, apierrors.IsNotFound(err), "got %v", err)

	cm, err = cms.Create(ctx, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "cm"}, Data: map[string]string{"a": "1"}}, metav1.CreateOptions{})
	require.NoError(t, err)
	cm.Data["a"] = "2"
	updated, err := cms.Update(ctx, cm, metav1.UpdateOptions{DryRun: dry})
	require.NoError(t, err)
	assert.Equal(t, "2", updated.Data["a"])
	patched, err := cms.Patch(ctx, "cm", types.MergePatchType, []byte(`{"data":{"a":"3"}}`), metav1.PatchOptions{DryRun: dry})
	require.NoError(t, err)
	assert.Equal(t, "3", patched.Data["a"])
	require.NoError(t, cms.Delete(ctx, "cm", metav1.DeleteOptions{DryRun: dry}))
	got, err := cms.Get(ctx, "cm", metav1.GetOptions{})
	require.NoError(t, err)
	assert.Equal(t, "1", got.Data["a"])
	assert.Equal(t, cm.ResourceVersion, got.ResourceVersion)

	rss := cs.AppsV1().ReplicaSets(ns)
	labels := map[string]string{"app": "dry"}
	_, err = rss.Create(ctx, &appsv1.ReplicaSet{ObjectMeta: metav1.ObjectMeta{Name: "rs"}, Spec: appsv1.ReplicaSetSpec{
		Replicas: ptr.To[int32](0), Selector: &metav1.LabelSelector{MatchLabels: labels},
		Template: corev1.PodTemplateSpec{ObjectMeta: metav1.ObjectMeta{Labels: labels}, Spec: podSpec()},
	}}, metav1.CreateOptions{})
	require.NoError(t, err)
	// The ReplicaSet controller writes the new ReplicaSet's status at any
	// moment, so the read-modify-write retries on conflict as clients do.
	var scale *autoscalingv1.Scale
	err = retry.RetryOnConflict(retry.DefaultRetry, func() error {
		current, err := rss.GetScale(ctx, "rs", metav1.GetOptions{})
		if err != nil {
			return err
		}
		current.Spec.Replicas = 4
		scale, err = rss.UpdateScale(ctx, "rs", current, metav1.UpdateOptions{DryRun: dry})
		return err
	})
	require.NoError(t, err)
	assert.EqualValues(t, 4, scale.Spec.Replicas)
	rs, err := rss.Get(ctx, "rs", metav1.GetOptions{})
	require.NoError(t, err)
	assert.EqualValues(t, 0, *rs.Spec.Replicas)

	_, err = cms.Create(ctx, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "bad"}}, metav1.CreateOptions{DryRun: []string{"Bogus"}})
	require.True(t, apierrors.IsInvalid(err), "got %v", err)
}
