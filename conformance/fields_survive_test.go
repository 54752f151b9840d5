package conformance

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/kubernetes"
	"k8s.io/utils/ptr"
)

// richPodSpec sets fields from every corner of PodSpec — volumes, probes,
// security contexts, affinity, env from sources, topology spread — the
// ones a protobuf decoder that knows only part of a kind would drop.
func richPodSpec() corev1.PodSpec {
	return corev1.PodSpec{
		SchedulerName: "nobody", // no scheduler binds it: the test owns the pod
		Volumes: []corev1.Volume{
			{Name: "cfg", VolumeSource: corev1.VolumeSource{ConfigMap: &corev1.ConfigMapVolumeSource{
				LocalObjectReference: corev1.LocalObjectReference{Name: "cfg"}, DefaultMode: ptr.To[int32](0o644),
				Items: []corev1.KeyToPath{{Key: "a", Path: "a.txt"}}}}},
			{Name: "scratch", VolumeSource: corev1.VolumeSource{EmptyDir: &corev1.EmptyDirVolumeSource{
				Medium: corev1.StorageMediumMemory, SizeLimit: ptr.To(resource.MustParse("64Mi"))}}},
		},
		InitContainers: []corev1.Container{{Name: "init", Image: "busybox", Command: []string{"true"}}},
		Containers: []corev1.Container{{
			Name: "app", Image: "nginx:1.27", Args: []string{"-g", "daemon off;"},
			Ports: []corev1.ContainerPort{{Name: "http", ContainerPort: 80, Protocol: corev1.ProtocolTCP}},
			Env: []corev1.EnvVar{
				{Name: "PLAIN", Value: "v"},
				{Name: "FROM_CM", ValueFrom: &corev1.EnvVarSource{ConfigMapKeyRef: &corev1.ConfigMapKeySelector{
					LocalObjectReference: corev1.LocalObjectReference{Name: "cfg"}, Key: "a", Optional: ptr.To(true)}}},
				{Name: "POD_IP", ValueFrom: &corev1.EnvVarSource{FieldRef: &corev1.ObjectFieldSelector{APIVersion: "v1", FieldPath: "status.podIP"}}},
			},
			Resources: corev1.ResourceRequirements{
				Requests: corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("100m"), corev1.ResourceMemory: resource.MustParse("64Mi")},
				Limits:   corev1.ResourceList{corev1.ResourceMemory: resource.MustParse("128Mi")},
			},
			VolumeMounts: []corev1.VolumeMount{{Name: "cfg", MountPath: "/etc/cfg", ReadOnly: true}},
			LivenessProbe: &corev1.Probe{ProbeHandler: corev1.ProbeHandler{HTTPGet: &corev1.HTTPGetAction{
				Path: "/healthz", Port: intstr.FromString("http"), Scheme: corev1.URISchemeHTTP}},
				InitialDelaySeconds: 3, PeriodSeconds: 10, TimeoutSeconds: 1, SuccessThreshold: 1, FailureThreshold: 3},
			ReadinessProbe: &corev1.Probe{ProbeHandler: corev1.ProbeHandler{TCPSocket: &corev1.TCPSocketAction{Port: intstr.FromInt32(80)}},
				TimeoutSeconds: 1, PeriodSeconds: 10, SuccessThreshold: 1, FailureThreshold: 3},
			Lifecycle: &corev1.Lifecycle{PreStop: &corev1.LifecycleHandler{Exec: &corev1.ExecAction{Command: []string{"sleep", "1"}}}},
			SecurityContext: &corev1.SecurityContext{RunAsNonRoot: ptr.To(true), ReadOnlyRootFilesystem: ptr.To(true),
				Capabilities: &corev1.Capabilities{Drop: []corev1.Capability{"ALL"}}},
			TerminationMessagePath: "/dev/termination-log", TerminationMessagePolicy: corev1.TerminationMessageReadFile,
			ImagePullPolicy: corev1.PullIfNotPresent,
		}},
		SecurityContext:    &corev1.PodSecurityContext{RunAsUser: ptr.To[int64](1000), FSGroup: ptr.To[int64](2000), SupplementalGroups: []int64{3000, 4000}},
		ServiceAccountName: "default",
		// No token volume from ServiceAccount admission: the tests compare
		// the volumes and mounts they wrote with what comes back
		// (TestServiceAccountTokenVolumeReachesClientGo checks that one).
		AutomountServiceAccountToken: ptr.To(false),
		ImagePullSecrets:             []corev1.LocalObjectReference{{Name: "registry"}},
		HostAliases:                  []corev1.HostAlias{{IP: "10.0.0.1", Hostnames: []string{"db"}}},
		Affinity: &corev1.Affinity{PodAntiAffinity: &corev1.PodAntiAffinity{PreferredDuringSchedulingIgnoredDuringExecution: []corev1.WeightedPodAffinityTerm{{
			Weight: 50, PodAffinityTerm: corev1.PodAffinityTerm{TopologyKey: "kubernetes.io/hostname",
				LabelSelector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": "rich"}}}}}}},
		TopologySpreadConstraints: []corev1.TopologySpreadConstraint{{MaxSkew: 1, TopologyKey: "zone",
			WhenUnsatisfiable: corev1.ScheduleAnyway, LabelSelector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": "rich"}}}},
		Tolerations:                   []corev1.Toleration{{Key: "k", Operator: corev1.TolerationOpExists, Effect: corev1.TaintEffectNoSchedule}},
		PriorityClassName:             "",
		TerminationGracePeriodSeconds: ptr.To[int64](5),
		DNSConfig:                     &corev1.PodDNSConfig{Nameservers: []string{"1.1.1.1"}, Options: []corev1.PodDNSConfigOption{{Name: "ndots", Value: ptr.To("2")}}},
		EnableServiceLinks:            ptr.To(false),
	}
}

// richMeta carries every client-owned metadata field. The owner must
// exist: the garbage collector deletes dependents of a missing owner.
func richMeta(name string, owner metav1.OwnerReference) metav1.ObjectMeta {
	return metav1.ObjectMeta{
		Name: name, Labels: map[string]string{"app": "rich", "tier": "web"},
		Annotations:     map[string]string{"note": "kept"},
		OwnerReferences: []metav1.OwnerReference{owner},
	}
}

// newOwner creates a ConfigMap for richMeta's objects to belong to.
func newOwner(t *testing.T, cs *kubernetes.Clientset, ns string) metav1.OwnerReference {
	t.Helper()
	owner, err := cs.CoreV1().ConfigMaps(ns).Create(context.Background(), &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "owner"}}, metav1.CreateOptions{})
	require.NoError(t, err)
	return metav1.OwnerReference{APIVersion: "v1", Kind: "ConfigMap", Name: "owner", UID: owner.UID, Controller: ptr.To(false), BlockOwnerDeletion: ptr.To(false)}
}

// assertSubset fails unless every leaf of want (as JSON) is in got with the
// same value: the server may add defaults and its own metadata, but must
// not lose anything a client sent.
func assertSubset(t *testing.T, want, got any, what string) {
	t.Helper()
	var w, g any
	wb, err := json.Marshal(want)
	require.NoError(t, err)
	gb, err := json.Marshal(got)
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(wb, &w))
	require.NoError(t, json.Unmarshal(gb, &g))
	var missing []string
	var walk func(path string, w, g any)
	walk = func(path string, w, g any) {
		switch wv := w.(type) {
		case map[string]any:
			gv, ok := g.(map[string]any)
			if !ok {
				missing = append(missing, fmt.Sprintf("%s: want an object, got %v", path, g))
				return
			}
			for k, v := range wv {
				walk(path+"."+k, v, gv[k])
			}
		case []any:
			gv, ok := g.([]any)
			if !ok || len(gv) != len(wv) {
				missing = append(missing, fmt.Sprintf("%s: want %d items, got %v", path, len(wv), g))
				return
			}
			for i := range wv {
				walk(fmt.Sprintf("%s[%d]", path, i), wv[i], gv[i])
			}
		default:
			if fmt.Sprint(w) != fmt.Sprint(g) {
				missing = append(missing, fmt.Sprintf("%s: want %v, got %v", path, w, g))
			}
		}
	}
	walk("", w, g)
	require.Empty(t, missing, "%s lost or changed fields", what)
}

func TestEveryFieldSurvivesTypedClientWrites(t *testing.T) {
	ctx := context.Background()
	cs := clientset(t)
	ns := newNamespace(t)
	owner := newOwner(t, cs, ns)

	// ConfigMap: create, update, then get — ownerReferences, finalizers
	// and binary data included (the update that once lost them).
	cms := cs.CoreV1().ConfigMaps(ns)
	meta := richMeta("cm", owner)
	meta.Finalizers = []string{"example.com/hold"}
	cm := &corev1.ConfigMap{ObjectMeta: meta, Data: map[string]string{"a": "1"}, BinaryData: map[string][]byte{"b": {0, 1, 2, 255}}}
	created, err := cms.Create(ctx, cm, metav1.CreateOptions{})
	require.NoError(t, err)
	assertSubset(t, cm, created, "configmap create")
	created.Data["c"] = "3"
	created.Annotations["more"] = "yes"
	updated, err := cms.Update(ctx, created, metav1.UpdateOptions{})
	require.NoError(t, err)
	got, err := cms.Get(ctx, "cm", metav1.GetOptions{})
	require.NoError(t, err)
	assertSubset(t, updated, got, "configmap update")
	assertSubset(t, cm.OwnerReferences, got.OwnerReferences, "configmap ownerReferences")
	got.Finalizers = nil
	_, err = cms.Update(ctx, got, metav1.UpdateOptions{})
	require.NoError(t, err, "releasing the test's finalizer")

	// Pod: create, update, status update, list and watch.
	pods := cs.CoreV1().Pods(ns)
	pod := &corev1.Pod{ObjectMeta: richMeta("p", owner), Spec: richPodSpec()}
	w, err := pods.Watch(ctx, metav1.ListOptions{FieldSelector: "metadata.name=p"})
	require.NoError(t, err)
	defer w.Stop()
	createdPod, err := pods.Create(ctx, pod, metav1.CreateOptions{})
	require.NoError(t, err)
	assertSubset(t, pod, createdPod, "pod create")
	createdPod.Labels["changed"] = "1"
	createdPod.Spec.ActiveDeadlineSeconds = ptr.To[int64](600)
	updatedPod, err := pods.Update(ctx, createdPod, metav1.UpdateOptions{})
	require.NoError(t, err)
	assertSubset(t, createdPod.Spec, updatedPod.Spec, "pod update")
	assertSubset(t, createdPod.Labels, updatedPod.Labels, "pod update labels")
	updatedPod.Status.Conditions = []corev1.PodCondition{{Type: corev1.PodScheduled, Status: corev1.ConditionFalse, Reason: "Unschedulable", Message: "waiting", LastTransitionTime: metav1.Now()}}
	updatedPod.Status.QOSClass = corev1.PodQOSBurstable
	statusPod, err := pods.UpdateStatus(ctx, updatedPod, metav1.UpdateOptions{})
	require.NoError(t, err)
	assertSubset(t, updatedPod.Status, statusPod.Status, "pod status")
	list, err := pods.List(ctx, metav1.ListOptions{LabelSelector: "app=rich"})
	require.NoError(t, err)
	require.Len(t, list.Items, 1)
	assertSubset(t, statusPod, &list.Items[0], "pod list")
	deadline := time.After(30 * time.Second)
	for seen := 0; seen < 3; {
		select {
		case ev := <-w.ResultChan():
			require.NotEqual(t, watch.Error, ev.Type, "%v", ev.Object)
			assertSubset(t, pod.Spec, ev.Object.(*corev1.Pod).Spec, "pod watch event")
			seen++
		case <-deadline:
			t.Fatal("the watch did not deliver the create, update and status update")
		}
	}

	// ReplicaSet: the template carries the rich pod spec.
	rss := cs.AppsV1().ReplicaSets(ns)
	rs := &appsv1.ReplicaSet{ObjectMeta: metav1.ObjectMeta{Name: "rs", Labels: map[string]string{"app": "rich"}},
		Spec: appsv1.ReplicaSetSpec{Replicas: ptr.To[int32](0), MinReadySeconds: 5,
			Selector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": "rich"},
				MatchExpressions: []metav1.LabelSelectorRequirement{{Key: "tier", Operator: metav1.LabelSelectorOpIn, Values: []string{"web"}}}},
			Template: corev1.PodTemplateSpec{ObjectMeta: metav1.ObjectMeta{Labels: map[string]string{"app": "rich", "tier": "web"}}, Spec: richPodSpec()}}}
	createdRS, err := rss.Create(ctx, rs, metav1.CreateOptions{})
	require.NoError(t, err)
	assertSubset(t, rs.Spec, createdRS.Spec, "replicaset create")
	gotRS, err := rss.Get(ctx, "rs", metav1.GetOptions{})
	require.NoError(t, err)
	assertSubset(t, rs.Spec, gotRS.Spec, "replicaset get")

	// Nodes: a status with every section a kubelet reports.
	node := &corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: ns + "-n", Labels: map[string]string{"zone": "a"}},
		Spec: corev1.NodeSpec{PodCIDR: "10.1.0.0/24", PodCIDRs: []string{"10.1.0.0/24"}, Taints: []corev1.Taint{{Key: "k", Value: "v", Effect: corev1.TaintEffectNoSchedule}}}}
	createdNode, err := cs.CoreV1().Nodes().Create(ctx, node, metav1.CreateOptions{})
	require.NoError(t, err)
	t.Cleanup(func() { _ = cs.CoreV1().Nodes().Delete(context.Background(), node.Name, metav1.DeleteOptions{}) })
	assertSubset(t, node.Spec, createdNode.Spec, "node create")
	createdNode.Status = corev1.NodeStatus{
		Capacity:        corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("4"), corev1.ResourcePods: resource.MustParse("110")},
		Allocatable:     corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("3800m")},
		Addresses:       []corev1.NodeAddress{{Type: corev1.NodeInternalIP, Address: "10.0.0.9"}},
		DaemonEndpoints: corev1.NodeDaemonEndpoints{KubeletEndpoint: corev1.DaemonEndpoint{Port: 10250}},
		Images:          []corev1.ContainerImage{{Names: []string{"nginx:1.27"}, SizeBytes: 1 << 20}},
		NodeInfo:        corev1.NodeSystemInfo{MachineID: "m", KubeletVersion: "v1.37.2", OperatingSystem: "linux", Architecture: "amd64"},
	}
	statusNode, err := cs.CoreV1().Nodes().UpdateStatus(ctx, createdNode, metav1.UpdateOptions{})
	require.NoError(t, err)
	assertSubset(t, createdNode.Status, statusNode.Status, "node status")

	// Events with the events.k8s.io-era fields.
	ev := &corev1.Event{ObjectMeta: metav1.ObjectMeta{Name: "e"},
		InvolvedObject: corev1.ObjectReference{Kind: "Pod", Name: "p", Namespace: ns, UID: createdPod.UID, APIVersion: "v1", FieldPath: "spec.containers{app}"},
		Reason:         "Tested", Message: "m", Type: corev1.EventTypeWarning, Count: 2,
		Source:         corev1.EventSource{Component: "conformance", Host: "h"},
		FirstTimestamp: metav1.Now(), LastTimestamp: metav1.Now(),
		Action: "Testing", ReportingController: "conformance", ReportingInstance: "conformance-1",
		Related: &corev1.ObjectReference{Kind: "Node", Name: node.Name}}
	createdEv, err := cs.CoreV1().Events(ns).Create(ctx, ev, metav1.CreateOptions{})
	require.NoError(t, err)
	assertSubset(t, ev, createdEv, "event create")
}
