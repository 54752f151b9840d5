package runtime

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"slices"
	"strconv"
	"sync"
	"time"
)

// Annotations on a pod that make the fake runtime's containers misbehave.
const (
	// AnnotationFailAfter ("3s") makes every container of the pod exit with
	// code 1 that long after it starts.
	AnnotationFailAfter = "kubeloop.dev/fail-after"
	// AnnotationExitCode ("0", "2") makes every container exit at once with
	// that code: 0 completes, anything else fails.
	AnnotationExitCode = "kubeloop.dev/exit-code"
)

// FakeConfig tunes a Fake runtime.
type FakeConfig struct {
	// StartDelay is how long StartContainer takes, standing in for an image
	// pull and a process start.
	StartDelay time.Duration
	// IPPrefix is the first three octets of the pod addresses, with the
	// trailing dot ("10.244.3."): a /24 per node, as a node's podCIDR.
	IPPrefix string
}

// Fake is an in-memory Runtime: no processes, just records whose state
// moves with the clock. A running container with an exit planned (from the
// annotations) is Exited as soon as a List looks after its planned time, so
// the fake needs no goroutines or timers per container: time itself moves it,
// and the kubelet sees it the way it sees a real exit, by relisting.
type Fake struct {
	cfg FakeConfig

	mu sync.Mutex
	// nextID numbers sandboxes and containers; IDs are never reused.
	nextID     uint64
	sandboxes  map[string]*PodSandbox
	containers map[string]*fakeContainer
	// byPod indexes sandbox and container IDs by pod UID, so a filtered
	// list costs the pod's own records, not the node's. A slice, not a
	// set: a pod has a handful, and a map per pod cost a thousand nodes'
	// kubelets 9 MB.
	byPod map[string][]string
	// imageRefs remembers each image's ImageRef, held once by every
	// container of the image.
	imageRefs map[string]string
	// usedIPs holds the host octet of every address a ready sandbox holds.
	usedIPs map[int]bool
	nextIP  int
	// revision counts the calls that may have changed what a list shows
	// (fake_revision.go).
	revision uint64
}

// fakeContainer is a container and the exit planned for it.
type fakeContainer struct {
	Container
	// exitAfter, when set, is how long after start the container exits,
	// with exitCode.
	exitAfter *time.Duration
	exitCode  int32
}

// NewFake returns an empty fake runtime.
func NewFake(cfg FakeConfig) *Fake {
	if cfg.IPPrefix == "" {
		cfg.IPPrefix = "10.244.0."
	}
	return &Fake{
		cfg:        cfg,
		sandboxes:  map[string]*PodSandbox{},
		containers: map[string]*fakeContainer{},
		byPod:      map[string][]string{},
		imageRefs:  map[string]string{},
		usedIPs:    map[int]bool{},
		nextIP:     2,
	}
}

var _ Runtime = (*Fake)(nil)

func (f *Fake) newID() string {
	f.nextID++
	sum := sha256.Sum256([]byte(strconv.FormatUint(f.nextID, 10) + f.cfg.IPPrefix))
	return hex.EncodeToString(sum[:16]) // 32 hex digits, and no longer string behind them
}

// allocateIP hands out the next free host address of the /24 (.2 to .254).
func (f *Fake) allocateIP() (string, error) {
	for range 253 {
		n := f.nextIP
		f.nextIP++
		if f.nextIP > 254 {
			f.nextIP = 2
		}
		if !f.usedIPs[n] {
			f.usedIPs[n] = true
			return f.cfg.IPPrefix + strconv.Itoa(n), nil
		}
	}
	return "", fmt.Errorf("fake runtime: no free pod IP in %s0/24", f.cfg.IPPrefix)
}

func (f *Fake) releaseIP(ip string) {
	if n, err := strconv.Atoi(ip[len(f.cfg.IPPrefix):]); err == nil && len(ip) > len(f.cfg.IPPrefix) {
		delete(f.usedIPs, n)
	}
}

// RunPodSandbox creates a ready sandbox with a fresh IP.
func (f *Fake) RunPodSandbox(_ context.Context, cfg PodSandboxConfig) (string, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.revision++ // fake_revision.go
	ip, err := f.allocateIP()
	if err != nil {
		return "", err
	}
	id := f.newID()
	f.sandboxes[id] = &PodSandbox{ID: id, Metadata: cfg.Metadata, State: SandboxReady, CreatedAt: time.Now(), IP: ip}
	f.indexLocked(cfg.Metadata.UID, id)
	return id, nil
}

// StopPodSandbox stops the sandbox's containers and releases its IP.
func (f *Fake) StopPodSandbox(_ context.Context, sandboxID string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.revision++ // fake_revision.go
	sb, ok := f.sandboxes[sandboxID]
	if !ok {
		return nil // CRI: stopping a missing sandbox is not an error
	}
	now := time.Now()
	for _, id := range f.byPod[sb.Metadata.UID] {
		if c, ok := f.containers[id]; ok && c.SandboxID == sandboxID {
			f.stopLocked(c, now)
		}
	}
	if sb.State == SandboxReady {
		f.releaseIP(sb.IP)
		sb.State, sb.IP = SandboxNotReady, ""
	}
	return nil
}

// RemovePodSandbox forgets the sandbox and its containers.
func (f *Fake) RemovePodSandbox(ctx context.Context, sandboxID string) error {
	if err := f.StopPodSandbox(ctx, sandboxID); err != nil {
		return err
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	f.revision++ // fake_revision.go
	sb, ok := f.sandboxes[sandboxID]
	if !ok {
		return nil
	}
	uid := sb.Metadata.UID
	for _, id := range slices.Clone(f.byPod[uid]) { // unindexLocked changes it
		if c, ok := f.containers[id]; ok && c.SandboxID == sandboxID {
			delete(f.containers, id)
			f.unindexLocked(uid, id)
		}
	}
	delete(f.sandboxes, sandboxID)
	f.unindexLocked(uid, sandboxID)
	return nil
}

// CreateContainer records a created container and how its process will
// end: as the failure annotations say, else as its command says (shell.go),
// else never.
func (f *Fake) CreateContainer(_ context.Context, sandboxID string, cfg ContainerConfig) (string, error) {
	exitAfter, exitCode, err := plannedExit(cfg)
	if err != nil {
		return "", err
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	f.revision++ // fake_revision.go
	sb, ok := f.sandboxes[sandboxID]
	if !ok || sb.State != SandboxReady {
		return "", fmt.Errorf("fake runtime: sandbox %s is not ready", sandboxID)
	}
	id := f.newID()
	ref, ok := f.imageRefs[cfg.Image]
	if !ok {
		sum := sha256.Sum256([]byte(cfg.Image))
		ref = cfg.Image + "@sha256:" + hex.EncodeToString(sum[:])
		f.imageRefs[cfg.Image] = ref
	}
	f.containers[id] = &fakeContainer{
		Container: Container{
			ID: id, SandboxID: sandboxID, PodUID: sb.Metadata.UID, Name: cfg.Name, Image: cfg.Image,
			ImageRef: ref,
			Attempt:  cfg.Attempt, State: ContainerCreated, CreatedAt: time.Now(),
		},
		exitAfter: exitAfter,
		exitCode:  exitCode,
	}
	f.indexLocked(sb.Metadata.UID, id)
	return id, nil
}

// plannedExit reads the failure annotations (fail-after exits with code 1
// after a while, exit-code exits at once with the given code), then the
// container's command and args.
func plannedExit(cfg ContainerConfig) (*time.Duration, int32, error) {
	annotations := cfg.Annotations
	if v, ok := annotations[AnnotationExitCode]; ok {
		code, err := strconv.ParseInt(v, 10, 32)
		if err != nil {
			return nil, 0, fmt.Errorf("fake runtime: annotation %s=%q: %w", AnnotationExitCode, v, err)
		}
		zero := time.Duration(0)
		return &zero, int32(code), nil
	}
	if v, ok := annotations[AnnotationFailAfter]; ok {
		d, err := time.ParseDuration(v)
		if err != nil {
			return nil, 0, fmt.Errorf("fake runtime: annotation %s=%q: %w", AnnotationFailAfter, v, err)
		}
		return &d, 1, nil
	}
	argv := append(append([]string(nil), cfg.Command...), cfg.Args...)
	if plan, ok := planFromCommand(argv); ok {
		return &plan.after, plan.code, nil
	}
	return nil, 0, nil
}

// StartContainer waits StartDelay, then marks the container running.
func (f *Fake) StartContainer(ctx context.Context, containerID string) error {
	if f.cfg.StartDelay > 0 {
		t := time.NewTimer(f.cfg.StartDelay)
		select {
		case <-ctx.Done():
			t.Stop()
			return ctx.Err()
		case <-t.C:
		}
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	f.revision++ // fake_revision.go
	c, ok := f.containers[containerID]
	if !ok {
		return fmt.Errorf("fake runtime: container %s not found", containerID)
	}
	if c.State != ContainerCreated {
		return fmt.Errorf("fake runtime: container %s is %s, not created", containerID, c.State)
	}
	c.State, c.StartedAt = ContainerRunning, time.Now()
	return nil
}

// StopContainer stops a container at once: the fake's processes always
// honour SIGTERM, so they exit with 0 well within any grace period.
func (f *Fake) StopContainer(_ context.Context, containerID string, _ time.Duration) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.revision++ // fake_revision.go
	if c, ok := f.containers[containerID]; ok {
		f.stopLocked(c, time.Now())
	}
	return nil
}

func (f *Fake) stopLocked(c *fakeContainer, now time.Time) {
	f.advanceLocked(c, now)
	switch c.State {
	case ContainerRunning:
		c.State, c.FinishedAt, c.ExitCode, c.Reason = ContainerExited, now, 0, "Completed"
	case ContainerCreated:
		c.State, c.FinishedAt, c.ExitCode, c.Reason = ContainerExited, now, 0, "Completed"
		c.StartedAt = now
	}
}

// RemoveContainer forgets a container; a running one must be stopped first.
func (f *Fake) RemoveContainer(_ context.Context, containerID string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.revision++ // fake_revision.go
	c, ok := f.containers[containerID]
	if !ok {
		return nil
	}
	f.advanceLocked(c, time.Now())
	if c.State == ContainerRunning {
		return fmt.Errorf("fake runtime: container %s is running", containerID)
	}
	delete(f.containers, containerID)
	f.unindexLocked(c.PodUID, containerID)
	return nil
}

// ListPodSandbox returns copies of the sandboxes that pass filter.
func (f *Fake) ListPodSandbox(_ context.Context, filter *PodSandboxFilter) ([]PodSandbox, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if filter != nil {
		var out []PodSandbox
		for _, id := range f.byPod[filter.PodUID] {
			if sb, ok := f.sandboxes[id]; ok {
				out = append(out, *sb)
			}
		}
		return out, nil
	}
	out := make([]PodSandbox, 0, len(f.sandboxes))
	for _, sb := range f.sandboxes {
		out = append(out, *sb)
	}
	return out, nil
}

// ListContainers returns copies of the containers that pass filter, after
// letting any planned exit that is due happen.
func (f *Fake) ListContainers(_ context.Context, filter *ContainerFilter) ([]Container, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	now := time.Now()
	if filter != nil {
		var out []Container
		for _, id := range f.byPod[filter.PodUID] {
			if c, ok := f.containers[id]; ok {
				f.advanceLocked(c, now)
				out = append(out, c.Container)
			}
		}
		return out, nil
	}
	out := make([]Container, 0, len(f.containers))
	for _, c := range f.containers {
		f.advanceLocked(c, now)
		out = append(out, c.Container)
	}
	return out, nil
}

func (f *Fake) indexLocked(podUID, id string) {
	f.byPod[podUID] = append(f.byPod[podUID], id)
}

func (f *Fake) unindexLocked(podUID, id string) {
	ids := slices.DeleteFunc(f.byPod[podUID], func(x string) bool { return x == id })
	if len(ids) == 0 {
		delete(f.byPod, podUID)
		return
	}
	f.byPod[podUID] = ids
}

// advanceLocked applies a planned exit whose time has come. The exit is
// dated when it was due, not when it was noticed.
func (f *Fake) advanceLocked(c *fakeContainer, now time.Time) {
	if c.State != ContainerRunning || c.exitAfter == nil {
		return
	}
	due := c.StartedAt.Add(*c.exitAfter)
	if now.Before(due) {
		return
	}
	c.State, c.FinishedAt, c.ExitCode = ContainerExited, due, c.exitCode
	f.revision++ // fake_revision.go: an exit seen by any list is a change
	c.Reason = "Error"
	if c.exitCode == 0 {
		c.Reason = "Completed"
	}
}
