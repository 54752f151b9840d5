package api

// Container is one container of a pod: an image and how to run it.
type Container struct {
	// Name of the container, a DNS label unique among all the pod's
	// containers. Cannot be changed.
	Name string `json:"name" protobuf:"bytes,1,opt,name=name"`
	// Image reference to run, e.g. "nginx:1.27" or
	// "registry.example/app@sha256:...". Optional so that controllers and
	// templates can fill it in later.
	Image string `json:"image,omitempty" protobuf:"bytes,2,opt,name=image"`
	// Executable and its arguments, replacing the image's ENTRYPOINT; run
	// directly, not by a shell. $(VAR) is replaced with the container's
	// environment variable VAR ($$ escapes a $). Cannot be changed.
	Command []string `json:"command,omitempty" protobuf:"bytes,3,rep,name=command" listType:"atomic"`
	// Arguments to the entrypoint, replacing the image's CMD. $(VAR) is
	// expanded as in command. Cannot be changed.
	Args []string `json:"args,omitempty" protobuf:"bytes,4,rep,name=args" listType:"atomic"`
	// Directory the command runs in; the runtime's or image's default when
	// empty. Cannot be changed.
	WorkingDir string `json:"workingDir,omitempty" protobuf:"bytes,5,opt,name=workingDir"`
	// Ports the container listens on, mostly informational: a port missing
	// here is still reachable. Cannot be changed.
	Ports []ContainerPort `json:"ports,omitempty" protobuf:"bytes,6,rep,name=ports" patchStrategy:"merge" patchMergeKey:"containerPort" listType:"map" listMapKey:"containerPort,protocol"`
	// ConfigMaps and Secrets whose keys all become environment variables. A
	// later source wins over an earlier one, and env wins over both. Cannot
	// be changed.
	EnvFrom []EnvFromSource `json:"envFrom,omitempty" protobuf:"bytes,19,rep,name=envFrom" listType:"atomic"`
	// Environment variables to set, one per name. Cannot be changed.
	Env []EnvVar `json:"env,omitempty" protobuf:"bytes,7,rep,name=env" patchStrategy:"merge" patchMergeKey:"name" listType:"map" listMapKey:"name"`
	// CPU, memory and other resources the container requests and may not
	// exceed. A pod update cannot change them; the pods/resize subresource
	// can.
	Resources ResourceRequirements `json:"resources,omitempty" protobuf:"bytes,8,opt,name=resources"`
	// Whether changing each resource in place needs a container restart.
	ResizePolicy []ContainerResizePolicy `json:"resizePolicy,omitempty" protobuf:"bytes,23,rep,name=resizePolicy" listType:"atomic"`
	// Overrides the pod's restartPolicy for this container. On an init
	// container, Always makes it a sidecar: it is started in init order but
	// keeps running (and restarting) until the regular containers have
	// finished.
	RestartPolicy *ContainerRestartPolicy `json:"restartPolicy,omitempty" protobuf:"bytes,24,opt,name=restartPolicy"`
	// Rules tried in order when the container exits; the first that matches
	// decides, and if none does, restartPolicy does. At most 20; requires
	// restartPolicy to be set explicitly.
	RestartPolicyRules []ContainerRestartRule `json:"restartPolicyRules,omitempty" protobuf:"bytes,25,rep,name=restartPolicyRules" listType:"atomic"`
	// Pod volumes to mount into the container's filesystem, one per path.
	// Cannot be changed.
	VolumeMounts []VolumeMount `json:"volumeMounts,omitempty" protobuf:"bytes,9,rep,name=volumeMounts" patchStrategy:"merge" patchMergeKey:"mountPath" listType:"map" listMapKey:"mountPath"`
	// Block-mode volumes to expose to the container as raw devices.
	VolumeDevices []VolumeDevice `json:"volumeDevices,omitempty" protobuf:"bytes,21,rep,name=volumeDevices" patchStrategy:"merge" patchMergeKey:"devicePath" listType:"map" listMapKey:"devicePath"`
	// Check run periodically; when it fails often enough, the kubelet
	// restarts the container. Cannot be changed.
	LivenessProbe *Probe `json:"livenessProbe,omitempty" protobuf:"bytes,10,opt,name=livenessProbe"`
	// Check run periodically; while it fails, the container is not ready and
	// the pod is taken out of service endpoints. Cannot be changed.
	ReadinessProbe *Probe `json:"readinessProbe,omitempty" protobuf:"bytes,11,opt,name=readinessProbe"`
	// Check that must succeed once before the liveness and readiness probes
	// start, giving a slow-starting container time; failing it restarts the
	// container like a liveness failure. Cannot be changed.
	StartupProbe *Probe `json:"startupProbe,omitempty" protobuf:"bytes,22,opt,name=startupProbe"`
	// Hooks run right after the container starts and before it is stopped,
	// and the signal that stops it. Cannot be changed.
	Lifecycle *Lifecycle `json:"lifecycle,omitempty" protobuf:"bytes,12,opt,name=lifecycle"`
	// File in the container into which it may write a short final message,
	// shown in its terminated state. Truncated at 4096 bytes (12KiB for all
	// containers together). Defaults to /dev/termination-log; cannot be
	// changed.
	TerminationMessagePath string `json:"terminationMessagePath,omitempty" protobuf:"bytes,13,opt,name=terminationMessagePath"`
	// Where the termination message comes from: File (the default) reads
	// terminationMessagePath; FallbackToLogsOnError uses the end of the log
	// (at most 2048 bytes or 80 lines) when that file is empty and the
	// container failed. Cannot be changed.
	TerminationMessagePolicy string `json:"terminationMessagePolicy,omitempty" protobuf:"bytes,20,opt,name=terminationMessagePolicy"`
	// When the image is pulled: Always, IfNotPresent or Never. Defaults to
	// Always for an image tagged ":latest" or with neither tag nor digest,
	// and to IfNotPresent otherwise. Cannot be changed.
	ImagePullPolicy PullPolicy `json:"imagePullPolicy,omitempty" protobuf:"bytes,14,opt,name=imagePullPolicy"`
	// Security settings for this container; they override the pod's
	// securityContext where both set a value.
	SecurityContext *SecurityContext `json:"securityContext,omitempty" protobuf:"bytes,15,opt,name=securityContext"`
	// Keep a stdin stream open for the container; without it reading stdin
	// gives EOF at once. Default false.
	Stdin bool `json:"stdin,omitempty" protobuf:"varint,16,opt,name=stdin"`
	// Close stdin when the first attached client disconnects (it stays
	// closed until the container restarts); otherwise stdin stays open
	// across attaches and never reaches EOF. Default false.
	StdinOnce bool `json:"stdinOnce,omitempty" protobuf:"varint,17,opt,name=stdinOnce"`
	// Give the container a terminal; needs stdin. Default false.
	TTY bool `json:"tty,omitempty" protobuf:"varint,18,opt,name=tty"`
}

// EphemeralContainer is a container added to a running pod for a while,
// typically to debug it (kubectl debug). It is added through the
// pods/ephemeralcontainers subresource, gets no resources or scheduling
// guarantees of its own, and is never restarted or removed.
type EphemeralContainer struct {
	// The container's fields, the same as Container's, with the restrictions
	// noted on each.
	EphemeralContainerCommon `json:"" protobuf:"bytes,1,opt"`
	// Name of a regular container whose namespaces (process, IPC...) this
	// one joins, if the runtime supports it; empty uses the pod's
	// namespaces.
	TargetContainerName string `json:"targetContainerName,omitempty" protobuf:"bytes,2,opt,name=targetContainerName"`
}

// EphemeralContainerCommon repeats every field of Container for an
// EphemeralContainer, so the two convert into each other while each keeps its
// own documentation.
type EphemeralContainerCommon struct {
	// Name of the container, a DNS label unique among all the pod's
	// containers, init containers and ephemeral containers.
	Name string `json:"name" protobuf:"bytes,1,opt,name=name"`
	// Image reference to run.
	Image string `json:"image,omitempty" protobuf:"bytes,2,opt,name=image"`
	// Executable and its arguments, replacing the image's ENTRYPOINT; run
	// without a shell, with $(VAR) expanded from the environment.
	Command []string `json:"command,omitempty" protobuf:"bytes,3,rep,name=command" listType:"atomic"`
	// Arguments to the entrypoint, replacing the image's CMD; $(VAR) is
	// expanded as in command.
	Args []string `json:"args,omitempty" protobuf:"bytes,4,rep,name=args" listType:"atomic"`
	// Directory the command runs in; the runtime's or image's default when
	// empty.
	WorkingDir string `json:"workingDir,omitempty" protobuf:"bytes,5,opt,name=workingDir"`
	// Not allowed for ephemeral containers.
	Ports []ContainerPort `json:"ports,omitempty" protobuf:"bytes,6,rep,name=ports" patchStrategy:"merge" patchMergeKey:"containerPort" listType:"map" listMapKey:"containerPort,protocol"`
	// ConfigMaps and Secrets whose keys all become environment variables; a
	// later source wins, and env wins over both.
	EnvFrom []EnvFromSource `json:"envFrom,omitempty" protobuf:"bytes,19,rep,name=envFrom" listType:"atomic"`
	// Environment variables to set, one per name.
	Env []EnvVar `json:"env,omitempty" protobuf:"bytes,7,rep,name=env" patchStrategy:"merge" patchMergeKey:"name" listType:"map" listMapKey:"name"`
	// Not allowed: an ephemeral container uses resources the pod already
	// has.
	Resources ResourceRequirements `json:"resources,omitempty" protobuf:"bytes,8,opt,name=resources"`
	// Not allowed for ephemeral containers.
	ResizePolicy []ContainerResizePolicy `json:"resizePolicy,omitempty" protobuf:"bytes,23,rep,name=resizePolicy" listType:"atomic"`
	// Not allowed for ephemeral containers.
	RestartPolicy *ContainerRestartPolicy `json:"restartPolicy,omitempty" protobuf:"bytes,24,opt,name=restartPolicy"`
	// Not allowed for ephemeral containers.
	RestartPolicyRules []ContainerRestartRule `json:"restartPolicyRules,omitempty" protobuf:"bytes,25,rep,name=restartPolicyRules" listType:"atomic"`
	// Pod volumes to mount into the container's filesystem; subPath mounts
	// are not allowed.
	VolumeMounts []VolumeMount `json:"volumeMounts,omitempty" protobuf:"bytes,9,rep,name=volumeMounts" patchStrategy:"merge" patchMergeKey:"mountPath" listType:"map" listMapKey:"mountPath"`
	// Block-mode volumes to expose to the container as raw devices.
	VolumeDevices []VolumeDevice `json:"volumeDevices,omitempty" protobuf:"bytes,21,rep,name=volumeDevices" patchStrategy:"merge" patchMergeKey:"devicePath" listType:"map" listMapKey:"devicePath"`
	// Not allowed for ephemeral containers.
	LivenessProbe *Probe `json:"livenessProbe,omitempty" protobuf:"bytes,10,opt,name=livenessProbe"`
	// Not allowed for ephemeral containers.
	ReadinessProbe *Probe `json:"readinessProbe,omitempty" protobuf:"bytes,11,opt,name=readinessProbe"`
	// Not allowed for ephemeral containers.
	StartupProbe *Probe `json:"startupProbe,omitempty" protobuf:"bytes,22,opt,name=startupProbe"`
	// Not allowed for ephemeral containers.
	Lifecycle *Lifecycle `json:"lifecycle,omitempty" protobuf:"bytes,12,opt,name=lifecycle"`
	// File into which the container may write a short final message;
	// defaults to /dev/termination-log.
	TerminationMessagePath string `json:"terminationMessagePath,omitempty" protobuf:"bytes,13,opt,name=terminationMessagePath"`
	// Where the termination message comes from: File (the default) or
	// FallbackToLogsOnError.
	TerminationMessagePolicy TerminationMessagePolicy `json:"terminationMessagePolicy,omitempty" protobuf:"bytes,20,opt,name=terminationMessagePolicy"`
	// When the image is pulled: Always, IfNotPresent or Never; defaults as
	// for a regular container.
	ImagePullPolicy PullPolicy `json:"imagePullPolicy,omitempty" protobuf:"bytes,14,opt,name=imagePullPolicy"`
	// Security settings for this container, overriding the pod's.
	SecurityContext *SecurityContext `json:"securityContext,omitempty" protobuf:"bytes,15,opt,name=securityContext"`
	// Keep a stdin stream open for the container. Default false.
	Stdin bool `json:"stdin,omitempty" protobuf:"varint,16,opt,name=stdin"`
	// Close stdin when the first attached client disconnects. Default false.
	StdinOnce bool `json:"stdinOnce,omitempty" protobuf:"varint,17,opt,name=stdinOnce"`
	// Give the container a terminal; needs stdin. Default false.
	TTY bool `json:"tty,omitempty" protobuf:"varint,18,opt,name=tty"`
}

// ContainerPort is a port a container listens on.
type ContainerPort struct {
	// Name of the port that services can refer to: an IANA service name
	// (at most 15 characters), unique within the pod.
	Name string `json:"name,omitempty" protobuf:"bytes,1,opt,name=name"`
	// Port on the node that forwards to this one, 1 to 65535; must equal
	// containerPort with hostNetwork. Rarely needed.
	HostPort int32 `json:"hostPort,omitempty" protobuf:"varint,2,opt,name=hostPort"`
	// Port number on the pod's IP address, 1 to 65535. Required.
	ContainerPort int32 `json:"containerPort" protobuf:"varint,3,opt,name=containerPort"`
	// TCP (the default), UDP or SCTP.
	Protocol Protocol `json:"protocol,omitempty" protobuf:"bytes,4,opt,name=protocol" default:"TCP"`
	// Node address the host port binds to.
	HostIP string `json:"hostIP,omitempty" protobuf:"bytes,5,opt,name=hostIP"`
}

// Protocol is a port's transport protocol: TCP, UDP or SCTP.
type Protocol string

// The protocols.
const (
	ProtocolTCP  Protocol = "TCP"
	ProtocolUDP  Protocol = "UDP"
	ProtocolSCTP Protocol = "SCTP"
)

// PullPolicy says when the image is pulled: Always (before every start; the
// container fails if the pull does), IfNotPresent (only when missing from the
// node) or Never (use only a local image).
type PullPolicy string

// The pull policies.
const (
	PullAlways       PullPolicy = "Always"
	PullNever        PullPolicy = "Never"
	PullIfNotPresent PullPolicy = "IfNotPresent"
)

// TerminationMessagePolicy says where a container's termination message comes
// from: File (its terminationMessagePath) or FallbackToLogsOnError (the end of
// its log when the file is empty and it failed).
type TerminationMessagePolicy string

// The termination message policies.
const (
	TerminationMessageReadFile              TerminationMessagePolicy = "File"
	TerminationMessageFallbackToLogsOnError TerminationMessagePolicy = "FallbackToLogsOnError"
)

// ContainerRestartPolicy is the restart policy of one container: Always,
// OnFailure or Never, as for the pod.
type ContainerRestartPolicy string

// The container restart policies.
const (
	ContainerRestartPolicyAlways    ContainerRestartPolicy = "Always"
	ContainerRestartPolicyNever     ContainerRestartPolicy = "Never"
	ContainerRestartPolicyOnFailure ContainerRestartPolicy = "OnFailure"
)

// ContainerRestartRule is one rule deciding what happens when a container
// exits: if the exit matches, the action is taken.
type ContainerRestartRule struct {
	// What to do when the rule matches: Restart, or RestartAllContainers.
	// Required.
	Action ContainerRestartRuleAction `json:"action,omitempty" protobuf:"bytes,1,opt,name=action"`
	// Exit codes the rule matches.
	ExitCodes *ContainerRestartRuleOnExitCodes `json:"exitCodes,omitempty" protobuf:"bytes,2,opt,name=exitCodes"`
}

// ContainerRestartRuleAction is what a matching restart rule does: Restart
// restarts the container, RestartAllContainers restarts every container of the
// pod in place.
type ContainerRestartRuleAction string

// The restart rule actions.
const (
	ContainerRestartRuleActionRestart              ContainerRestartRuleAction = "Restart"
	ContainerRestartRuleActionRestartAllContainers ContainerRestartRuleAction = "RestartAllContainers"
)

// ContainerRestartRuleOnExitCodes matches a container's exit code against a
// set of values.
type ContainerRestartRuleOnExitCodes struct {
	// In matches an exit code in values, NotIn one outside them. Required.
	Operator ContainerRestartRuleOnExitCodesOperator `json:"operator,omitempty" protobuf:"bytes,1,opt,name=operator"`
	// The exit codes; a set of at most 255.
	Values []int32 `json:"values,omitempty" protobuf:"varint,2,rep,name=values" listType:"set"`
}

// ContainerRestartRuleOnExitCodesOperator relates an exit code to a set of
// values: In or NotIn.
type ContainerRestartRuleOnExitCodesOperator string

// The exit code operators.
const (
	ContainerRestartRuleOnExitCodesOpIn    ContainerRestartRuleOnExitCodesOperator = "In"
	ContainerRestartRuleOnExitCodesOpNotIn ContainerRestartRuleOnExitCodesOperator = "NotIn"
)
