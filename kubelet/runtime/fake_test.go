package runtime

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

func newSandbox(t *testing.T, f *Fake, uid string) string {
	t.Helper()
	id, err := f.RunPodSandbox(context.Background(), PodSandboxConfig{Metadata: PodSandboxMetadata{Name: "p", Namespace: "ns", UID: uid}})
	require.NoError(t, err)
	return id
}

func containerByID(t *testing.T, f *Fake, id string) Container {
	t.Helper()
	cs, err := f.ListContainers(context.Background(), nil)
	require.NoError(t, err)
	for _, c := range cs {
		if c.ID == id {
			return c
		}
	}
	t.Fatalf("container %s not listed", id)
	return Container{}
}

func TestFailAfterExitsWithCodeOneWhenDue(t *testing.T) {
	ctx := context.Background()
	f := NewFake(FakeConfig{IPPrefix: "10.1.2."})
	sb := newSandbox(t, f, "u1")
	id, err := f.CreateContainer(ctx, sb, ContainerConfig{Name: "c", Image: "img",
		Annotations: map[string]string{AnnotationFailAfter: "50ms"}})
	require.NoError(t, err)
	require.Equal(t, ContainerCreated, containerByID(t, f, id).State)
	require.NoError(t, f.StartContainer(ctx, id))
	require.Equal(t, ContainerRunning, containerByID(t, f, id).State)

	require.Eventually(t, func() bool { return containerByID(t, f, id).State == ContainerExited }, 10*time.Second, 5*time.Millisecond)
	c := containerByID(t, f, id)
	require.Equal(t, int32(1), c.ExitCode)
	require.Equal(t, "Error", c.Reason)
	require.Equal(t, c.StartedAt.Add(50*time.Millisecond), c.FinishedAt, "the exit is dated when it was due")
}

func TestExitCodeAnnotationExitsAtOnce(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		code   string
		want   int32
		reason string
	}{{"0", 0, "Completed"}, {"2", 2, "Error"}} {
		f := NewFake(FakeConfig{})
		sb := newSandbox(t, f, "u1")
		id, err := f.CreateContainer(ctx, sb, ContainerConfig{Name: "c", Annotations: map[string]string{AnnotationExitCode: tc.code}})
		require.NoError(t, err)
		require.NoError(t, f.StartContainer(ctx, id))
		c := containerByID(t, f, id)
		require.Equal(t, ContainerExited, c.State, tc.code)
		require.Equal(t, tc.want, c.ExitCode)
		require.Equal(t, tc.reason, c.Reason)
	}
}

func TestBadAnnotationFailsCreate(t *testing.T) {
	f := NewFake(FakeConfig{})
	sb := newSandbox(t, f, "u1")
	_, err := f.CreateContainer(context.Background(), sb, ContainerConfig{Name: "c", Annotations: map[string]string{AnnotationFailAfter: "soon"}})
	require.ErrorContains(t, err, AnnotationFailAfter)
}

func TestSandboxIPsAreUniqueAndReleasedOnStop(t *testing.T) {
	ctx := context.Background()
	f := NewFake(FakeConfig{IPPrefix: "10.9.9."})
	seen := map[string]bool{}
	var first string
	for i := range 253 {
		id := newSandbox(t, f, "u")
		if i == 0 {
			first = id
		}
		sbs, err := f.ListPodSandbox(ctx, nil)
		require.NoError(t, err)
		for _, sb := range sbs {
			if sb.ID == id {
				require.False(t, seen[sb.IP], "IP %s handed out twice", sb.IP)
				seen[sb.IP] = true
			}
		}
	}
	_, err := f.RunPodSandbox(ctx, PodSandboxConfig{})
	require.Error(t, err, "the /24 is full")
	require.NoError(t, f.StopPodSandbox(ctx, first))
	_, err = f.RunPodSandbox(ctx, PodSandboxConfig{})
	require.NoError(t, err, "a stopped sandbox gives its IP back")
}

func TestStartDelayIsHonouredAndCancellable(t *testing.T) {
	ctx := context.Background()
	f := NewFake(FakeConfig{StartDelay: 100 * time.Millisecond})
	sb := newSandbox(t, f, "u1")
	id, err := f.CreateContainer(ctx, sb, ContainerConfig{Name: "c"})
	require.NoError(t, err)
	begin := time.Now()
	require.NoError(t, f.StartContainer(ctx, id))
	require.GreaterOrEqual(t, time.Since(begin), 100*time.Millisecond)

	id2, err := f.CreateContainer(ctx, sb, ContainerConfig{Name: "d"})
	require.NoError(t, err)
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	require.ErrorIs(t, f.StartContainer(cctx, id2), context.Canceled)
	require.Equal(t, ContainerCreated, containerByID(t, f, id2).State)
}

func TestStopAndRemoveSandboxForgetContainers(t *testing.T) {
	ctx := context.Background()
	f := NewFake(FakeConfig{})
	sb := newSandbox(t, f, "u1")
	id, err := f.CreateContainer(ctx, sb, ContainerConfig{Name: "c"})
	require.NoError(t, err)
	require.NoError(t, f.StartContainer(ctx, id))
	require.Error(t, f.RemoveContainer(ctx, id), "a running container cannot be removed")
	require.NoError(t, f.StopContainer(ctx, id, time.Second))
	require.Equal(t, ContainerExited, containerByID(t, f, id).State)
	require.NoError(t, f.RemovePodSandbox(ctx, sb))
	cs, _ := f.ListContainers(ctx, nil)
	sbs, _ := f.ListPodSandbox(ctx, nil)
	require.Empty(t, cs)
	require.Empty(t, sbs)
}

func TestListsFilteredByPodSeeOnlyThatPod(t *testing.T) {
	ctx := context.Background()
	f := NewFake(FakeConfig{IPPrefix: "10.1.4."})
	ids := map[string][]string{}
	for _, uid := range []string{"u1", "u2"} {
		sb := newSandbox(t, f, uid)
		for _, name := range []string{"a", "b"} {
			id, err := f.CreateContainer(ctx, sb, ContainerConfig{Name: name, Image: "img"})
			require.NoError(t, err)
			ids[uid] = append(ids[uid], id)
		}
	}
	cs, err := f.ListContainers(ctx, &ContainerFilter{PodUID: "u1"})
	require.NoError(t, err)
	var got []string
	for _, c := range cs {
		require.Equal(t, "u1", c.PodUID)
		got = append(got, c.ID)
	}
	require.ElementsMatch(t, ids["u1"], got)
	sbs, err := f.ListPodSandbox(ctx, &PodSandboxFilter{PodUID: "u2"})
	require.NoError(t, err)
	require.Len(t, sbs, 1)
	require.Equal(t, "u2", sbs[0].Metadata.UID)

	// Removing a container or a sandbox takes it out of the index too.
	require.NoError(t, f.RemoveContainer(ctx, ids["u1"][0]))
	cs, _ = f.ListContainers(ctx, &ContainerFilter{PodUID: "u1"})
	require.Len(t, cs, 1)
	require.NoError(t, f.RemovePodSandbox(ctx, sbs[0].ID))
	cs, _ = f.ListContainers(ctx, &ContainerFilter{PodUID: "u2"})
	require.Empty(t, cs)
	sbs, _ = f.ListPodSandbox(ctx, &PodSandboxFilter{PodUID: "u2"})
	require.Empty(t, sbs)
	all, _ := f.ListContainers(ctx, nil)
	require.Len(t, all, 1)
}
