// Package runtime is the container runtime seen by the simulated kubelet: a
// small CRI-shaped interface (sandboxes and containers: run, create, start,
// stop, remove, list) and Fake, an in-memory implementation.
//
// # Where it sits on the spine
//
// Below the kubelet's pod workers, at spine arrow 9 (reading-path
// step 9): "starting" a
// pod means RunPodSandbox, CreateContainer and StartContainer here. The
// kubelet learns what happened on its own (a container exiting) by listing,
// through its PLEG.
//
// # Kubernetes counterparts (v1.37.2)
//
//   - staging/src/k8s.io/cri-api/pkg/apis/services.go: RuntimeService
//     (RunPodSandbox, StopPodSandbox, RemovePodSandbox, ListPodSandbox,
//     CreateContainer, StartContainer, StopContainer, RemoveContainer,
//     ListContainers).
//   - pkg/kubelet/container/runtime.go: the kubelet's own runtime
//     abstraction above CRI, which we skip.
//
// # What we simplify
//
// No gRPC, images, processes, logs, exec or stats. Fake's containers are
// records whose state moves with the clock: StartContainer waits StartDelay,
// and a container with a planned exit shows as exited to any List after its
// time. The exit is planned when the container is created, from the
// annotations kubeloop.dev/fail-after and kubeloop.dev/exit-code, else from
// its command line read as a tiny shell (shell.go: sleep, exit, true and
// false joined by ";" and "&&"); any other container runs until stopped.
// Each sandbox gets an address from the node's /24. The list filters know
// only the pod UID (CRI filters by labels, the pod UID label among them);
// Fake indexes its records by pod so a filtered list stays cheap on a
// crowded node.
package runtime
