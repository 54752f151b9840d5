// Package kubelet is a simulated node agent: the kubelet, without
// containers. It registers a Node, heartbeats with a Lease, watches the pods
// bound to it, "runs" them in a fake container runtime and writes their
// status back through the apiserver.
//
// # Where it sits on the spine
//
// Spine arrows 8–10 (docs/architecture.md); reading-path step 9
// (docs/reading-path.md). The scheduler binds a pod (spec.nodeName=<node>); this
// node's informer, narrowed by the field selector spec.nodeName=<node>,
// delivers it; the pod's worker creates a sandbox and starts its containers
// in the runtime, and PUTs pods/<name>/status: Running and Ready (with
// Pending/ContainerCreating first only when the start takes over 100 ms, see
// sync_pod.go). From there the ReplicaSet controller counts the pod as ready.
//
//	informer(spec.nodeName=me) ──▶ HandlePodUpdate ──▶ podWorkers.UpdatePod ──▶ the pod's worker
//	                                                                        │ syncPod: status first, then
//	                                                                        ▼ computePodActions → runtime
//	pleg.relist (every PLEGPeriod) ── container changed ──▶ wake the pod's worker ──▶ pods/status
//
// Every Kubelet is an independent object with its own informer, runtime
// and goroutines (one per pod while it has something to sync, plus a
// lease loop, a status loop and the PLEG), so one process can run a
// thousand nodes (BenchmarkScaleGrowth). There is no per-node HTTP server.
//
// # Kubernetes counterparts (v1.37.2)
//
//   - pkg/kubelet/kubelet.go: Kubelet.Run, syncLoop, syncLoopIteration,
//     HandlePodAdditions/Updates/Removes (here HandlePodUpdate and
//     HandlePodRemove), SyncPod (here syncPod), backOffPeriod and
//     MaxContainerBackOff (RestartBackoffBase/Max).
//   - pkg/kubelet/pod_workers.go: podWorkers.UpdatePod, podWorkerLoop
//     (whose goroutine lives as long as the pod; ours ends when the pod
//     has nothing to sync, and the next update starts another).
//   - pkg/kubelet/pleg/generic.go: GenericPLEG.Relist. pleg_skip.go (skip
//     on a first reading) skips a relist when the fake runtime says
//     nothing can have changed; Kubernetes' GenericPLEG always relists.
//   - pkg/kubelet/kuberuntime/kuberuntime_manager.go: computePodActions,
//     doBackOff; pkg/kubelet/kubelet_pods.go: generateAPIPodStatus, getPhase.
//   - pkg/kubelet/status/status_manager.go and generate.go: status writes
//     and the Initialized/ContainersReady/Ready conditions.
//   - pkg/kubelet/kubelet_node_status.go: registerWithAPIServer,
//     updateNodeStatus, the Ready condition setter.
//   - pkg/kubelet/nodelease: the Lease renewed every 10 s.
//   - staging/src/k8s.io/cri-api: the shape of package kubelet/runtime.
//
// # What we simplify
//
//   - No real containers, images, volumes, probes, cgroups, init containers,
//     ephemeral containers, static pods, eviction under resource pressure,
//     or node shutdown. A container is ready as soon as it runs.
//   - There are no processes. A container runs forever, unless its
//     command line (command, then args) is in a tiny shell subset that the
//     fake runtime understands (kubelet/runtime/shell.go): "sh -c SCRIPT"
//     (also bash, ash or dash, from any directory), or a bare "sleep N",
//     "true" or "false". SCRIPT is commands joined by ";", newlines or
//     "&&", each one of "sleep N" (seconds, decimals allowed, optional
//     s/m/h/d suffix; several operands add up), "exit [N]", "true" and
//     "false". The
//     script runs as sh runs it: "&&" skips the rest of its list after a
//     failure, exit ends it, the last status is the exit code. So
//     ["sh","-c","sleep 2; exit 1"] runs 2 s and fails with code 1, and
//     "false && sleep 9" fails at once. Anything else — another command,
//     quotes, variables, "||", pipes, "sleep infinity", one unknown
//     command anywhere in the script — runs forever, as every container
//     did before. A container without a command runs its args (we have no
//     image entrypoints).
//   - The exit then goes where a real one goes: the container's
//     terminated state (exitCode, reason Completed or Error, startedAt,
//     finishedAt), the pod's phase by restartPolicy (Never: Succeeded or
//     Failed; OnFailure: restart after a failure; Always: restart after
//     any exit), restarts in the crash-loop back-off (immediate, then 10 s
//     doubling to 5 min since the last exit, reset after 10 min of quiet;
//     meanwhile waiting/CrashLoopBackOff), restartCount and lastState.
//   - Pod annotations still force an exit whatever the command says:
//     kubeloop.dev/fail-after ("3s": exit 1 after that long) and
//     kubeloop.dev/exit-code ("0" completes at once, "N" fails at once).
//   - Node status is checked every NodeStatusInterval (10 s) and written
//     only when it changed or every NodeStatusReportInterval (5 min); the
//     Lease is the frequent heartbeat, as in Kubernetes.
//   - The status is written with a PUT to pods/status (Kubernetes patches),
//     only when it differs from the last one written, and from the newer of
//     the informer's pod and the one the last write returned, so writes
//     rarely conflict. The status from before a runtime change is skipped
//     when the change finishes within 100 ms (Kubernetes' asynchronous
//     status manager usually merges that write away too).
//   - After a sync that changed the runtime, the worker syncs again at
//     once, instead of waiting for the next relist (Kubernetes' evented
//     PLEG gets the same effect from runtime events).
//   - Graceful deletion stops the containers at once (the fake's processes
//     always honour SIGTERM) and then deletes the pod with grace 0 and a UID
//     precondition; no final "terminated" status is written first.
//   - The PLEG emits one event per changed pod rather than one per
//     container transition; the worker re-reads the whole pod anyway.
package kubelet
