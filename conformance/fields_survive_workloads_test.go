package conformance

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"
	appsv1 "k8s.io/api/apps/v1"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/client-go/util/retry"
	"k8s.io/utils/ptr"
)

// TestEveryWorkloadFieldSurvivesTypedClientWrites sends Deployments, Jobs,
// Secrets and ServiceAccounts with every spec field set (in combinations
// validation accepts) through client-go's typed clients, protobuf both
// ways, and requires all of it back from create, update, status update and
// get. The Job is managed by "another controller" (spec.managedBy) and the
// Deployment's own status write retries on a conflict, so the cluster's
// controllers do not get in the way.
func TestEveryWorkloadFieldSurvivesTypedClientWrites(t *testing.T) {
	ctx := context.Background()
	cs := clientset(t)
	ns := newNamespace(t)
	owner := newOwner(t, cs, ns)
	selector := &metav1.LabelSelector{MatchLabels: map[string]string{"app": "rich"},
		MatchExpressions: []metav1.LabelSelectorRequirement{{Key: "tier", Operator: metav1.LabelSelectorOpIn, Values: []string{"web"}}}}
	template := corev1.PodTemplateSpec{ObjectMeta: metav1.ObjectMeta{Labels: map[string]string{"app": "rich", "tier": "web"},
		Annotations: map[string]string{"note": "t"}}, Spec: richPodSpec()}

	deploys := cs.AppsV1().Deployments(ns)
	d := &appsv1.Deployment{ObjectMeta: richMeta("d", owner), Spec: appsv1.DeploymentSpec{
		Replicas: ptr.To[int32](0), Selector: selector, Template: template, MinReadySeconds: 5,
		Strategy: appsv1.DeploymentStrategy{Type: appsv1.RollingUpdateDeploymentStrategyType, RollingUpdate: &appsv1.RollingUpdateDeployment{
			MaxUnavailable: ptr.To(intstr.FromInt32(0)), MaxSurge: ptr.To(intstr.FromString("50%"))}},
		RevisionHistoryLimit: ptr.To[int32](3), Paused: true, ProgressDeadlineSeconds: ptr.To[int32](120),
	}}
	createdD, err := deploys.Create(ctx, d, metav1.CreateOptions{})
	require.NoError(t, err)
	assertSubset(t, d.Spec, createdD.Spec, "deployment create")
	now := metav1.Now()
	createdD.Status = appsv1.DeploymentStatus{ObservedGeneration: 1, Replicas: 3, UpdatedReplicas: 2, ReadyReplicas: 2,
		AvailableReplicas: 1, UnavailableReplicas: 2, TerminatingReplicas: ptr.To[int32](1), CollisionCount: ptr.To[int32](1),
		Conditions: []appsv1.DeploymentCondition{{Type: appsv1.DeploymentProgressing, Status: corev1.ConditionTrue,
			LastUpdateTime: now, LastTransitionTime: now, Reason: "NewReplicaSetAvailable", Message: "m"}}}
	status := createdD.Status
	var statusD *appsv1.Deployment
	require.NoError(t, retry.RetryOnConflict(retry.DefaultRetry, func() error {
		cur, err := deploys.Get(ctx, "d", metav1.GetOptions{})
		if err != nil {
			return err
		}
		cur.Status = status
		statusD, err = deploys.UpdateStatus(ctx, cur, metav1.UpdateOptions{})
		return err
	}))
	assertSubset(t, status, statusD.Status, "deployment status")
	gotD, err := deploys.Get(ctx, "d", metav1.GetOptions{})
	require.NoError(t, err)
	assertSubset(t, d.Spec, gotD.Spec, "deployment get")
	assertSubset(t, d.ObjectMeta, gotD.ObjectMeta, "deployment metadata")

	jobs := cs.BatchV1().Jobs(ns)
	jobTemplate := template.DeepCopy()
	jobTemplate.Spec.RestartPolicy = corev1.RestartPolicyNever
	j := &batchv1.Job{ObjectMeta: richMeta("j", owner), Spec: batchv1.JobSpec{
		Parallelism: ptr.To[int32](2), Completions: ptr.To[int32](4), ActiveDeadlineSeconds: ptr.To[int64](600),
		PodFailurePolicy: &batchv1.PodFailurePolicy{Rules: []batchv1.PodFailurePolicyRule{
			{Action: batchv1.PodFailurePolicyActionFailIndex, OnExitCodes: &batchv1.PodFailurePolicyOnExitCodesRequirement{
				ContainerName: ptr.To("app"), Operator: batchv1.PodFailurePolicyOnExitCodesOpIn, Values: []int32{1, 42}}},
			{Action: batchv1.PodFailurePolicyActionIgnore, OnPodConditions: []batchv1.PodFailurePolicyOnPodConditionsPattern{
				{Type: corev1.DisruptionTarget, Status: corev1.ConditionTrue}}},
		}},
		SuccessPolicy:        &batchv1.SuccessPolicy{Rules: []batchv1.SuccessPolicyRule{{SucceededIndexes: ptr.To("0-2"), SucceededCount: ptr.To[int32](2)}}},
		BackoffLimit:         ptr.To[int32](3),
		BackoffLimitPerIndex: ptr.To[int32](1), MaxFailedIndexes: ptr.To[int32](2),
		Template: *jobTemplate, TTLSecondsAfterFinished: ptr.To[int32](100),
		CompletionMode: ptr.To(batchv1.IndexedCompletion), Suspend: ptr.To(true),
		PodReplacementPolicy: ptr.To(batchv1.Failed), ManagedBy: ptr.To("example.com/queue"),
	}}
	createdJ, err := jobs.Create(ctx, j, metav1.CreateOptions{})
	require.NoError(t, err)
	want := j.Spec.DeepCopy()
	want.Template.Labels = nil // the server adds its own; the client's are checked below
	assertSubset(t, want, &createdJ.Spec, "job create")
	assertSubset(t, j.Spec.Template.Labels, createdJ.Spec.Template.Labels, "job template labels")
	createdJ.Status = batchv1.JobStatus{StartTime: &now, Active: 1, Succeeded: 1, Failed: 1, Terminating: ptr.To[int32](1),
		Ready: ptr.To[int32](1), CompletedIndexes: "0", FailedIndexes: ptr.To("1"),
		UncountedTerminatedPods: &batchv1.UncountedTerminatedPods{Succeeded: []types.UID{"a"}, Failed: []types.UID{"b"}},
		Conditions: []batchv1.JobCondition{{Type: batchv1.JobSuspended, Status: corev1.ConditionTrue, LastProbeTime: now,
			LastTransitionTime: now, Reason: "JobSuspended", Message: "m"}}}
	statusJ, err := jobs.UpdateStatus(ctx, createdJ, metav1.UpdateOptions{})
	require.NoError(t, err)
	assertSubset(t, createdJ.Status, statusJ.Status, "job status")
	gotJ, err := jobs.Get(ctx, "j", metav1.GetOptions{})
	require.NoError(t, err)
	assertSubset(t, statusJ, gotJ, "job get")

	secrets := cs.CoreV1().Secrets(ns)
	s := &corev1.Secret{ObjectMeta: richMeta("s", owner), Immutable: ptr.To(false), Type: corev1.SecretTypeBasicAuth,
		Data: map[string][]byte{"username": []byte("u"), "password": {0, 255}}}
	createdS, err := secrets.Create(ctx, s, metav1.CreateOptions{})
	require.NoError(t, err)
	assertSubset(t, s, createdS, "secret create")
	gotS, err := secrets.Get(ctx, "s", metav1.GetOptions{})
	require.NoError(t, err)
	assertSubset(t, s, gotS, "secret get")

	sas := cs.CoreV1().ServiceAccounts(ns)
	sa := &corev1.ServiceAccount{ObjectMeta: richMeta("sa", owner), Secrets: []corev1.ObjectReference{{Name: "s"}},
		ImagePullSecrets: []corev1.LocalObjectReference{{Name: "reg"}}, AutomountServiceAccountToken: ptr.To(true)}
	createdSA, err := sas.Create(ctx, sa, metav1.CreateOptions{})
	require.NoError(t, err)
	assertSubset(t, sa, createdSA, "serviceaccount create")
}
