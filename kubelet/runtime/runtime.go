package runtime

import (
	"context"
	"time"
)

// Runtime is the container runtime as the kubelet sees it: a CRI-shaped
// interface of sandboxes (one per pod: its network identity) and the
// containers inside them. Every call is synchronous, as CRI calls are; the
// kubelet learns about changes it did not cause (a container exiting) only by
// listing, which is what the PLEG does.
type Runtime interface {
	// RunPodSandbox creates and starts a pod's sandbox and returns its ID.
	RunPodSandbox(ctx context.Context, cfg PodSandboxConfig) (string, error)
	// StopPodSandbox stops every container of the sandbox and releases its IP.
	StopPodSandbox(ctx context.Context, sandboxID string) error
	// RemovePodSandbox removes a sandbox and its containers.
	RemovePodSandbox(ctx context.Context, sandboxID string) error
	// CreateContainer creates (but does not start) a container in a sandbox.
	CreateContainer(ctx context.Context, sandboxID string, cfg ContainerConfig) (string, error)
	// StartContainer starts a created container; it may take a while.
	StartContainer(ctx context.Context, containerID string) error
	// StopContainer stops a running container, allowing it timeout to exit.
	StopContainer(ctx context.Context, containerID string, timeout time.Duration) error
	// RemoveContainer forgets a container that is not running.
	RemoveContainer(ctx context.Context, containerID string) error
	// ListPodSandbox lists the sandboxes that pass filter (nil: every one).
	ListPodSandbox(ctx context.Context, filter *PodSandboxFilter) ([]PodSandbox, error)
	// ListContainers lists the containers that pass filter (nil: every
	// one), with their state as of now.
	ListContainers(ctx context.Context, filter *ContainerFilter) ([]Container, error)
}

// PodSandboxMetadata names the pod a sandbox belongs to.
type PodSandboxMetadata struct {
	Name      string
	Namespace string
	UID       string
	Attempt   uint32
}

// PodSandboxConfig is what RunPodSandbox needs.
// PodSandboxFilter narrows ListPodSandbox. CRI filters by the pod UID
// label the kubelet puts on every sandbox (io.kubernetes.pod.uid); ours
// has the UID in the metadata.
type PodSandboxFilter struct {
	PodUID string
}

// ContainerFilter narrows ListContainers to one pod's containers, so that
// a pod's sync reads only its own (CRI: ContainerFilter, by the same
// label).
type ContainerFilter struct {
	PodUID string
}

type PodSandboxConfig struct {
	Metadata    PodSandboxMetadata
	Annotations map[string]string
}

// PodSandboxState is Ready while the sandbox runs.
type PodSandboxState string

// The sandbox states (CRI: SANDBOX_READY, SANDBOX_NOTREADY).
const (
	SandboxReady    PodSandboxState = "SANDBOX_READY"
	SandboxNotReady PodSandboxState = "SANDBOX_NOTREADY"
)

// PodSandbox is one sandbox as listed.
type PodSandbox struct {
	ID        string
	Metadata  PodSandboxMetadata
	State     PodSandboxState
	CreatedAt time.Time
	// IP is the pod's address; empty once the sandbox is stopped.
	IP string
}

// ContainerConfig is what CreateContainer needs. Annotations carry the pod's
// annotations: the fake runtime reads its failure knobs from them. Command
// and Args are the container's; the fake runs the tiny shell subset of
// shell.go with them. CRI passes the image's entrypoint and cmd already
// merged in; we have no images, so a container without a command runs its
// args as the command line.
type ContainerConfig struct {
	Name        string
	Image       string
	Command     []string
	Args        []string
	Attempt     uint32
	Annotations map[string]string
}

// ContainerState is the CRI's container state.
type ContainerState string

// The container states (CRI: CONTAINER_CREATED, _RUNNING, _EXITED).
const (
	ContainerCreated ContainerState = "CONTAINER_CREATED"
	ContainerRunning ContainerState = "CONTAINER_RUNNING"
	ContainerExited  ContainerState = "CONTAINER_EXITED"
)

// Container is one container as listed: the CRI's Container and
// ContainerStatus folded together.
type Container struct {
	ID        string
	SandboxID string
	// PodUID is the UID of the sandbox's pod, so a lister can group
	// containers by pod without a second lookup.
	PodUID     string
	Name       string
	Image      string
	ImageRef   string
	Attempt    uint32
	State      ContainerState
	CreatedAt  time.Time
	StartedAt  time.Time
	FinishedAt time.Time
	ExitCode   int32
	Reason     string
}
