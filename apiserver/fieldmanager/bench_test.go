package fieldmanager

import (
	"encoding/json"
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

// hundredContainerConfig is an apply configuration of a pod with 100
// containers, each with a port and two env vars, image tag as given.
func hundredContainerConfig(b *testing.B, tag string) any {
	containers := make([]any, 0, 100)
	for i := range 100 {
		containers = append(containers, map[string]any{
			"name": fmt.Sprintf("c%03d", i), "image": "registry/app:" + tag,
			"ports": []any{map[string]any{"containerPort": json.Number(fmt.Sprint(8000 + i))}},
			"env":   []any{map[string]any{"name": "A", "value": "1"}, map[string]any{"name": "B", "value": tag}},
		})
	}
	return map[string]any{"apiVersion": "v1", "kind": "Pod",
		"metadata": map[string]any{"name": "big", "namespace": "default", "labels": map[string]any{"app": "big"}},
		"spec":     map[string]any{"containers": containers}}
}

// BenchmarkApply100ContainerPod re-applies a 100-container pod with every
// image changed: merge, prune, conflict check and the new Apply entry.
// Its line is BenchmarkApply100ContainerPod/kubeloop, a row of make bench.
func BenchmarkApply100ContainerPod(b *testing.B) { b.Run("kubeloop", benchmarkApply100ContainerPod) }

func benchmarkApply100ContainerPod(b *testing.B) {
	f := NewFieldManager(typed.ForObject(&api.Pod{}), "v1", "")
	merged, managed, err := f.Apply(&api.Pod{}, hundredContainerConfig(b, "1"), "deployer", false)
	if err != nil {
		b.Fatal(err)
	}
	raw, _ := json.Marshal(merged)
	live := &api.Pod{}
	if err := json.Unmarshal(raw, live); err != nil {
		b.Fatal(err)
	}
	live.ManagedFields, live.UID = managed, "u"
	next := hundredContainerConfig(b, "2")
	b.ReportAllocs()
	for b.Loop() {
		out, entries, err := f.Apply(live, next, "deployer", false)
		if err != nil || out == nil || len(entries) != 1 {
			b.Fatalf("apply: %v, %d entries", err, len(entries))
		}
	}
}

// BenchmarkUpdatePod is a pod's create and one spec update by another
// manager: what managedFields tracking adds to the two writes.
func BenchmarkUpdatePod(b *testing.B) {
	f := NewFieldManager(typed.ForObject(&api.Pod{}), "v1", "")
	b.ReportAllocs()
	for b.Loop() {
		created := realisticPod()
		created.UID = ""
		f.Update(&api.Pod{}, created, "creator")
		created.UID = "u"
		updated := created.DeepCopyObject().(*api.Pod)
		updated.Spec.Containers[0].Image = "registry/app:2"
		updated.Labels["version"] = "2"
		f.Update(created, updated, "editor")
		if len(updated.ManagedFields) != 2 {
			b.Fatalf("want 2 entries, got %d", len(updated.ManagedFields))
		}
	}
}

// BenchmarkCreatePod records a pod's create (create_fast.go);
// BenchmarkCreatePodPlain is the same create through the comparison with
// an empty pod.
func BenchmarkCreatePod(b *testing.B) { benchmarkCreatePod(b, false) }

func BenchmarkCreatePodPlain(b *testing.B) { benchmarkCreatePod(b, true) }

func benchmarkCreatePod(b *testing.B, plain bool) {
	f := NewFieldManager(typed.ForObject(&api.Pod{}), "v1", "")
	pod := realisticPod()
	pod.UID = ""
	b.ReportAllocs()
	for b.Loop() {
		created := pod.DeepCopy()
		if plain {
			if err := f.updateByComparison(&api.Pod{}, created, "creator"); err != nil {
				b.Fatal(err)
			}
		} else {
			f.Update(&api.Pod{}, created, "creator")
		}
		if len(created.ManagedFields) != 1 {
			b.Fatalf("want 1 entry, got %d", len(created.ManagedFields))
		}
	}
}

// BenchmarkReplacePod is the update of BenchmarkCreateUpdateManagedFields
// (apiserver): the creator replaces its pod with every image changed and
// a label added.
func BenchmarkReplacePod(b *testing.B) {
	f := NewFieldManager(typed.ForObject(&api.Pod{}), "v1", "")
	created := realisticPod()
	created.UID = ""
	f.Update(&api.Pod{}, created, "creator")
	created.UID = "u"
	next := created.DeepCopy()
	next.ManagedFields = nil
	for i := range next.Spec.Containers {
		next.Spec.Containers[i].Image = "registry/app:2"
	}
	next.Labels["version"] = "2"
	b.ReportAllocs()
	for b.Loop() {
		updated := next.DeepCopy()
		f.Update(created, updated, "creator")
		if len(updated.ManagedFields) != 1 {
			b.Fatalf("want 1 entry, got %d", len(updated.ManagedFields))
		}
	}
}
