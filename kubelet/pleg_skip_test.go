package kubelet

import (
	"context"
	"log/slog"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"kubeloop/kubelet/runtime"
)

// countingRuntime counts full sandbox lists; the embedded *Fake keeps its
// Revision method.
type countingRuntime struct {
	*runtime.Fake
	lists int
}

func (c *countingRuntime) ListPodSandbox(ctx context.Context, f *runtime.PodSandboxFilter) ([]runtime.PodSandbox, error) {
	c.lists++
	return c.Fake.ListPodSandbox(ctx, f)
}

// An idle runtime is not listed again; a change made through the runtime,
// and a planned exit that falls due with time alone, are both found.
func TestPLEGSkipsRelistOnlyWhileNothingCanHaveChanged(t *testing.T) {
	ctx := context.Background()
	rt := &countingRuntime{Fake: runtime.NewFake(runtime.FakeConfig{})}
	var events []string
	g := newPLEG(rt, time.Hour, func(ev podLifecycleEvent) { events = append(events, ev.name) }, slog.Default())

	sb, err := rt.RunPodSandbox(ctx, runtime.PodSandboxConfig{Metadata: runtime.PodSandboxMetadata{Name: "p", Namespace: "ns", UID: "u1"}})
	require.NoError(t, err)
	g.relist(ctx)
	require.Equal(t, []string{"p"}, events)
	g.relist(ctx)
	g.relist(ctx)
	require.Equal(t, 1, rt.lists, "nothing changed: no relist")

	c, err := rt.CreateContainer(ctx, sb, runtime.ContainerConfig{Name: "c", Image: "i",
		Annotations: map[string]string{runtime.AnnotationFailAfter: "50ms"}})
	require.NoError(t, err)
	require.NoError(t, rt.StartContainer(ctx, c))
	g.relist(ctx)
	require.Equal(t, []string{"p", "p"}, events, "a started container is a change")
	// The planned exit changes the state with time alone: the PLEG keeps
	// listing until it has happened, then stops again.
	require.Eventually(t, func() bool { g.relist(ctx); return len(events) == 3 }, 10*time.Second, 10*time.Millisecond)
	// The exit happened during that relist's own list, after it read the
	// revision: one more relist, then none.
	g.relist(ctx)
	lists := rt.lists
	g.relist(ctx)
	g.relist(ctx)
	require.Equal(t, lists, rt.lists, "exited: nothing is pending any more")
	require.Len(t, events, 3, "the extra relist found nothing new")
}
