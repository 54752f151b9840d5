package admission

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	"kubeloop/api"
)

func TestDefaultingFillsPodSpecAndContainers(t *testing.T) {
	pod := defaulted(t, validPod())
	s := pod.Spec
	require.Equal(t, api.RestartPolicyAlways, s.RestartPolicy)
	require.Equal(t, "ClusterFirst", s.DNSPolicy)
	require.Equal(t, int64(30), *s.TerminationGracePeriodSeconds)
	require.Equal(t, "default-scheduler", s.SchedulerName)
	c := s.Containers[0]
	require.Equal(t, api.PullIfNotPresent, c.ImagePullPolicy)
	require.Equal(t, "/dev/termination-log", c.TerminationMessagePath)
	require.Equal(t, "File", c.TerminationMessagePolicy)
	require.Equal(t, api.ProtocolTCP, c.Ports[0].Protocol)
}

func TestDefaultingKeepsValuesTheClientSet(t *testing.T) {
	pod := validPod()
	pod.Spec.RestartPolicy = api.RestartPolicyNever
	pod.Spec.TerminationGracePeriodSeconds = ptr(int64(0))
	pod.Spec.SchedulerName = "other"
	pod.Spec.Containers[0].ImagePullPolicy = api.PullNever
	pod.Spec.Containers[0].Ports[0].Protocol = api.ProtocolUDP
	defaulted(t, pod)
	require.Equal(t, api.RestartPolicyNever, pod.Spec.RestartPolicy)
	require.Equal(t, int64(0), *pod.Spec.TerminationGracePeriodSeconds)
	require.Equal(t, "other", pod.Spec.SchedulerName)
	require.Equal(t, api.PullNever, pod.Spec.Containers[0].ImagePullPolicy)
	require.Equal(t, api.ProtocolUDP, pod.Spec.Containers[0].Ports[0].Protocol)
}

func TestDefaultingPullPolicyFollowsTheImageTag(t *testing.T) {
	for image, want := range map[string]api.PullPolicy{
		"nginx":                          api.PullAlways,
		"nginx:latest":                   api.PullAlways,
		"nginx:1.27":                     api.PullIfNotPresent,
		"localhost:5000/nginx":           api.PullAlways,
		"localhost:5000/nginx:1.27":      api.PullIfNotPresent,
		"nginx@sha256:0123456789abcdef":  api.PullIfNotPresent,
		"registry.k8s.io/pause:3.10":     api.PullIfNotPresent,
		"registry.k8s.io/pause:latest@x": api.PullAlways,
	} {
		pod := validPod()
		pod.Spec.Containers[0].Image = image
		defaulted(t, pod)
		require.Equal(t, want, pod.Spec.Containers[0].ImagePullPolicy, image)
	}
}

func TestDefaultingCopiesLimitsIntoMissingRequests(t *testing.T) {
	pod := defaulted(t, validPod())
	// cpu had its own request; memory had only a limit.
	require.Equal(t, api.ResourceList{api.ResourceCPU: "100m", api.ResourceMemory: "128Mi"},
		pod.Spec.Containers[0].Resources.Requests)

	onlyLimits := validPod()
	onlyLimits.Spec.Containers[0].Resources = api.ResourceRequirements{Limits: api.ResourceList{api.ResourceCPU: "2"}}
	defaulted(t, onlyLimits)
	require.Equal(t, api.ResourceList{api.ResourceCPU: "2"}, onlyLimits.Spec.Containers[0].Resources.Requests)
}

func TestDefaultingReplicaSetSetsReplicasAndTemplateButNotSelector(t *testing.T) {
	rs := validReplicaSet()
	rs.Spec.Replicas, rs.Spec.Selector = nil, nil
	defaulted(t, rs)
	require.Equal(t, int32(1), *rs.Spec.Replicas)
	require.Nil(t, rs.Spec.Selector, "apps/v1 never defaults the selector")
	require.Equal(t, api.RestartPolicyAlways, rs.Spec.Template.Spec.RestartPolicy)
	require.Equal(t, api.PullAlways, rs.Spec.Template.Spec.Containers[0].ImagePullPolicy)

	zero := validReplicaSet()
	zero.Spec.Replicas = ptr(int32(0))
	require.Equal(t, int32(0), *defaulted(t, zero).Spec.Replicas)
}

func TestDefaultingNamespaceIsActiveAndNodeAllocatableIsCapacity(t *testing.T) {
	ns := defaulted(t, &api.Namespace{ObjectMeta: api.ObjectMeta{Name: "ns1"}})
	require.Equal(t, api.NamespaceActive, ns.Status.Phase)

	node := &api.Node{ObjectMeta: api.ObjectMeta{Name: "n1"}}
	node.Status.Capacity = api.ResourceList{api.ResourceCPU: "4", api.ResourcePods: "110"}
	defaulted(t, node)
	require.Equal(t, node.Status.Capacity, node.Status.Allocatable)
	node.Status.Capacity[api.ResourceCPU] = "8"
	require.Equal(t, api.Quantity("4"), node.Status.Allocatable[api.ResourceCPU], "allocatable is a copy")
}

func TestDefaultingTwiceIsDefaultingOnce(t *testing.T) {
	objs := []api.Object{validPod(), validReplicaSet(), &api.Namespace{ObjectMeta: api.ObjectMeta{Name: "ns1"}},
		&api.Node{ObjectMeta: api.ObjectMeta{Name: "n1"}, Status: api.NodeStatus{Capacity: api.ResourceList{api.ResourceCPU: "1"}}}}
	for _, obj := range objs {
		once := defaulted(t, obj)
		snapshot := once.DeepCopyObject()
		twice := defaulted(t, once)
		require.Equal(t, snapshot, twice, "%T", obj)
	}
}

func TestDefaultingOnUpdateKeepsIdentityTheClientLeftOut(t *testing.T) {
	old := defaulted(t, validPod())
	old.UID, old.CreationTimestamp = "u-1", api.Now()
	replacement := validPod() // a manifest: no uid, no creationTimestamp
	a := updateAttrs(t, "", "Pod", replacement, old)
	require.NoError(t, NewDefaulting().Admit(context.Background(), a))
	require.Equal(t, "u-1", replacement.UID)
	require.Equal(t, old.CreationTimestamp, replacement.CreationTimestamp)
	require.NoError(t, NewValidation().Validate(context.Background(), a))
}
