package kubelet

import (
	"context"
	"fmt"
	"sort"

	"kubeloop/kubelet/runtime"
)

// runtimePod is what the runtime holds of one pod: the kubelet's
// counterpart of kubecontainer.PodStatus.
type runtimePod struct {
	// sandboxes, newest first; sandbox is the ready one, if any.
	sandboxes []runtime.PodSandbox
	sandbox   *runtime.PodSandbox
	// containers by name, newest attempt first.
	containers map[string][]runtime.Container
}

// latest is the newest container named name, or nil.
func (rp *runtimePod) latest(name string) *runtime.Container {
	if cs := rp.containers[name]; len(cs) > 0 {
		return &cs[0]
	}
	return nil
}

// getRuntimePod asks the runtime for uid's sandboxes and containers only
// (a filtered list, as GetPodStatus does by the pod UID label).
// Kubernetes: kubeGenericRuntimeManager.GetPodStatus.
func (kl *Kubelet) getRuntimePod(ctx context.Context, uid string) (*runtimePod, error) {
	sandboxes, err := kl.runtime.ListPodSandbox(ctx, &runtime.PodSandboxFilter{PodUID: uid})
	if err != nil {
		return nil, fmt.Errorf("list sandboxes: %w", err)
	}
	containers, err := kl.runtime.ListContainers(ctx, &runtime.ContainerFilter{PodUID: uid})
	if err != nil {
		return nil, fmt.Errorf("list containers: %w", err)
	}
	rp := &runtimePod{containers: map[string][]runtime.Container{}}
	for _, sb := range sandboxes {
		if sb.Metadata.UID == uid {
			rp.sandboxes = append(rp.sandboxes, sb)
		}
	}
	sort.Slice(rp.sandboxes, func(i, j int) bool { return rp.sandboxes[i].CreatedAt.After(rp.sandboxes[j].CreatedAt) })
	for i := range rp.sandboxes {
		if rp.sandboxes[i].State == runtime.SandboxReady {
			rp.sandbox = &rp.sandboxes[i]
			break
		}
	}
	for _, c := range containers {
		if c.PodUID == uid {
			rp.containers[c.Name] = append(rp.containers[c.Name], c)
		}
	}
	for _, cs := range rp.containers {
		sort.Slice(cs, func(i, j int) bool {
			if cs[i].Attempt != cs[j].Attempt {
				return cs[i].Attempt > cs[j].Attempt
			}
			return cs[i].CreatedAt.After(cs[j].CreatedAt)
		})
	}
	return rp, nil
}
