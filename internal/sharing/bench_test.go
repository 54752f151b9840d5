package sharing

import (
	"testing"

	"kubeloop/api"
)

// BenchmarkSharePod: one pod version shared with the one before it (a
// status write: the spec and metadata equal, the status not), what the
// watch cache does for every pod event.
func BenchmarkSharePod(b *testing.B) {
	older := benchPod()
	var s Sharer
	for b.Loop() {
		b.StopTimer()
		cur := benchPod()
		cur.ResourceVersion = "2"
		cur.Status.Phase = api.PodRunning
		b.StartTimer()
		s.Share(cur, older)
	}
}

func benchPod() *api.Pod {
	sec := int64(30)
	p := &api.Pod{TypeMeta: api.TypeMeta{APIVersion: "v1", Kind: "Pod"},
		ObjectMeta: api.ObjectMeta{Namespace: "ns", Name: "scale-abcde", GenerateName: "scale-", UID: "0b7c5c0e-1111-2222-3333-444455556666",
			ResourceVersion: "1", Labels: map[string]string{"app": "scale"},
			OwnerReferences: []api.OwnerReference{{APIVersion: "apps/v1", Kind: "ReplicaSet", Name: "scale", UID: "rs-uid"}},
			ManagedFields: []api.ManagedFieldsEntry{{Manager: "kube-controller-manager", Operation: "Update", APIVersion: "v1",
				FieldsType: "FieldsV1", FieldsV1: &api.FieldsV1{Raw: []byte(`{"f:metadata":{"f:generateName":{},"f:labels":{".":{},"f:app":{}}},"f:spec":{"f:containers":{"k:{\"name\":\"web\"}":{".":{},"f:image":{},"f:name":{}}}}}`)}}}},
		Spec: api.PodSpec{NodeName: "node-1", SchedulerName: "default-scheduler", ServiceAccountName: "default",
			RestartPolicy: api.RestartPolicyAlways, TerminationGracePeriodSeconds: &sec,
			Containers: []api.Container{{Name: "web", Image: "nginx:1.27", Resources: api.ResourceRequirements{
				Requests: api.ResourceList{api.ResourceCPU: api.MustParseQuantity("10m"), api.ResourceMemory: api.MustParseQuantity("16Mi")}}}},
			Tolerations: []api.Toleration{{Key: "node.kubernetes.io/not-ready", Operator: "Exists", Effect: "NoExecute", TolerationSeconds: &sec}}},
		Status: api.PodStatus{Phase: api.PodPending, QOSClass: "Burstable",
			Conditions: []api.PodCondition{{Type: api.PodScheduled, Status: api.ConditionTrue}}}}
	return p
}

// BenchmarkDiffAndApplyPod: a pod version kept as its differences from the
// next one (the watch cache's superseded versions, delta.go) and built
// again, as a replay does.
func BenchmarkDiffAndApplyPod(b *testing.B) {
	older := benchPod()
	cur := benchPod()
	cur.ResourceVersion = "2"
	cur.Status.Phase = api.PodRunning
	var s Sharer
	s.Share(cur, older)
	b.Run("diff", func(b *testing.B) {
		for b.Loop() {
			s.Diff(older, cur)
		}
	})
	d := s.Diff(older, cur)
	b.Run("apply", func(b *testing.B) {
		for b.Loop() {
			d.Apply(cur)
		}
	})
}
