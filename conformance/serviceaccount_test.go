package conformance

import (
	"context"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"
)

// ServiceAccount admission as client-go's typed client (protobuf) sees it:
// a pod naming no account runs as "default" with the kube-api-access
// volume Kubernetes adds, built here from k8s.io/api's own constants; a pod
// naming an account nobody made is refused as Kubernetes refuses it.
func TestServiceAccountTokenVolumeReachesClientGo(t *testing.T) {
	ctx := context.Background()
	ns := newNamespace(t)
	pods := clientset(t).CoreV1().Pods(ns)
	pod := func(name, account string) *corev1.Pod {
		return &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: name}, Spec: corev1.PodSpec{
			SchedulerName: "nobody", ServiceAccountName: account,
			Containers: []corev1.Container{{Name: "c", Image: "busybox"}}}}
	}
	created, err := pods.Create(ctx, pod("p", ""), metav1.CreateOptions{})
	require.NoError(t, err)
	assert.Equal(t, "default", created.Spec.ServiceAccountName)
	require.Len(t, created.Spec.Volumes, 1)
	vol := created.Spec.Volumes[0]
	assert.Regexp(t, `^kube-api-access-[a-z0-9]{5}$`, vol.Name)
	want := &corev1.ProjectedVolumeSource{
		DefaultMode: ptr.To[int32](corev1.ProjectedVolumeSourceDefaultMode),
		Sources: []corev1.VolumeProjection{
			{ServiceAccountToken: &corev1.ServiceAccountTokenProjection{Path: "token", ExpirationSeconds: ptr.To[int64](3607)}},
			{ConfigMap: &corev1.ConfigMapProjection{LocalObjectReference: corev1.LocalObjectReference{Name: "kube-root-ca.crt"},
				Items: []corev1.KeyToPath{{Key: "ca.crt", Path: "ca.crt"}}}},
			{DownwardAPI: &corev1.DownwardAPIProjection{Items: []corev1.DownwardAPIVolumeFile{{Path: "namespace",
				FieldRef: &corev1.ObjectFieldSelector{APIVersion: "v1", FieldPath: "metadata.namespace"}}}}},
		},
	}
	assert.Equal(t, want, vol.Projected)
	assert.Equal(t, []corev1.VolumeMount{{Name: vol.Name, ReadOnly: true, MountPath: "/var/run/secrets/kubernetes.io/serviceaccount"}},
		created.Spec.Containers[0].VolumeMounts)

	_, err = pods.Create(ctx, pod("g", "ghost"), metav1.CreateOptions{})
	require.True(t, apierrors.IsForbidden(err), "%v", err)
	assert.EqualError(t, err, fmt.Sprintf(`pods "g" is forbidden: error looking up service account %s/ghost: serviceaccount "ghost" not found`, ns))
	_, err = pods.Get(ctx, "g", metav1.GetOptions{})
	assert.True(t, apierrors.IsNotFound(err), "nothing stored: %v", err)
}
