package conformance

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	apiextensionsclient "k8s.io/apiextensions-apiserver/pkg/client/clientset/clientset"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/dynamic/dynamicinformer"
	"k8s.io/client-go/tools/cache"
	"k8s.io/utils/ptr"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"
	"sigs.k8s.io/controller-runtime/pkg/metrics/server"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"
)

// fooGVR is sample-controller's Foo (k8s.io/sample-controller, artifacts/
// examples/crd-status-subresource.yaml).
var fooGVR = schema.GroupVersionResource{Group: "samplecontroller.k8s.io", Version: "v1alpha1", Resource: "foos"}

// createFooCRD creates the Foo CRD with client-go's apiextensions clientset
// and waits for it to be Established.
func createFooCRD(t *testing.T) {
	t.Helper()
	ctx := context.Background()
	cs, err := apiextensionsclient.NewForConfig(adminConfig(t))
	require.NoError(t, err)
	crd := &apiextensionsv1.CustomResourceDefinition{
		// A k8s.io group needs the approval annotation; sample-controller's
		// CRD carries this one.
		ObjectMeta: metav1.ObjectMeta{Name: "foos.samplecontroller.k8s.io",
			Annotations: map[string]string{"api-approved.kubernetes.io": "unapproved, experimental-only"}},
		Spec: apiextensionsv1.CustomResourceDefinitionSpec{
			Group: "samplecontroller.k8s.io", Scope: apiextensionsv1.NamespaceScoped,
			Names: apiextensionsv1.CustomResourceDefinitionNames{Plural: "foos", Singular: "foo", Kind: "Foo"},
			Versions: []apiextensionsv1.CustomResourceDefinitionVersion{{
				Name: "v1alpha1", Served: true, Storage: true,
				Subresources: &apiextensionsv1.CustomResourceSubresources{Status: &apiextensionsv1.CustomResourceSubresourceStatus{}},
				Schema: &apiextensionsv1.CustomResourceValidation{OpenAPIV3Schema: &apiextensionsv1.JSONSchemaProps{
					Type: "object",
					Properties: map[string]apiextensionsv1.JSONSchemaProps{
						"spec": {Type: "object", Properties: map[string]apiextensionsv1.JSONSchemaProps{
							"deploymentName": {Type: "string"},
							"replicas":       {Type: "integer", Minimum: ptr.To(1.0), Maximum: ptr.To(10.0)},
						}},
						"status": {Type: "object", Properties: map[string]apiextensionsv1.JSONSchemaProps{
							"availableReplicas": {Type: "integer"},
						}},
					},
				}},
			}},
		},
	}
	_, err = cs.ApiextensionsV1().CustomResourceDefinitions().Create(ctx, crd, metav1.CreateOptions{})
	require.NoError(t, err)
	t.Cleanup(func() {
		_ = cs.ApiextensionsV1().CustomResourceDefinitions().Delete(context.Background(), crd.Name, metav1.DeleteOptions{})
	})
	require.Eventually(t, func() bool {
		got, err := cs.ApiextensionsV1().CustomResourceDefinitions().Get(ctx, crd.Name, metav1.GetOptions{})
		if err != nil {
			return false
		}
		for _, c := range got.Status.Conditions {
			if c.Type == apiextensionsv1.Established && c.Status == apiextensionsv1.ConditionTrue {
				return true
			}
		}
		return false
	}, 30*time.Second, 20*time.Millisecond, "Foo never Established")
}

func newFoo(ns, name string, replicas int64) *unstructured.Unstructured {
	return &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "samplecontroller.k8s.io/v1alpha1", "kind": "Foo",
		"metadata": map[string]any{"name": name, "namespace": ns},
		"spec":     map[string]any{"deploymentName": name + "-deploy", "replicas": replicas},
	}}
}

// TestCustomResourcesWithClientGoAndControllerRuntime: the dynamic client,
// a dynamic informer, and a controller-runtime manager with unstructured
// objects and its cached client, running a sample-controller-shaped
// reconciler that owns a Deployment.
func TestCustomResourcesWithClientGoAndControllerRuntime(t *testing.T) {
	createFooCRD(t)
	ns := newNamespace(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	dyn, err := dynamic.NewForConfig(adminConfig(t))
	require.NoError(t, err)
	foos := dyn.Resource(fooGVR).Namespace(ns)

	t.Run("dynamic client", func(t *testing.T) {
		created, err := foos.Create(ctx, newFoo(ns, "plain", 2), metav1.CreateOptions{})
		require.NoError(t, err)
		assert.Equal(t, int64(1), created.GetGeneration())
		got, err := foos.Get(ctx, "plain", metav1.GetOptions{})
		require.NoError(t, err)
		replicas, _, _ := unstructured.NestedInt64(got.Object, "spec", "replicas")
		assert.Equal(t, int64(2), replicas)
		require.NoError(t, unstructured.SetNestedField(got.Object, int64(3), "spec", "replicas"))
		updated, err := foos.Update(ctx, got, metav1.UpdateOptions{})
		require.NoError(t, err)
		assert.Equal(t, int64(2), updated.GetGeneration())
		require.NoError(t, unstructured.SetNestedField(updated.Object, int64(1), "status", "availableReplicas"))
		st, err := foos.UpdateStatus(ctx, updated, metav1.UpdateOptions{})
		require.NoError(t, err)
		avail, _, _ := unstructured.NestedInt64(st.Object, "status", "availableReplicas")
		assert.Equal(t, int64(1), avail)
		list, err := foos.List(ctx, metav1.ListOptions{})
		require.NoError(t, err)
		assert.Len(t, list.Items, 1)
		_, err = foos.Create(ctx, newFoo(ns, "toomany", 50), metav1.CreateOptions{})
		require.Error(t, err)
		assert.Contains(t, err.Error(), "spec.replicas: Invalid value: 50: spec.replicas in body should be less than or equal to 10")
		require.NoError(t, foos.Delete(ctx, "plain", metav1.DeleteOptions{}))
	})

	t.Run("dynamic informer", func(t *testing.T) {
		factory := dynamicinformer.NewFilteredDynamicSharedInformerFactory(dyn, 0, ns, nil)
		inf := factory.ForResource(fooGVR)
		seen := make(chan string, 10)
		_, err := inf.Informer().AddEventHandler(cache.ResourceEventHandlerFuncs{AddFunc: func(obj any) {
			seen <- obj.(*unstructured.Unstructured).GetName()
		}})
		require.NoError(t, err)
		factory.Start(ctx.Done())
		factory.WaitForCacheSync(ctx.Done())
		_, err = foos.Create(ctx, newFoo(ns, "watched", 1), metav1.CreateOptions{})
		require.NoError(t, err)
		select {
		case name := <-seen:
			assert.Equal(t, "watched", name)
		case <-time.After(30 * time.Second):
			t.Fatal("the informer never saw the Foo")
		}
		obj, err := inf.Lister().ByNamespace(ns).Get("watched")
		require.NoError(t, err)
		assert.Equal(t, "Foo", obj.(*unstructured.Unstructured).GetKind())
	})

	t.Run("controller-runtime", func(t *testing.T) {
		mgr, err := ctrl.NewManager(adminConfig(t), ctrl.Options{
			Metrics: server.Options{BindAddress: "0"},
			Client:  client.Options{Cache: &client.CacheOptions{Unstructured: true}},
		})
		require.NoError(t, err)
		foo := &unstructured.Unstructured{}
		foo.SetGroupVersionKind(fooGVR.GroupVersion().WithKind("Foo"))
		rec := &fooReconciler{c: mgr.GetClient()}
		require.NoError(t, ctrl.NewControllerManagedBy(mgr).For(foo).Owns(&appsv1.Deployment{}).Complete(rec))
		done := make(chan error, 1)
		mctx, mcancel := context.WithCancel(ctx)
		go func() { done <- mgr.Start(mctx) }()
		defer func() { mcancel(); require.NoError(t, <-done) }()

		_, err = foos.Create(ctx, newFoo(ns, "owner", 2), metav1.CreateOptions{})
		require.NoError(t, err)
		c := mgr.GetClient()
		var dep appsv1.Deployment
		require.Eventually(t, func() bool {
			return c.Get(ctx, client.ObjectKey{Namespace: ns, Name: "owner-deploy"}, &dep) == nil
		}, 30*time.Second, 50*time.Millisecond, "the reconciler never made the Deployment")
		require.Len(t, dep.OwnerReferences, 1)
		assert.Equal(t, "Foo", dep.OwnerReferences[0].Kind)
		assert.True(t, *dep.OwnerReferences[0].Controller)
		// The Deployment's pods become available on the simulated node; its
		// status change wakes the Foo (Owns), whose status follows.
		require.Eventually(t, func() bool {
			got, err := foos.Get(ctx, "owner", metav1.GetOptions{})
			if err != nil {
				return false
			}
			avail, _, _ := unstructured.NestedInt64(got.Object, "status", "availableReplicas")
			return avail == 2
		}, 60*time.Second, 100*time.Millisecond, "Foo status never reported the available replicas")
	})
}

// fooReconciler is sample-controller's syncHandler on controller-runtime:
// a Deployment per Foo, owned by it, and the Foo's status from it.
type fooReconciler struct{ c client.Client }

func (r *fooReconciler) Reconcile(ctx context.Context, req reconcile.Request) (reconcile.Result, error) {
	foo := &unstructured.Unstructured{}
	foo.SetGroupVersionKind(fooGVR.GroupVersion().WithKind("Foo"))
	if err := r.c.Get(ctx, req.NamespacedName, foo); err != nil {
		return reconcile.Result{}, client.IgnoreNotFound(err)
	}
	name, _, _ := unstructured.NestedString(foo.Object, "spec", "deploymentName")
	replicas, _, _ := unstructured.NestedInt64(foo.Object, "spec", "replicas")
	dep := &appsv1.Deployment{ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: req.Namespace}}
	_, err := controllerutil.CreateOrUpdate(ctx, r.c, dep, func() error {
		labels := map[string]string{"app": "nginx", "controller": req.Name}
		dep.Spec.Replicas = ptr.To(int32(replicas))
		dep.Spec.Selector = &metav1.LabelSelector{MatchLabels: labels}
		dep.Spec.Template.Labels = labels
		dep.Spec.Template.Spec.Containers = []corev1.Container{{Name: "nginx", Image: "nginx:latest"}}
		return controllerutil.SetControllerReference(foo, dep, r.c.Scheme())
	})
	if err != nil {
		return reconcile.Result{}, err
	}
	before := foo.DeepCopy()
	if err := unstructured.SetNestedField(foo.Object, int64(dep.Status.AvailableReplicas), "status", "availableReplicas"); err != nil {
		return reconcile.Result{}, err
	}
	return reconcile.Result{}, r.c.Status().Patch(ctx, foo, client.MergeFrom(before))
}
