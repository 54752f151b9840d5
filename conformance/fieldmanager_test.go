package conformance

// These tests hold kubeloop's field ownership to Kubernetes' own: the same
// objects and write sequences go through structured-merge-diff (via
// client-go's schema of the built-in types and apimachinery's field
// manager) and through apiserver/fieldmanager, and the FieldsV1 bytes must
// be identical.

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	appsv1 "k8s.io/api/apps/v1"
	coordinationv1 "k8s.io/api/coordination/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/apimachinery/pkg/util/managedfields"
	"k8s.io/client-go/applyconfigurations"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	smdfieldpath "sigs.k8s.io/structured-merge-diff/v6/fieldpath"

	"kubeloop/api"
	"kubeloop/apiserver/fieldmanager"
	"kubeloop/apiserver/fieldmanager/typed"
)

func smdTypeConverter() managedfields.TypeConverter {
	return applyconfigurations.NewTypeConverter(clientgoscheme.Scheme)
}

// toOurs converts a Kubernetes object to kubeloop's type of the same kind
// through JSON, the way a request body reaches our apiserver.
func toOurs(t *testing.T, obj runtime.Object) api.Object {
	t.Helper()
	gvks, _, err := clientgoscheme.Scheme.ObjectKinds(obj)
	require.NoError(t, err)
	info, ok := api.Builtin().ForKind(gvks[0].Group, gvks[0].Kind)
	require.True(t, ok, "kind %v", gvks[0])
	b, err := json.Marshal(obj)
	require.NoError(t, err)
	ours := info.New()
	require.NoError(t, json.Unmarshal(b, ours))
	return ours
}

func richPod() *corev1.Pod {
	grace := int64(30)
	return &corev1.Pod{
		TypeMeta: metav1.TypeMeta{APIVersion: "v1", Kind: "Pod"},
		ObjectMeta: metav1.ObjectMeta{Name: "web", Namespace: "default",
			Labels:      map[string]string{"app": "web", "tier": "front"},
			Annotations: map[string]string{"note": "<&>"},
			Finalizers:  []string{"example.com/b", "example.com/a"},
			OwnerReferences: []metav1.OwnerReference{{APIVersion: "apps/v1", Kind: "ReplicaSet", Name: "web-1",
				UID: types.UID("11111111-2222"), Controller: ptrTo(true)}}},
		Spec: corev1.PodSpec{
			InitContainers: []corev1.Container{{Name: "init", Image: "busybox", Command: []string{"sh", "-c", "true"}}},
			Containers: []corev1.Container{{
				Name: "nginx", Image: "nginx:1.27", Args: []string{"-g", "daemon off;"},
				Ports: []corev1.ContainerPort{{Name: "http", ContainerPort: 80}, {ContainerPort: 53, Protocol: corev1.ProtocolUDP}},
				Env: []corev1.EnvVar{{Name: "A", Value: "1"}, {Name: "POD", ValueFrom: &corev1.EnvVarSource{
					FieldRef: &corev1.ObjectFieldSelector{FieldPath: "metadata.name"}}}},
				Resources: corev1.ResourceRequirements{
					Limits:   corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("500m")},
					Requests: corev1.ResourceList{corev1.ResourceMemory: resource.MustParse("64Mi")}},
				VolumeMounts:    []corev1.VolumeMount{{Name: "data", MountPath: "/data"}},
				ReadinessProbe:  &corev1.Probe{ProbeHandler: corev1.ProbeHandler{HTTPGet: &corev1.HTTPGetAction{Path: "/", Port: intstr.FromString("http")}}},
				SecurityContext: &corev1.SecurityContext{Capabilities: &corev1.Capabilities{Drop: []corev1.Capability{"ALL"}}},
			}, {Name: "sidecar", Image: "envoy"}},
			Volumes: []corev1.Volume{{Name: "data", VolumeSource: corev1.VolumeSource{EmptyDir: &corev1.EmptyDirVolumeSource{}}},
				{Name: "cfg", VolumeSource: corev1.VolumeSource{ConfigMap: &corev1.ConfigMapVolumeSource{
					LocalObjectReference: corev1.LocalObjectReference{Name: "cfg"}, Items: []corev1.KeyToPath{{Key: "a", Path: "a"}}}}}},
			NodeSelector:                  map[string]string{"disk": "ssd"},
			Tolerations:                   []corev1.Toleration{{Key: "k", Operator: corev1.TolerationOpExists}},
			TerminationGracePeriodSeconds: &grace,
			Affinity: &corev1.Affinity{NodeAffinity: &corev1.NodeAffinity{RequiredDuringSchedulingIgnoredDuringExecution: &corev1.NodeSelector{
				NodeSelectorTerms: []corev1.NodeSelectorTerm{{MatchExpressions: []corev1.NodeSelectorRequirement{{Key: "zone", Operator: corev1.NodeSelectorOpIn, Values: []string{"a"}}}}}}}},
			TopologySpreadConstraints: []corev1.TopologySpreadConstraint{{MaxSkew: 1, TopologyKey: "zone", WhenUnsatisfiable: corev1.DoNotSchedule}},
			ImagePullSecrets:          []corev1.LocalObjectReference{{Name: "reg"}},
			HostAliases:               []corev1.HostAlias{{IP: "10.0.0.1", Hostnames: []string{"a"}}},
		},
		Status: corev1.PodStatus{Phase: corev1.PodRunning, PodIPs: []corev1.PodIP{{IP: "10.1.0.5"}},
			Conditions:        []corev1.PodCondition{{Type: corev1.PodReady, Status: corev1.ConditionTrue}},
			ContainerStatuses: []corev1.ContainerStatus{{Name: "nginx", Ready: true, Image: "nginx:1.27"}}},
	}
}

func ptrTo[T any](v T) *T { return &v }

func fieldManagerObjects() map[string]runtime.Object {
	replicas := int32(3)
	return map[string]runtime.Object{
		"pod": richPod(),
		"replicaset": &appsv1.ReplicaSet{TypeMeta: metav1.TypeMeta{APIVersion: "apps/v1", Kind: "ReplicaSet"},
			ObjectMeta: metav1.ObjectMeta{Name: "rs", Namespace: "default"},
			Spec: appsv1.ReplicaSetSpec{Replicas: &replicas,
				Selector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": "web"},
					MatchExpressions: []metav1.LabelSelectorRequirement{{Key: "tier", Operator: metav1.LabelSelectorOpExists}}},
				Template: corev1.PodTemplateSpec{ObjectMeta: metav1.ObjectMeta{Labels: map[string]string{"app": "web"}},
					Spec: corev1.PodSpec{Containers: []corev1.Container{{Name: "c", Image: "nginx"}}}}},
			Status: appsv1.ReplicaSetStatus{Replicas: 3, Conditions: []appsv1.ReplicaSetCondition{{Type: appsv1.ReplicaSetReplicaFailure, Status: corev1.ConditionFalse}}}},
		"node": &corev1.Node{TypeMeta: metav1.TypeMeta{APIVersion: "v1", Kind: "Node"},
			ObjectMeta: metav1.ObjectMeta{Name: "n1"},
			Spec:       corev1.NodeSpec{PodCIDRs: []string{"10.1.0.0/24"}, Taints: []corev1.Taint{{Key: "k", Effect: corev1.TaintEffectNoSchedule}}},
			Status: corev1.NodeStatus{Addresses: []corev1.NodeAddress{{Type: corev1.NodeInternalIP, Address: "10.0.0.2"}},
				Conditions: []corev1.NodeCondition{{Type: corev1.NodeReady, Status: corev1.ConditionTrue}},
				Capacity:   corev1.ResourceList{corev1.ResourcePods: resource.MustParse("110")},
				Images:     []corev1.ContainerImage{{Names: []string{"nginx"}}}}},
		"configmap": &corev1.ConfigMap{TypeMeta: metav1.TypeMeta{APIVersion: "v1", Kind: "ConfigMap"},
			ObjectMeta: metav1.ObjectMeta{Name: "c", Namespace: "default"},
			Data:       map[string]string{"a": "1", "b.json": "{}"}, BinaryData: map[string][]byte{"bin": {1, 2}}},
		"namespace": &corev1.Namespace{TypeMeta: metav1.TypeMeta{APIVersion: "v1", Kind: "Namespace"},
			ObjectMeta: metav1.ObjectMeta{Name: "ns", Labels: map[string]string{"kubernetes.io/metadata.name": "ns"}},
			Spec:       corev1.NamespaceSpec{Finalizers: []corev1.FinalizerName{"kubernetes"}}},
		"lease": &coordinationv1.Lease{TypeMeta: metav1.TypeMeta{APIVersion: "coordination.k8s.io/v1", Kind: "Lease"},
			ObjectMeta: metav1.ObjectMeta{Name: "l", Namespace: "kube-node-lease"},
			Spec:       coordinationv1.LeaseSpec{HolderIdentity: ptrTo("n1"), LeaseDurationSeconds: ptrTo(int32(40))}},
		"event": &corev1.Event{TypeMeta: metav1.TypeMeta{APIVersion: "v1", Kind: "Event"},
			ObjectMeta:     metav1.ObjectMeta{Name: "e", Namespace: "default"},
			InvolvedObject: corev1.ObjectReference{Kind: "Pod", Name: "web", Namespace: "default"},
			Reason:         "Started", Message: "ok", Count: 1, Type: "Normal"},
	}
}

// TestFieldSetMatchesStructuredMergeDiff compares ToFieldSet of each object
// with SMD's TypedValue.ToFieldSet under Kubernetes' schema.
func TestFieldSetMatchesStructuredMergeDiff(t *testing.T) {
	tc := smdTypeConverter()
	for name, obj := range fieldManagerObjects() {
		t.Run(name, func(t *testing.T) {
			tv, err := tc.ObjectToTyped(obj)
			require.NoError(t, err)
			set, err := tv.ToFieldSet()
			require.NoError(t, err)
			want, err := set.ToJSON()
			require.NoError(t, err)

			ours := toOurs(t, obj)
			v, err := typed.ToValue(ours)
			require.NoError(t, err)
			ourSet, err := typed.ToFieldSet(v, typed.ForObject(ours))
			require.NoError(t, err)
			got, err := ourSet.ToJSON()
			require.NoError(t, err)
			assert.Equal(t, string(want), string(got))
			if name == "pod" {
				// the test is only as good as the object: make sure the
				// interesting shapes are in it
				for _, shape := range []string{`"k:{\"containerPort\":80,\"protocol\":\"TCP\"}":{".":{}`,
					`"f:finalizers":{"v:\"example.com/a\"":{}`, `"f:ownerReferences":{"k:{\"uid\":\"11111111-2222\"}":{}}`,
					`"f:emptyDir":{}`, `"f:nodeSelector":{}`} {
					assert.Contains(t, string(want), shape)
				}
			}
		})
	}
}

// write is one step of a sequence: who writes, through which endpoint,
// and what the object becomes.
type write struct {
	manager, subresource string
	mutate               func(runtime.Object)
}

// TestUpdateManagedFieldsMatchKubernetes runs create and update sequences
// through apimachinery's default field manager and ours and compares the
// managedFields (times aside: both are "now").
func TestUpdateManagedFieldsMatchKubernetes(t *testing.T) {
	podSteps := []write{
		{manager: "kubectl-create"},
		{manager: "kubelet", subresource: "status", mutate: func(o runtime.Object) {
			p := o.(*corev1.Pod)
			p.Status.Conditions = append(p.Status.Conditions, corev1.PodCondition{Type: corev1.ContainersReady, Status: corev1.ConditionTrue})
			p.Status.HostIP = "10.0.0.2"
		}},
		{manager: "kubectl-edit", mutate: func(o runtime.Object) {
			p := o.(*corev1.Pod)
			p.Spec.Containers[0].Image = "nginx:1.28"
			p.Spec.Containers[0].Env = p.Spec.Containers[0].Env[1:]
			p.Labels["new"] = "x"
			delete(p.Labels, "tier")
		}},
		{manager: "kubectl-create", mutate: func(o runtime.Object) {
			p := o.(*corev1.Pod)
			p.Spec.Containers[1].Image = "envoy:2"
			p.Spec.Containers[0].Image = "nginx:1.29"
		}},
		{manager: "", mutate: func(o runtime.Object) { o.(*corev1.Pod).Annotations = nil }},
	}
	rsSteps := []write{
		{manager: "kube-controller-manager"},
		{manager: "kubectl", subresource: "scale", mutate: func(o runtime.Object) { *o.(*appsv1.ReplicaSet).Spec.Replicas = 5 }},
		{manager: "kube-controller-manager", subresource: "status", mutate: func(o runtime.Object) {
			o.(*appsv1.ReplicaSet).Status.Replicas = 5
			o.(*appsv1.ReplicaSet).Status.Conditions = nil
		}},
	}
	cmSteps := []write{
		{manager: "a"},
		{manager: "b", mutate: func(o runtime.Object) { o.(*corev1.ConfigMap).Data["a"] = "2" }},
		{manager: "c", mutate: func(o runtime.Object) { o.(*corev1.ConfigMap).Data["c"] = "3" }},
		{manager: "b", mutate: func(o runtime.Object) { delete(o.(*corev1.ConfigMap).Data, "c") }},
		{manager: "d", mutate: func(o runtime.Object) { o.(*corev1.ConfigMap).BinaryData = nil }},
	}
	objs := fieldManagerObjects()
	for name, steps := range map[string][]write{"pod": podSteps, "replicaset": rsSteps, "configmap": cmSteps} {
		t.Run(name, func(t *testing.T) {
			runSequence(t, objs[name], steps)
		})
	}
}

func runSequence(t *testing.T, initial runtime.Object, steps []write) {
	gvks, _, err := clientgoscheme.Scheme.ObjectKinds(initial)
	require.NoError(t, err)
	gvk := gvks[0]
	k8sManagers := map[string]*managedfields.FieldManager{}
	ourManagers := map[string]*fieldmanager.FieldManager{}
	k8sFor := func(sub string) *managedfields.FieldManager {
		if m, ok := k8sManagers[sub]; ok {
			return m
		}
		m, err := managedfields.NewDefaultFieldManager(smdTypeConverter(), clientgoscheme.Scheme, clientgoscheme.Scheme,
			clientgoscheme.Scheme, gvk, gvk.GroupVersion(), sub, k8sResetFields(t, gvk, sub))
		require.NoError(t, err)
		k8sManagers[sub] = m
		return m
	}
	var ourType *typed.Type
	oursFor := func(sub string) *fieldmanager.FieldManager {
		if m, ok := ourManagers[sub]; ok {
			return m
		}
		m := fieldmanager.NewFieldManager(ourType, gvk.GroupVersion().String(), sub)
		ourManagers[sub] = m
		return m
	}

	var k8sLive runtime.Object
	var ourLive api.Object
	for i, step := range steps {
		var k8sNew runtime.Object
		var k8sOld runtime.Object
		if i == 0 {
			k8sNew = initial.DeepCopyObject()
			empty, err := clientgoscheme.Scheme.New(gvk)
			require.NoError(t, err)
			k8sOld = empty
		} else {
			k8sNew = k8sLive.DeepCopyObject()
			step.mutate(k8sNew)
			k8sOld = k8sLive
		}
		ourNew := toOurs(t, k8sNew)
		var ourOld api.Object
		if i == 0 {
			info, _ := api.Builtin().ForKind(gvk.Group, gvk.Kind)
			ourOld = info.New()
			ourType = typed.ForObject(ourNew)
		} else {
			ourOld = ourLive
		}

		k8sOut := k8sFor(step.subresource).UpdateNoErrors(k8sOld, k8sNew, step.manager)
		oursFor(step.subresource).Update(ourOld, ourNew, step.manager)

		if i == 0 {
			// the store gives the created object its identity
			setUID(k8sOut, "uid-1")
			ourNew.GetObjectMeta().UID = "uid-1"
		}
		k8sLive, ourLive = k8sOut, ourNew
		// Entries are ordered by their time in seconds; the two managers
		// read the clock a moment apart, which can straddle a second, so
		// the order is left to the unit tests (managed.go compareEntries).
		assert.ElementsMatch(t, k8sEntries(t, k8sOut), ourEntries(ourNew), "step %d (%s %s)", i, step.manager, step.subresource)
	}
	// a sequence where nobody but the creator ends up owning anything
	// would test little
	assert.GreaterOrEqual(t, len(k8sEntries(t, k8sLive)), 2)
}

// k8sResetFields hands SMD the fields our endpoint resets, so both sides
// ignore the same fields (Kubernetes' strategies list them per kind in
// GetResetFields; ours are derived from the schema).
func k8sResetFields(t *testing.T, gvk schema.GroupVersionKind, sub string) map[smdfieldpath.APIVersion]smdfieldpath.Filter {
	info, ok := api.Builtin().ForKind(gvk.Group, gvk.Kind)
	require.True(t, ok)
	set := smdfieldpath.NewSet()
	for _, p := range fieldmanager.ResetFieldsFor(typed.ForObject(info.New()), sub).Paths() {
		var parts []any
		for _, pe := range p {
			require.NotNil(t, pe.FieldName, "reset fields are field paths")
			parts = append(parts, *pe.FieldName)
		}
		set.Insert(smdfieldpath.MakePathOrDie(parts...))
	}
	return map[smdfieldpath.APIVersion]smdfieldpath.Filter{smdfieldpath.APIVersion(gvk.GroupVersion().String()): smdfieldpath.NewExcludeSetFilter(set)}
}

func setUID(obj runtime.Object, uid string) {
	obj.(metav1.Object).SetUID(types.UID(uid))
}

type entrySummary struct {
	Manager, Operation, APIVersion, Subresource, FieldsType, Fields string
	HasTime                                                         bool
}

func k8sEntries(t *testing.T, obj runtime.Object) []entrySummary {
	var out []entrySummary
	for _, e := range obj.(metav1.Object).GetManagedFields() {
		out = append(out, entrySummary{e.Manager, string(e.Operation), e.APIVersion, e.Subresource, e.FieldsType, string(e.FieldsV1.Raw), e.Time != nil})
	}
	return out
}

func ourEntries(obj api.Object) []entrySummary {
	var out []entrySummary
	for _, e := range obj.GetObjectMeta().ManagedFields {
		out = append(out, entrySummary{e.Manager, string(e.Operation), e.APIVersion, e.Subresource, e.FieldsType, string(e.FieldsV1.Raw), e.Time != nil})
	}
	return out
}
