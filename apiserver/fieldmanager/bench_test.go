package fieldmanager

import (
	"fmt"
	"testing"

	"kubeloop/api"
	"kubeloop/apiserver/fieldmanager/typed"
)

// realisticPod is a pod as a Deployment makes it: three containers with
// ports, env, mounts and resources, volumes, tolerations and a status.
func realisticPod() *api.Pod {
	p := &api.Pod{
		TypeMeta: api.TypeMeta{APIVersion: "v1", Kind: "Pod"},
		ObjectMeta: api.ObjectMeta{Name: "web-7d4b9c-x2x9z", Namespace: "default", UID: "u",
			Labels:          map[string]string{"app": "web", "pod-template-hash": "7d4b9c"},
			OwnerReferences: []api.OwnerReference{{APIVersion: "apps/v1", Kind: "ReplicaSet", Name: "web-7d4b9c", UID: "rs-uid"}}},
		Spec: api.PodSpec{NodeName: "node-1",
			Tolerations: []api.Toleration{{Key: "node.kubernetes.io/not-ready", Operator: "Exists", Effect: "NoExecute"}}},
		Status: api.PodStatus{Phase: "Running", PodIPs: []api.PodIP{{IP: "10.1.0.5"}},
			Conditions: []api.PodCondition{{Type: "Ready", Status: "True"}, {Type: "PodScheduled", Status: "True"}}},
	}
	for i := range 3 {
		name := fmt.Sprintf("c%d", i)
		p.Spec.Containers = append(p.Spec.Containers, api.Container{Name: name, Image: "registry/app:1.2.3",
			Args:         []string{"--port", "8080"},
			Ports:        []api.ContainerPort{{Name: "http", ContainerPort: int32(8080 + i)}, {ContainerPort: int32(9090 + i), Protocol: "UDP"}},
			Env:          []api.EnvVar{{Name: "A", Value: "1"}, {Name: "B", Value: "2"}, {Name: "C", Value: "3"}},
			VolumeMounts: []api.VolumeMount{{Name: "data", MountPath: "/data/" + name}}})
		p.Spec.Volumes = append(p.Spec.Volumes, api.Volume{Name: "v" + name})
		p.Status.ContainerStatuses = append(p.Status.ContainerStatuses, api.ContainerStatus{Name: name, Ready: true, Image: "registry/app:1.2.3"})
	}
	return p
}

func BenchmarkToFieldSet(b *testing.B) {
	pod := realisticPod()
	schema := typed.ForObject(pod)
	v, err := typed.ToValue(pod)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := typed.ToFieldSet(v, schema); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkUpdateStatus is the hot path of a cluster: a kubelet status
// write to a pod whose managedFields name its creator.
func BenchmarkUpdateStatus(b *testing.B) {
	f := NewFieldManager(typed.ForObject(&api.Pod{}), "v1", "status")
	create := NewFieldManager(f.Type, "v1", "")
	live := realisticPod()
	live.UID = ""
	create.Update(&api.Pod{}, live, "kube-controller-manager")
	live.UID = "u"
	b.ReportAllocs()
	for b.Loop() {
		newObj := live.DeepCopyObject().(*api.Pod)
		newObj.Status.Conditions[0].Status = "False"
		f.Update(live, newObj, "kubelet")
		if len(newObj.ManagedFields) != 2 {
			b.Fatalf("want 2 entries, got %d", len(newObj.ManagedFields))
		}
	}
}
