package conformance

// Server-side apply from client-go's typed clients (apply configurations)
// and controller-runtime's client against a kubeloop cluster. The FieldsV1
// values are written out literally: they are what kube-apiserver v1.37.2
// stores for the same requests (structured-merge-diff's ToFieldSet of the
// configuration for an Apply entry, its Compare for an Update entry; the
// offline comparisons in fieldmanager_apply_test.go hold both
// implementations to each other).

import (
	"bytes"
	"context"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	appsv1ac "k8s.io/client-go/applyconfigurations/apps/v1"
	corev1ac "k8s.io/client-go/applyconfigurations/core/v1"
	metav1ac "k8s.io/client-go/applyconfigurations/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// entriesOf summarises managedFields as "manager/operation/subresource=fieldsV1".
func entriesOf(t *testing.T, fields []metav1.ManagedFieldsEntry) map[string]string {
	t.Helper()
	out := map[string]string{}
	for _, e := range fields {
		require.Equal(t, "FieldsV1", e.FieldsType)
		require.NotNil(t, e.Time)
		// compacted: kubectl -o json indents the raw FieldsV1 too
		var b bytes.Buffer
		require.NoError(t, json.Compact(&b, e.FieldsV1.Raw))
		out[e.Manager+"/"+string(e.Operation)+"/"+e.Subresource] = b.String()
	}
	return out
}

func TestClientGoTypedApplyOwnsConflictsAndPrunes(t *testing.T) {
	ns := newNamespace(t)
	ctx := context.Background()
	cms := clientset(t).CoreV1().ConfigMaps(ns)

	ac := corev1ac.ConfigMap("cfg", ns).WithLabels(map[string]string{"app": "x"}).WithData(map[string]string{"a": "1", "b": "2"})
	cm, err := cms.Apply(ctx, ac, metav1.ApplyOptions{FieldManager: "cg"})
	require.NoError(t, err, "apply creates")
	assert.Equal(t, map[string]string{
		"cg/Apply/": `{"f:data":{"f:a":{},"f:b":{}},"f:metadata":{"f:labels":{"f:app":{}}}}`,
	}, entriesOf(t, cm.ManagedFields))
	assert.Equal(t, "v1", cm.ManagedFields[0].APIVersion)

	// client-go reads managedFields back into the configuration it applied.
	extracted, err := corev1ac.ExtractConfigMap(cm, "cg")
	require.NoError(t, err)
	assert.Equal(t, map[string]string{"a": "1", "b": "2"}, extracted.Data)
	assert.Equal(t, map[string]string{"app": "x"}, extracted.Labels)

	_, err = cms.Apply(ctx, corev1ac.ConfigMap("cfg", ns).WithData(map[string]string{"a": "9"}), metav1.ApplyOptions{FieldManager: "other"})
	require.True(t, apierrors.IsConflict(err), "%v", err)
	assert.Equal(t, `Apply failed with 1 conflict: conflict with "cg": .data.a`, err.Error())
	var se *apierrors.StatusError
	require.ErrorAs(t, err, &se)
	assert.Equal(t, []metav1.StatusCause{{Type: metav1.CauseTypeFieldManagerConflict, Message: `conflict with "cg"`, Field: ".data.a"}}, se.ErrStatus.Details.Causes)

	cm, err = cms.Apply(ctx, corev1ac.ConfigMap("cfg", ns).WithData(map[string]string{"a": "9"}), metav1.ApplyOptions{FieldManager: "other", Force: true})
	require.NoError(t, err)
	assert.Equal(t, "9", cm.Data["a"])
	assert.Equal(t, map[string]string{
		"cg/Apply/":    `{"f:data":{"f:b":{}},"f:metadata":{"f:labels":{"f:app":{}}}}`,
		"other/Apply/": `{"f:data":{"f:a":{}}}`,
	}, entriesOf(t, cm.ManagedFields))

	// cg stops applying b and a: b goes (nobody else has it), a stays (other's).
	cm, err = cms.Apply(ctx, corev1ac.ConfigMap("cfg", ns).WithLabels(map[string]string{"app": "x"}), metav1.ApplyOptions{FieldManager: "cg"})
	require.NoError(t, err)
	assert.Equal(t, map[string]string{"a": "9"}, cm.Data)

	// An Update by another writer takes what it changes, as an Update entry.
	cm.Data["a"] = "10"
	cm, err = cms.Update(ctx, cm, metav1.UpdateOptions{FieldManager: "editor"})
	require.NoError(t, err)
	assert.Equal(t, map[string]string{
		"cg/Apply/":      `{"f:metadata":{"f:labels":{"f:app":{}}}}`,
		"editor/Update/": `{"f:data":{"f:a":{}}}`,
	}, entriesOf(t, cm.ManagedFields))
}

func TestClientGoApplyDeploymentRecordsKubernetesFields(t *testing.T) {
	ns := newNamespace(t)
	ctx := context.Background()
	d := appsv1ac.Deployment("web", ns).WithSpec(appsv1ac.DeploymentSpec().WithReplicas(0).
		WithSelector(metav1ac.LabelSelector().WithMatchLabels(map[string]string{"app": "web"})).
		WithTemplate(corev1ac.PodTemplateSpec().WithLabels(map[string]string{"app": "web"}).
			WithSpec(corev1ac.PodSpec().WithContainers(corev1ac.Container().WithName("web").WithImage("nginx:1").
				WithPorts(corev1ac.ContainerPort().WithContainerPort(80))))))
	out, err := clientset(t).AppsV1().Deployments(ns).Apply(ctx, d, metav1.ApplyOptions{FieldManager: "deployer"})
	require.NoError(t, err)
	assert.Equal(t,
		`{"f:spec":{"f:replicas":{},"f:selector":{},"f:template":{"f:metadata":{"f:labels":{"f:app":{}}},"f:spec":{"f:containers":{"k:{\"name\":\"web\"}":{".":{},"f:image":{},"f:name":{},"f:ports":{"k:{\"containerPort\":80,\"protocol\":\"TCP\"}":{".":{},"f:containerPort":{}}}}}}}}}`,
		entriesOf(t, out.ManagedFields)["deployer/Apply/"],
		"the selector is atomic; a port's key includes its defaulted protocol")
	assert.Equal(t, "IfNotPresent", string(out.Spec.Template.Spec.Containers[0].ImagePullPolicy), "the applied object is defaulted")

	// Applying the same configuration again changes nothing.
	again, err := clientset(t).AppsV1().Deployments(ns).Apply(ctx, d, metav1.ApplyOptions{FieldManager: "deployer"})
	require.NoError(t, err)
	assert.Equal(t, out.Generation, again.Generation)
}

func TestClientGoApplyStatus(t *testing.T) {
	ns := newNamespace(t)
	ctx := context.Background()
	out, err := clientset(t).CoreV1().Namespaces().ApplyStatus(ctx, corev1ac.Namespace(ns).WithStatus(corev1ac.NamespaceStatus().
		WithConditions(corev1ac.NamespaceCondition().WithType("Custom").WithStatus("True"))), metav1.ApplyOptions{FieldManager: "st"})
	require.NoError(t, err)
	assert.Equal(t, `{"f:status":{"f:conditions":{"k:{\"type\":\"Custom\"}":{".":{},"f:status":{},"f:type":{}}}}}`,
		entriesOf(t, out.ManagedFields)["st/Apply/status"])
	assert.Equal(t, "Active", string(out.Status.Phase), "the status apply merges into the stored status")
}

func TestControllerRuntimeApply(t *testing.T) {
	ns := newNamespace(t)
	ctx := context.Background()
	c, err := client.New(adminConfig(t), client.Options{})
	require.NoError(t, err)

	require.NoError(t, c.Apply(ctx, corev1ac.ConfigMap("cr", ns).WithData(map[string]string{"k": "v"}), client.FieldOwner("cr-owner")))
	u := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "v1", "kind": "ConfigMap",
		"metadata": map[string]any{"name": "cr", "namespace": ns},
		"data":     map[string]any{"k": "w", "other": "1"},
	}}
	err = c.Patch(ctx, u, client.Apply, client.FieldOwner("legacy")) //nolint:staticcheck // the older spelling, still common
	require.True(t, apierrors.IsConflict(err), "%v", err)
	require.NoError(t, c.Patch(ctx, u, client.Apply, client.FieldOwner("legacy"), client.ForceOwnership)) //nolint:staticcheck

	var cm corev1.ConfigMap
	require.NoError(t, c.Get(ctx, client.ObjectKey{Namespace: ns, Name: "cr"}, &cm))
	assert.Equal(t, map[string]string{"k": "w", "other": "1"}, cm.Data)
	assert.Equal(t, map[string]string{"legacy/Apply/": `{"f:data":{"f:k":{},"f:other":{}}}`}, entriesOf(t, cm.ManagedFields),
		"force took k from cr-owner, whose entry was left empty and went")
}
