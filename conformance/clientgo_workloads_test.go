package conformance

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	appsv1 "k8s.io/api/apps/v1"
	autoscalingv1 "k8s.io/api/autoscaling/v1"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/client-go/util/retry"
	"k8s.io/utils/ptr"
)

// The typed clients of the four workload kinds, with client-go's defaults
// (protobuf both ways), through every verb and subresource they have. The
// cluster's controllers may write a Deployment's status meanwhile, so its
// read-modify-writes retry on conflicts, as controllers do; the Job is
// managed by "another controller" (spec.managedBy), which keeps the
// built-in one from acting on it.

func TestClientGoDeployments(t *testing.T) {
	ctx := context.Background()
	ns := newNamespace(t)
	deploys := clientset(t).AppsV1().Deployments(ns)
	labels := map[string]string{"app": "web"}
	d, err := deploys.Create(ctx, &appsv1.Deployment{ObjectMeta: metav1.ObjectMeta{Name: "web"}, Spec: appsv1.DeploymentSpec{
		Selector: &metav1.LabelSelector{MatchLabels: labels},
		Template: corev1.PodTemplateSpec{ObjectMeta: metav1.ObjectMeta{Labels: labels}, Spec: podSpec()},
	}}, metav1.CreateOptions{})
	require.NoError(t, err)
	assert.Equal(t, int64(1), d.Generation)
	assert.Equal(t, ptr.To[int32](1), d.Spec.Replicas)
	assert.Equal(t, appsv1.RollingUpdateDeploymentStrategyType, d.Spec.Strategy.Type)
	require.NotNil(t, d.Spec.Strategy.RollingUpdate)
	assert.Equal(t, ptr.To(intstr.FromString("25%")), d.Spec.Strategy.RollingUpdate.MaxSurge)
	assert.Equal(t, ptr.To(intstr.FromString("25%")), d.Spec.Strategy.RollingUpdate.MaxUnavailable)
	assert.Equal(t, ptr.To[int32](10), d.Spec.RevisionHistoryLimit)
	assert.Equal(t, ptr.To[int32](600), d.Spec.ProgressDeadlineSeconds)
	assert.Equal(t, corev1.PullAlways, d.Spec.Template.Spec.Containers[0].ImagePullPolicy)

	// A controller's status write.
	var written *appsv1.Deployment
	require.NoError(t, retry.RetryOnConflict(retry.DefaultRetry, func() error {
		cur, err := deploys.Get(ctx, "web", metav1.GetOptions{})
		if err != nil {
			return err
		}
		cur.Status = appsv1.DeploymentStatus{ObservedGeneration: 1, Replicas: 1, UpdatedReplicas: 1, ReadyReplicas: 1, AvailableReplicas: 1,
			Conditions: []appsv1.DeploymentCondition{{Type: appsv1.DeploymentAvailable, Status: corev1.ConditionTrue, Reason: "MinimumReplicasAvailable",
				LastUpdateTime: metav1.Now(), LastTransitionTime: metav1.Now()}}}
		written, err = deploys.UpdateStatus(ctx, cur, metav1.UpdateOptions{})
		return err
	}))
	assert.Equal(t, int32(1), written.Status.AvailableReplicas)
	assert.Equal(t, int64(1), written.Generation, "a status write is no new generation")

	scale, err := deploys.GetScale(ctx, "web", metav1.GetOptions{})
	require.NoError(t, err)
	assert.Equal(t, int32(1), scale.Spec.Replicas)
	assert.Equal(t, "app=web", scale.Status.Selector)
	require.NoError(t, retry.RetryOnConflict(retry.DefaultRetry, func() error {
		cur, err := deploys.GetScale(ctx, "web", metav1.GetOptions{})
		if err != nil {
			return err
		}
		cur.Spec.Replicas = 4
		scale, err = deploys.UpdateScale(ctx, "web", cur, metav1.UpdateOptions{})
		return err
	}))
	assert.Equal(t, int32(4), scale.Spec.Replicas)
	_, err = deploys.UpdateScale(ctx, "web", &autoscalingv1.Scale{ObjectMeta: metav1.ObjectMeta{Name: "web", Namespace: ns}, Spec: autoscalingv1.ScaleSpec{Replicas: -1}}, metav1.UpdateOptions{})
	require.True(t, apierrors.IsInvalid(err), "%v", err)

	require.NoError(t, retry.RetryOnConflict(retry.DefaultRetry, func() error {
		cur, err := deploys.Get(ctx, "web", metav1.GetOptions{})
		if err != nil {
			return err
		}
		assert.Equal(t, ptr.To[int32](4), cur.Spec.Replicas)
		assert.Equal(t, int64(2), cur.Generation)
		cur.Spec.Template.Spec.Containers[0].Image = "nginx:1.27"
		d, err = deploys.Update(ctx, cur, metav1.UpdateOptions{})
		return err
	}))
	assert.Equal(t, int64(3), d.Generation)

	// Refused whatever the resourceVersion: the empty one is unconditional.
	d.ResourceVersion = ""
	d.Spec.Selector = &metav1.LabelSelector{MatchLabels: map[string]string{"app": "other"}}
	_, err = deploys.Update(ctx, d, metav1.UpdateOptions{})
	require.True(t, apierrors.IsInvalid(err), "%v", err)
	assert.Contains(t, err.Error(), "spec.selector")

	list, err := deploys.List(ctx, metav1.ListOptions{})
	require.NoError(t, err)
	require.Len(t, list.Items, 1)
	require.NoError(t, deploys.Delete(ctx, "web", metav1.DeleteOptions{}))
}

func TestClientGoJobs(t *testing.T) {
	ctx := context.Background()
	ns := newNamespace(t)
	jobs := clientset(t).BatchV1().Jobs(ns)
	spec := podSpec()
	spec.RestartPolicy = corev1.RestartPolicyOnFailure
	// managedBy hands the Job to another controller, so the cluster's Job
	// controller leaves its status to this test.
	j, err := jobs.Create(ctx, &batchv1.Job{ObjectMeta: metav1.ObjectMeta{Name: "pi"}, Spec: batchv1.JobSpec{
		Completions: ptr.To[int32](2), Template: corev1.PodTemplateSpec{Spec: spec},
		ManagedBy: ptr.To("example.com/test"),
	}}, metav1.CreateOptions{})
	require.NoError(t, err)
	assert.Equal(t, ptr.To[int32](1), j.Spec.Parallelism)
	assert.Equal(t, ptr.To[int32](6), j.Spec.BackoffLimit)
	assert.Equal(t, ptr.To(batchv1.NonIndexedCompletion), j.Spec.CompletionMode)
	assert.Equal(t, ptr.To(false), j.Spec.Suspend)
	assert.Equal(t, ptr.To(false), j.Spec.ManualSelector)
	assert.Equal(t, ptr.To(batchv1.TerminatingOrFailed), j.Spec.PodReplacementPolicy)
	require.NotNil(t, j.Spec.Selector)
	assert.Equal(t, map[string]string{batchv1.ControllerUidLabel: string(j.UID)}, j.Spec.Selector.MatchLabels)
	assert.Equal(t, "pi", j.Spec.Template.Labels[batchv1.JobNameLabel])
	assert.Equal(t, "pi", j.Spec.Template.Labels["job-name"])
	assert.Equal(t, string(j.UID), j.Spec.Template.Labels["controller-uid"])

	now := metav1.Now()
	j.Status = batchv1.JobStatus{StartTime: &now, Active: 1, Ready: ptr.To[int32](1), Terminating: ptr.To[int32](0),
		UncountedTerminatedPods: &batchv1.UncountedTerminatedPods{}}
	j, err = jobs.UpdateStatus(ctx, j, metav1.UpdateOptions{})
	require.NoError(t, err)
	assert.Equal(t, int32(1), j.Status.Active)
	require.NotNil(t, j.Status.StartTime)

	j, err = jobs.Patch(ctx, "pi", types.MergePatchType, []byte(`{"spec":{"parallelism":2}}`), metav1.PatchOptions{})
	require.NoError(t, err)
	assert.Equal(t, int64(2), j.Generation)
	j.Spec.Template.Spec.Containers[0].Image = "perl"
	_, err = jobs.Update(ctx, j, metav1.UpdateOptions{})
	require.True(t, apierrors.IsInvalid(err), "%v", err)
	assert.Contains(t, err.Error(), "spec.template")

	j, err = jobs.Get(ctx, "pi", metav1.GetOptions{})
	require.NoError(t, err)
	j.Status.Succeeded = 2
	j.Status.Active = 0
	j.Status.CompletionTime = ptr.To(metav1.Now())
	j.Status.Conditions = []batchv1.JobCondition{
		{Type: batchv1.JobSuccessCriteriaMet, Status: corev1.ConditionTrue, LastProbeTime: now, LastTransitionTime: now},
		{Type: batchv1.JobComplete, Status: corev1.ConditionTrue, LastProbeTime: now, LastTransitionTime: now},
	}
	_, err = jobs.UpdateStatus(ctx, j, metav1.UpdateOptions{})
	require.NoError(t, err)
	done, err := jobs.List(ctx, metav1.ListOptions{FieldSelector: "status.successful=2"})
	require.NoError(t, err)
	require.Len(t, done.Items, 1)
	assert.Equal(t, batchv1.JobComplete, done.Items[0].Status.Conditions[1].Type)
	require.NoError(t, jobs.Delete(ctx, "pi", metav1.DeleteOptions{PropagationPolicy: ptr.To(metav1.DeletePropagationBackground)}))
}

func TestClientGoSecretsAndServiceAccounts(t *testing.T) {
	ctx := context.Background()
	ns := newNamespace(t)
	cs := clientset(t)
	secrets := cs.CoreV1().Secrets(ns)
	s, err := secrets.Create(ctx, &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Name: "s"},
		Data: map[string][]byte{"bin": {0, 1, 2}}, StringData: map[string]string{"text": "hello"}}, metav1.CreateOptions{})
	require.NoError(t, err)
	assert.Equal(t, corev1.SecretTypeOpaque, s.Type)
	assert.Equal(t, map[string][]byte{"bin": {0, 1, 2}, "text": []byte("hello")}, s.Data)
	assert.Empty(t, s.StringData)

	s.Data["more"] = []byte("x")
	s.Immutable = ptr.To(true)
	s, err = secrets.Update(ctx, s, metav1.UpdateOptions{})
	require.NoError(t, err)
	s.Data["more"] = []byte("y")
	_, err = secrets.Update(ctx, s, metav1.UpdateOptions{})
	require.True(t, apierrors.IsInvalid(err), "%v", err)

	_, err = secrets.Create(ctx, &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Name: "tls"}, Type: corev1.SecretTypeTLS,
		Data: map[string][]byte{corev1.TLSCertKey: []byte("c"), corev1.TLSPrivateKeyKey: []byte("k")}}, metav1.CreateOptions{})
	require.NoError(t, err)
	_, err = secrets.Create(ctx, &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Name: "bad"}, Type: corev1.SecretTypeTLS}, metav1.CreateOptions{})
	require.True(t, apierrors.IsInvalid(err), "%v", err)
	byType, err := secrets.List(ctx, metav1.ListOptions{FieldSelector: "type=" + string(corev1.SecretTypeTLS)})
	require.NoError(t, err)
	require.Len(t, byType.Items, 1)
	assert.Equal(t, "tls", byType.Items[0].Name)

	sas := cs.CoreV1().ServiceAccounts(ns)
	sa, err := sas.Create(ctx, &corev1.ServiceAccount{ObjectMeta: metav1.ObjectMeta{Name: "builder"},
		Secrets:                      []corev1.ObjectReference{{Name: "tls", Kind: "Secret", UID: "u"}},
		ImagePullSecrets:             []corev1.LocalObjectReference{{Name: "reg"}},
		AutomountServiceAccountToken: ptr.To(false)}, metav1.CreateOptions{})
	require.NoError(t, err)
	assert.Equal(t, []corev1.ObjectReference{{Name: "tls"}}, sa.Secrets)
	assert.Equal(t, ptr.To(false), sa.AutomountServiceAccountToken)
	sa.ImagePullSecrets = nil
	sa, err = sas.Update(ctx, sa, metav1.UpdateOptions{})
	require.NoError(t, err)
	assert.Empty(t, sa.ImagePullSecrets)
	got, err := sas.Get(ctx, "builder", metav1.GetOptions{})
	require.NoError(t, err)
	assert.Equal(t, sa.ResourceVersion, got.ResourceVersion)
	require.NoError(t, sas.Delete(ctx, "builder", metav1.DeleteOptions{}))
	_, err = sas.Get(ctx, "builder", metav1.GetOptions{})
	assert.True(t, apierrors.IsNotFound(err), "%v", err)
}
