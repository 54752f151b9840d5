// Skip on a first reading: the trace hooks (docs/trace.md), counted apart
// like the metrics. While the trace is off each returns at its first line.

package kubelet

import (
	"kubeloop/api"
	"kubeloop/trace"
)

// traceComponent names this kubelet as cluster/full names the component.
func (kl *Kubelet) traceComponent() string { return "kubelet-" + kl.opts.NodeName }

// traceStarted reports a container the runtime started ("kubelet start").
func (kl *Kubelet) traceStarted(pod *api.Pod, container string) {
	if trace.On() {
		trace.Emit(trace.ObjectEvent(9, trace.KubeletStart, kl.traceComponent(), "pods", pod, "started container "+container))
	}
}

// traceStatusWritten reports the status the API accepted ("status
// written"), with the resourceVersion of the write.
func (kl *Kubelet) traceStatusWritten(written *api.Pod) {
	if trace.On() {
		trace.Emit(trace.ObjectEvent(10, trace.StatusWritten, kl.traceComponent(), "pods", written, "phase "+string(written.Status.Phase)))
	}
}
