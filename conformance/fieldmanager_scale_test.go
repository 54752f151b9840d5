package conformance

// The ownership of replicas between an object and its scale subresource.
// Offline, a sequence of writes to a Deployment and to its Scale goes
// through apimachinery's ScaleHandler and field managers (what
// kube-apiserver v1.37.2's scaleUpdatedObjectInfo does) and through
// kubeloop's, and the managedFields must be identical. Against the
// cluster, client-go's typed ApplyScale and controller-runtime's
// SubResource("scale").Apply, with the FieldsV1 Kubernetes stores for
// them written out.

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	appsv1 "k8s.io/api/apps/v1"
	autoscalingv1 "k8s.io/api/autoscaling/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/managedfields"
	appsv1ac "k8s.io/client-go/applyconfigurations/apps/v1"
	autoscalingv1ac "k8s.io/client-go/applyconfigurations/autoscaling/v1"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	"sigs.k8s.io/controller-runtime/pkg/client"
	smdfieldpath "sigs.k8s.io/structured-merge-diff/v6/fieldpath"

	"kubeloop/api"
	"kubeloop/apiserver/fieldmanager"
	"kubeloop/apiserver/fieldmanager/fieldpath"
	"kubeloop/apiserver/fieldmanager/typed"
)

// scaleStep is one write: to the Deployment (viaScale false, an update
// setting replicas) or to its Scale (an update, or an apply if apply).
type scaleStep struct {
	manager  string
	viaScale bool
	apply    bool
	force    bool
	replicas int32
}

func TestScaleManagedFieldsMatchKubernetes(t *testing.T) {
	steps := []scaleStep{
		{manager: "kubectl-create", replicas: 2},
		{manager: "kubectl", viaScale: true, replicas: 5},
		{manager: "hpa", viaScale: true, replicas: 7},
		{manager: "kubectl", viaScale: true, replicas: 7}, // changes nothing
		{manager: "ctl", viaScale: true, apply: true, replicas: 3},
		{manager: "ctl", viaScale: true, apply: true, force: true, replicas: 3},
		{manager: "ctl", viaScale: true, apply: true, replicas: 4},
		{manager: "kubectl-edit", replicas: 6},
		{manager: "ctl", viaScale: true, apply: true, replicas: 4},
		{manager: "hpa", viaScale: true, replicas: 8},
		{manager: "deployer", apply: true, force: true, replicas: 9},
		{manager: "hpa", viaScale: true, replicas: 9}, // the applier keeps its replicas
		{manager: "hpa", viaScale: true, replicas: 10},
	}
	depGVK := schema.GroupVersionKind{Group: "apps", Version: "v1", Kind: "Deployment"}
	scaleGVK := schema.GroupVersionKind{Group: "autoscaling", Version: "v1", Kind: "Scale"}
	k8sDeployments, err := managedfields.NewDefaultFieldManager(smdTypeConverter(), clientgoscheme.Scheme, clientgoscheme.Scheme,
		clientgoscheme.Scheme, depGVK, depGVK.GroupVersion(), "", k8sResetFields(t, depGVK, ""))
	require.NoError(t, err)
	// client-go's schema has no Scale; every field of a Scale is a plain
	// struct field or scalar, which the deduced schema types as
	// kube-apiserver's OpenAPI does.
	k8sScales, err := managedfields.NewDefaultFieldManager(managedfields.NewDeducedTypeConverter(), clientgoscheme.Scheme, clientgoscheme.Scheme,
		clientgoscheme.Scheme, scaleGVK, scaleGVK.GroupVersion(), "scale", nil)
	require.NoError(t, err)
	mappings := managedfields.ResourcePathMappings{"apps/v1": smdfieldpath.MakePathOrDie("spec", "replicas")}
	ourDeployments := fieldmanager.NewFieldManager(typed.ForObject(&api.Deployment{}), "apps/v1", "")
	ourScales := fieldmanager.NewFieldManager(typed.ForObject(&api.Scale{}), "autoscaling/v1", "scale")
	replicasPath := fieldpath.MakePath("spec", "replicas")

	initial := &appsv1.Deployment{TypeMeta: metav1.TypeMeta{APIVersion: "apps/v1", Kind: "Deployment"},
		ObjectMeta: metav1.ObjectMeta{Name: "web", Namespace: "default"},
		Spec: appsv1.DeploymentSpec{Selector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": "web"}},
			Template: corev1.PodTemplateSpec{ObjectMeta: metav1.ObjectMeta{Labels: map[string]string{"app": "web"}},
				Spec: corev1.PodSpec{Containers: []corev1.Container{{Name: "c", Image: "nginx"}}}}}}
	var k8sLive *appsv1.Deployment
	var ourLive *api.Deployment
	conflicts := 0
	for i, step := range steps {
		switch {
		case i == 0:
			k8sNew := initial.DeepCopy()
			k8sNew.Spec.Replicas = &step.replicas
			k8sLive = k8sDeployments.UpdateNoErrors(&appsv1.Deployment{}, k8sNew, step.manager).(*appsv1.Deployment)
			ourLive = toOurs(t, k8sNew).(*api.Deployment)
			ourDeployments.Update(&api.Deployment{}, ourLive, step.manager)
			setUID(k8sLive, "uid-1")
			ourLive.UID = "uid-1"
		case !step.viaScale && step.apply:
			config := map[string]any{"apiVersion": "apps/v1", "kind": "Deployment",
				"metadata": map[string]any{"name": "web", "namespace": "default"},
				"spec": map[string]any{"replicas": int64(step.replicas),
					"selector": map[string]any{"matchLabels": map[string]any{"app": "web"}},
					"template": map[string]any{"metadata": map[string]any{"labels": map[string]any{"app": "web"}},
						"spec": map[string]any{"containers": []any{map[string]any{"name": "c", "image": "nginx:2"}}}}}}
			k8sOut, err := k8sDeployments.Apply(k8sLive, &unstructured.Unstructured{Object: config}, step.manager, step.force)
			require.NoError(t, err)
			k8sLive = k8sOut.(*appsv1.Deployment)
			b, _ := json.Marshal(config)
			cfg, err := typed.DecodeValue(b)
			require.NoError(t, err)
			merged, entries, err := ourDeployments.Apply(ourLive, cfg, step.manager, step.force)
			require.NoError(t, err)
			b, err = json.Marshal(merged)
			require.NoError(t, err)
			ourLive = &api.Deployment{}
			require.NoError(t, json.Unmarshal(b, ourLive))
			ourLive.ManagedFields = entries
		case !step.viaScale:
			k8sNew := k8sLive.DeepCopy()
			k8sNew.Spec.Replicas = &step.replicas
			k8sLive = k8sDeployments.UpdateNoErrors(k8sLive, k8sNew, step.manager).(*appsv1.Deployment)
			ourNew := ourLive.DeepCopyObject().(*api.Deployment)
			ourNew.Spec.Replicas = &step.replicas
			ourDeployments.Update(ourLive, ourNew, step.manager)
			ourLive = ourNew
		default:
			// Kubernetes: scaleUpdatedObjectInfo.UpdatedObject
			k8sHandler := managedfields.NewScaleHandler(k8sLive.ManagedFields, depGVK.GroupVersion(), mappings)
			k8sEntriesOfScale, err := k8sHandler.ToSubresource()
			require.NoError(t, err)
			k8sOld := &autoscalingv1.Scale{TypeMeta: metav1.TypeMeta{APIVersion: "autoscaling/v1", Kind: "Scale"},
				ObjectMeta: metav1.ObjectMeta{Name: "web", Namespace: "default", UID: "uid-1", ManagedFields: k8sEntriesOfScale},
				Spec:       autoscalingv1.ScaleSpec{Replicas: *k8sLive.Spec.Replicas}}
			ourHandler := fieldmanager.NewScaleHandler(ourLive.ManagedFields, "apps/v1", replicasPath)
			ourEntriesOfScale, err := ourHandler.ToSubresource()
			require.NoError(t, err)
			ourOld := api.NewScale()
			ourOld.ObjectMeta = api.ObjectMeta{Name: "web", Namespace: "default", UID: "uid-1", ManagedFields: ourEntriesOfScale}
			ourOld.Spec.Replicas = *ourLive.Spec.Replicas
			require.Equal(t, k8sEntries(t, k8sOld), ourEntries(ourOld), "step %d: the Scale's managedFields", i)

			var k8sScale runtime.Object
			var k8sErr, ourErr error
			ourScale := ourOld.DeepCopyObject().(*api.Scale)
			if step.apply {
				config := map[string]any{"apiVersion": "autoscaling/v1", "kind": "Scale",
					"metadata": map[string]any{"name": "web", "namespace": "default"},
					"spec":     map[string]any{"replicas": int64(step.replicas)}}
				k8sScale, k8sErr = k8sScales.Apply(k8sOld, &unstructured.Unstructured{Object: config}, step.manager, step.force)
				b, _ := json.Marshal(config)
				cfg, err := typed.DecodeValue(b)
				require.NoError(t, err)
				merged, entries, err := ourScales.Apply(ourOld, cfg, step.manager, step.force)
				ourErr = err
				if err == nil {
					b, err := json.Marshal(merged)
					require.NoError(t, err)
					ourScale = api.NewScale()
					require.NoError(t, json.Unmarshal(b, ourScale))
					ourScale.ManagedFields = entries
				}
			} else {
				k8sNew := k8sOld.DeepCopy()
				k8sNew.Spec.Replicas = step.replicas
				k8sScale = k8sScales.UpdateNoErrors(k8sOld, k8sNew, step.manager)
				ourScale.Spec.Replicas = step.replicas
				ourScales.Update(ourOld, ourScale, step.manager)
			}
			if k8sErr != nil {
				require.Error(t, ourErr, "step %d: Kubernetes refused with %v", i, k8sErr)
				assert.Equal(t, k8sErr.(*apierrors.StatusError).ErrStatus.Message, ourErr.Error(), "step %d", i)
				conflicts++
				continue
			}
			require.NoError(t, ourErr, "step %d", i)
			k8sParent, err := k8sHandler.ToParent(k8sScale.(metav1.Object).GetManagedFields())
			require.NoError(t, err)
			replicas := k8sScale.(*autoscalingv1.Scale).Spec.Replicas
			k8sLive = k8sLive.DeepCopy()
			k8sLive.Spec.Replicas, k8sLive.ManagedFields = &replicas, k8sParent
			ourParent, err := ourHandler.ToParent(ourScale.ManagedFields)
			require.NoError(t, err)
			ourLive = ourLive.DeepCopyObject().(*api.Deployment)
			ourLive.Spec.Replicas, ourLive.ManagedFields = &ourScale.Spec.Replicas, ourParent
		}
		require.Equal(t, *k8sLive.Spec.Replicas, *ourLive.Spec.Replicas, "step %d replicas", i)
		// Entries are ordered by their time in seconds, which the two
		// sides read a moment apart (see runSequence).
		assert.ElementsMatch(t, k8sEntries(t, k8sLive), ourEntries(ourLive), "step %d (%s)", i, step.manager)
	}
	assert.Equal(t, 2, conflicts, "the sequence exercises conflicts through the Scale")
}

// scaleEntries summarises managedFields as manager/operation/apiVersion/
// subresource (with "+time" when the entry has a time) = FieldsV1, for the
// entries of the managers named.
func scaleEntries(fields []metav1.ManagedFieldsEntry, managers ...string) map[string]string {
	out := map[string]string{}
	for _, e := range fields {
		for _, m := range managers {
			if e.Manager == m {
				key := e.Manager + "/" + string(e.Operation) + "/" + e.APIVersion + "/" + e.Subresource
				if e.Time != nil {
					key += "+time"
				}
				out[key] = string(e.FieldsV1.Raw)
			}
		}
	}
	return out
}

func TestClientGoApplyScaleMovesReplicasOwnership(t *testing.T) {
	ns := newNamespace(t)
	ctx := context.Background()
	rss := clientset(t).AppsV1().ReplicaSets(ns)
	replicas := int32(0)
	rs := &appsv1.ReplicaSet{ObjectMeta: metav1.ObjectMeta{Name: "rs"},
		Spec: appsv1.ReplicaSetSpec{Replicas: &replicas, Selector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": "rs"}},
			Template: corev1.PodTemplateSpec{ObjectMeta: metav1.ObjectMeta{Labels: map[string]string{"app": "rs"}},
				Spec: corev1.PodSpec{Containers: []corev1.Container{{Name: "c", Image: "nginx"}}}}}}
	_, err := rss.Create(ctx, rs, metav1.CreateOptions{FieldManager: "creator"})
	require.NoError(t, err)

	scale := autoscalingv1ac.Scale().WithSpec(autoscalingv1ac.ScaleSpec().WithReplicas(1))
	_, err = rss.ApplyScale(ctx, "rs", scale, metav1.ApplyOptions{FieldManager: "scaler"})
	require.True(t, apierrors.IsConflict(err), "%v", err)
	assert.Equal(t, `Apply failed with 1 conflict: conflict with "creator" using autoscaling/v1: .spec.replicas`,
		err.(*apierrors.StatusError).ErrStatus.Message, "the Scale shows the creator's entry in its own version")

	out, err := rss.ApplyScale(ctx, "rs", scale, metav1.ApplyOptions{FieldManager: "scaler", Force: true})
	require.NoError(t, err)
	assert.EqualValues(t, 1, out.Spec.Replicas)
	assert.Empty(t, out.ManagedFields, "a Scale is answered without managedFields, as in Kubernetes")
	got, err := rss.Get(ctx, "rs", metav1.GetOptions{})
	require.NoError(t, err)
	assert.EqualValues(t, 1, *got.Spec.Replicas)
	entries := scaleEntries(got.ManagedFields, "creator", "scaler")
	assert.Equal(t, `{"f:spec":{"f:replicas":{}}}`, entries["scaler/Apply/apps/v1/scale"],
		"the applier owns the ReplicaSet's replicas, in its version, through scale, and without a time (Kubernetes' ScaleHandler gives it the time of an entry the object did not have)")
	assert.NotContains(t, entries["creator/Update/apps/v1/+time"], "f:replicas", "the creator lost them")
	assert.Contains(t, entries["creator/Update/apps/v1/+time"], `"f:selector":{}`)

	// The applier owns them now: no conflict, and its entry is kept as it was.
	_, err = rss.ApplyScale(ctx, "rs", autoscalingv1ac.Scale().WithSpec(autoscalingv1ac.ScaleSpec().WithReplicas(2)), metav1.ApplyOptions{FieldManager: "scaler"})
	require.NoError(t, err)
	got, err = rss.Get(ctx, "rs", metav1.GetOptions{})
	require.NoError(t, err)
	assert.EqualValues(t, 2, *got.Spec.Replicas)
	assert.Equal(t, entries["scaler/Apply/apps/v1/scale"], scaleEntries(got.ManagedFields, "scaler")["scaler/Apply/apps/v1/scale"])

	// An apply of the ReplicaSet setting replicas now conflicts with the
	// Scale's applier.
	_, err = rss.Apply(ctx, appsv1ac.ReplicaSet("rs", ns).WithSpec(appsv1ac.ReplicaSetSpec().WithReplicas(3)), metav1.ApplyOptions{FieldManager: "deployer"})
	require.True(t, apierrors.IsConflict(err), "%v", err)
	assert.Equal(t, `Apply failed with 1 conflict: conflict with "scaler" with subresource "scale": .spec.replicas`,
		err.(*apierrors.StatusError).ErrStatus.Message)
}

func TestControllerRuntimeSubResourceApplyScale(t *testing.T) {
	ns := newNamespace(t)
	ctx := context.Background()
	c, err := client.New(adminConfig(t), client.Options{})
	require.NoError(t, err)
	replicas := int32(0)
	d := &appsv1.Deployment{ObjectMeta: metav1.ObjectMeta{Name: "web", Namespace: ns},
		Spec: appsv1.DeploymentSpec{Replicas: &replicas, Selector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": "web"}},
			Template: corev1.PodTemplateSpec{ObjectMeta: metav1.ObjectMeta{Labels: map[string]string{"app": "web"}},
				Spec: corev1.PodSpec{Containers: []corev1.Container{{Name: "c", Image: "nginx"}}}}}}
	require.NoError(t, c.Create(ctx, d, client.FieldOwner("creator")))

	body := autoscalingv1ac.Scale().WithSpec(autoscalingv1ac.ScaleSpec().WithReplicas(2))
	require.NoError(t, c.SubResource("scale").Apply(ctx, appsv1ac.Deployment("web", ns),
		&client.SubResourceApplyOptions{SubResourceBody: body}, client.FieldOwner("cr-scaler"), client.ForceOwnership))

	var got appsv1.Deployment
	require.NoError(t, c.Get(ctx, client.ObjectKey{Namespace: ns, Name: "web"}, &got))
	assert.EqualValues(t, 2, *got.Spec.Replicas)
	assert.Equal(t, map[string]string{"cr-scaler/Apply/apps/v1/scale": `{"f:spec":{"f:replicas":{}}}`},
		scaleEntries(got.ManagedFields, "cr-scaler"))
}
