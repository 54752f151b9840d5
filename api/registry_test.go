package api

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestBuiltinRegistryFindsEveryKindByKindResourceAndType(t *testing.T) {
	r := Builtin()
	cases := []struct {
		group, kind, resource, apiVersion string
		obj                               Object
		namespaced                        bool
	}{
		{"", "Pod", "pods", "v1", &Pod{}, true},
		{"", "ConfigMap", "configmaps", "v1", &ConfigMap{}, true},
		{"", "Node", "nodes", "v1", &Node{}, false},
		{"", "Namespace", "namespaces", "v1", &Namespace{}, false},
		{"", "Event", "events", "v1", &Event{}, true},
		{"", "Secret", "secrets", "v1", &Secret{}, true},
		{"", "ServiceAccount", "serviceaccounts", "v1", &ServiceAccount{}, true},
		{"apps", "Deployment", "deployments", "apps/v1", &Deployment{}, true},
		{"apps", "ReplicaSet", "replicasets", "apps/v1", &ReplicaSet{}, true},
		{"batch", "Job", "jobs", "batch/v1", &Job{}, true},
		{"coordination.k8s.io", "Lease", "leases", "coordination.k8s.io/v1", &Lease{}, true},
		{"rbac.authorization.k8s.io", "Role", "roles", "rbac.authorization.k8s.io/v1", &Role{}, true},
		{"rbac.authorization.k8s.io", "RoleBinding", "rolebindings", "rbac.authorization.k8s.io/v1", &RoleBinding{}, true},
		{"rbac.authorization.k8s.io", "ClusterRole", "clusterroles", "rbac.authorization.k8s.io/v1", &ClusterRole{}, false},
		{"rbac.authorization.k8s.io", "ClusterRoleBinding", "clusterrolebindings", "rbac.authorization.k8s.io/v1", &ClusterRoleBinding{}, false},
		{"apiextensions.k8s.io", "CustomResourceDefinition", "customresourcedefinitions", "apiextensions.k8s.io/v1", &CustomResourceDefinition{}, false},
	}
	require.Len(t, r.All(), len(cases))
	for _, c := range cases {
		byKind, ok := r.ForKind(c.group, c.kind)
		require.True(t, ok, c.kind)
		byResource, ok := r.ForResource(c.group, c.resource)
		require.True(t, ok, c.resource)
		byObject, ok := r.ForObject(c.obj)
		require.True(t, ok, c.kind)
		assert.Same(t, byKind, byResource)
		assert.Same(t, byKind, byObject)
		assert.Equal(t, c.apiVersion, byKind.GroupVersion())
		assert.Equal(t, c.namespaced, byKind.Namespaced, c.kind)
		assert.Equal(t, c.kind+"List", byKind.ListKind())
		assert.IsType(t, c.obj, byKind.New())
		require.NotNil(t, byKind.NewList())
	}
	_, ok := r.ForKind("", "ReplicaSet")
	assert.False(t, ok, "ReplicaSet lives in apps, not core")
	_, ok = r.ForResource("apps", "pods")
	assert.False(t, ok)
	_, ok = r.ForObject(&Binding{})
	assert.False(t, ok, "Binding is a subresource body, not a resource")

	info, ok := ForType[*ReplicaSet](r)
	require.True(t, ok)
	assert.Equal(t, "replicasets", info.Resource)
}

func TestRegistryDiscoveryAttributes(t *testing.T) {
	r := Builtin()
	get := func(group, resource string) *ResourceInfo {
		i, ok := r.ForResource(group, resource)
		require.True(t, ok)
		return i
	}
	pods, rs := get("", "pods"), get("apps", "replicasets")
	assert.Equal(t, []string{"po"}, pods.ShortNames)
	assert.Equal(t, []string{"all"}, pods.Categories)
	assert.Equal(t, []string{"binding"}, pods.Subresources)
	assert.Equal(t, []string{"rs"}, rs.ShortNames)
	assert.Equal(t, []string{"all"}, rs.Categories)
	assert.Equal(t, []string{"scale"}, rs.Subresources)
	assert.Equal(t, []string{"cm"}, get("", "configmaps").ShortNames)
	assert.Equal(t, []string{"no"}, get("", "nodes").ShortNames)
	assert.Equal(t, []string{"ns"}, get("", "namespaces").ShortNames)
	assert.Equal(t, []string{"ev"}, get("", "events").ShortNames)
	assert.Empty(t, get("coordination.k8s.io", "leases").ShortNames)
	deploy, jobs := get("apps", "deployments"), get("batch", "jobs")
	assert.Equal(t, []string{"deploy"}, deploy.ShortNames)
	assert.Equal(t, []string{"all"}, deploy.Categories)
	assert.Equal(t, []string{"scale"}, deploy.Subresources)
	assert.Empty(t, jobs.ShortNames)
	assert.Equal(t, []string{"all"}, jobs.Categories)
	assert.Empty(t, jobs.Subresources)
	assert.Equal(t, []string{"sa"}, get("", "serviceaccounts").ShortNames)
	assert.Empty(t, get("", "secrets").ShortNames)
	assert.Empty(t, get("", "secrets").Categories, "secrets are not in `kubectl get all`")

	for resource, want := range map[string][2]bool{
		"pods": {true, true}, "nodes": {true, true}, "namespaces": {true, true}, "replicasets": {true, true},
		"leases": {true, false}, "configmaps": {false, false}, "events": {false, false},
		"deployments": {true, true}, "jobs": {true, true}, "secrets": {false, false}, "serviceaccounts": {false, false},
	} {
		var info *ResourceInfo
		for _, i := range r.All() {
			if i.Resource == resource {
				info = i
			}
		}
		require.NotNil(t, info, resource)
		assert.Equal(t, want[0], info.HasSpec, resource+" HasSpec")
		assert.Equal(t, want[1], info.HasStatus, resource+" HasStatus")
	}

	scale, ok := SubresourceKind("scale")
	require.True(t, ok)
	assert.Equal(t, KindInfo{Group: "autoscaling", Version: "v1", Kind: "Scale"}, scale)
	assert.Equal(t, "autoscaling/v1", scale.GroupVersion())
	binding, ok := SubresourceKind("binding")
	require.True(t, ok)
	assert.Equal(t, "v1", binding.GroupVersion())
	_, ok = SubresourceKind("status")
	assert.False(t, ok)
}

func TestRegistryKeys(t *testing.T) {
	r := Builtin()
	rs, _ := r.ForResource("apps", "replicasets")
	nodes, _ := r.ForResource("", "nodes")
	leases, _ := r.ForResource("coordination.k8s.io", "leases")
	assert.Equal(t, "/registry/apps/replicasets/default/web", rs.Key("default", "web"))
	assert.Equal(t, "/registry/apps/replicasets/", rs.KeyPrefix())
	assert.Equal(t, "/registry/core/nodes/n1", nodes.Key("", "n1"))
	assert.Equal(t, "/registry/core/nodes/", nodes.KeyPrefix())
	assert.Equal(t, "/registry/coordination.k8s.io/leases/kube-node-lease/n1", leases.Key("kube-node-lease", "n1"))
}

func TestSetTypeMetaCoversResourcesAndSubresourceBodies(t *testing.T) {
	r := Builtin()
	for obj, want := range map[Object]TypeMeta{
		&Pod{}:        {APIVersion: "v1", Kind: "Pod"},
		&ReplicaSet{}: {APIVersion: "apps/v1", Kind: "ReplicaSet"},
		&Lease{}:      {APIVersion: "coordination.k8s.io/v1", Kind: "Lease"},
		&Scale{}:      {APIVersion: "autoscaling/v1", Kind: "Scale"},
		&Binding{}:    {APIVersion: "v1", Kind: "Binding"},
		&Status{}:     {APIVersion: "v1", Kind: "Status"},
	} {
		require.NoError(t, r.SetTypeMeta(obj))
		assert.Equal(t, want, *obj.GetTypeMeta())
	}
	assert.Equal(t, "Scale", NewScale().Kind)
	assert.Equal(t, "n1", NewBinding("default", "p", "n1").Target.Name)
	assert.Equal(t, "DeleteOptions", NewDeleteOptions().Kind)
}

func TestObjectFieldsForFieldSelectors(t *testing.T) {
	r := Builtin()
	pods, _ := r.ForResource("", "pods")
	pod := &Pod{ObjectMeta: ObjectMeta{Name: "p", Namespace: "ns"},
		Spec:   PodSpec{NodeName: "n1", RestartPolicy: RestartPolicyAlways, SchedulerName: DefaultSchedulerName},
		Status: PodStatus{Phase: PodRunning, PodIP: "10.0.0.1"}}
	f := pods.ObjectFields(pod)
	assert.Equal(t, "p", f["metadata.name"])
	assert.Equal(t, "ns", f["metadata.namespace"])
	assert.Equal(t, "n1", f["spec.nodeName"])
	assert.Equal(t, "Always", f["spec.restartPolicy"])
	assert.Equal(t, "default-scheduler", f["spec.schedulerName"])
	assert.Equal(t, "Running", f["status.phase"])
	assert.Equal(t, "10.0.0.1", f["status.podIP"])
	assert.Equal(t, "false", f["spec.hostNetwork"])

	sel, err := ParseFieldSelector("spec.nodeName=n1,status.phase!=Failed")
	require.NoError(t, err)
	assert.True(t, sel.Matches(f))

	events, _ := r.ForResource("", "events")
	ev := &Event{InvolvedObject: ObjectReference{Kind: "Pod", Namespace: "ns", Name: "p", UID: "u",
		APIVersion: "v1", ResourceVersion: "7", FieldPath: "spec.containers{c}"},
		Reason: "Pulled", Type: EventTypeNormal, Source: EventSource{Component: "kubelet"}, ReportingController: "kubelet"}
	ef := events.ObjectFields(ev)
	for k, v := range map[string]string{
		"involvedObject.kind": "Pod", "involvedObject.namespace": "ns", "involvedObject.name": "p",
		"involvedObject.uid": "u", "involvedObject.apiVersion": "v1", "involvedObject.resourceVersion": "7",
		"involvedObject.fieldPath": "spec.containers{c}", "reason": "Pulled", "type": "Normal",
		"source": "kubelet", "reportingComponent": "kubelet",
	} {
		assert.Equal(t, v, ef[k], k)
	}

	nodes, _ := r.ForResource("", "nodes")
	nf := nodes.ObjectFields(&Node{ObjectMeta: ObjectMeta{Name: "n1"}, Spec: NodeSpec{Unschedulable: true}})
	assert.Equal(t, "true", nf["spec.unschedulable"])
	_, hasNS := nf["metadata.namespace"]
	assert.False(t, hasNS, "cluster-scoped kinds have no metadata.namespace field")

	namespaces, _ := r.ForResource("", "namespaces")
	assert.Equal(t, "Active", namespaces.ObjectFields(&Namespace{Status: NamespaceStatus{Phase: NamespaceActive}})["status.phase"])

	secrets, _ := r.ForResource("", "secrets")
	assert.Equal(t, "kubernetes.io/tls", secrets.ObjectFields(&Secret{Type: SecretTypeTLS})["type"])
	jobs, _ := r.ForResource("batch", "jobs")
	assert.Equal(t, "3", jobs.ObjectFields(&Job{Status: JobStatus{Succeeded: 3}})["status.successful"])
	assert.Equal(t, "0", jobs.ObjectFields(&Job{})["status.successful"])
}

func TestListGetSetItemsAndDeepCopy(t *testing.T) {
	l := &PodList{Items: []Pod{{ObjectMeta: ObjectMeta{Name: "a"}}, {ObjectMeta: ObjectMeta{Name: "b"}}}}
	items := l.GetItems()
	require.Len(t, items, 2)
	items[0].GetObjectMeta().Name = "changed"
	assert.Equal(t, "changed", l.Items[0].Name, "GetItems points into the list")

	c := l.DeepCopy()
	c.Items[1].Name = "copy"
	assert.Equal(t, "b", l.Items[1].Name)

	l.SetItems([]Object{&Pod{ObjectMeta: ObjectMeta{Name: "z"}}})
	assert.Equal(t, "z", l.Items[0].Name)
	assert.Len(t, l.Items, 1)
}
