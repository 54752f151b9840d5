package informers

import (
	"runtime"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"kubeloop/api"
)

func versionOf(uid, rv string) *api.Pod {
	return &api.Pod{TypeMeta: api.TypeMeta{APIVersion: "v1", Kind: "Pod"},
		ObjectMeta: api.ObjectMeta{Namespace: "ns", Name: "p", UID: uid, ResourceVersion: rv,
			ManagedFields: []api.ManagedFieldsEntry{{Manager: "kubelet"}}}}
}

func TestSharedObjectsGiveEveryInformerTheFirstCopyOfAVersion(t *testing.T) {
	s := NewSharedObjects()
	first, err := s.Transform(versionOf("u1", "5"))
	require.NoError(t, err)
	second, err := s.Transform(versionOf("u1", "5"))
	require.NoError(t, err)
	require.Same(t, first, second, "the same version decoded twice is held once")
	require.Nil(t, second.(*api.Pod).ManagedFields, "trimmed, as every component's cache is")

	newer, _ := s.Transform(versionOf("u1", "6"))
	require.NotSame(t, first, newer, "another version is another object")
	otherPod, _ := s.Transform(versionOf("u2", "5"))
	require.NotSame(t, first, otherPod)

	again, _ := s.Transform(first)
	require.Same(t, first, again, "a relist passes cached objects through again")
	runtime.KeepAlive(first)
}

func TestNilSharedObjectsOnlyTrim(t *testing.T) {
	var s *SharedObjects
	a, _ := s.Transform(versionOf("u1", "5"))
	b, _ := s.Transform(versionOf("u1", "5"))
	require.NotSame(t, a, b)
	require.Nil(t, a.(*api.Pod).ManagedFields)
	key, err := s.Transform("tombstone key")
	require.NoError(t, err)
	require.Equal(t, "tombstone key", key)
}

func TestSharedObjectsForgetVersionsNoCacheHolds(t *testing.T) {
	s := NewSharedObjects()
	_, _ = s.Transform(versionOf("u1", "5")) // held by nobody
	require.Eventually(t, func() bool {
		runtime.GC()
		s.mu.Lock()
		defer s.mu.Unlock()
		return len(s.pods) == 0
	}, 10*time.Second, 10*time.Millisecond, "a collected version leaves the table")
}

func TestSharedObjectsShareEqualPartsBetweenPods(t *testing.T) {
	s := NewSharedObjects()
	a, b := versionOf("u1", "5"), versionOf("u2", "6")
	a.Labels, b.Labels = map[string]string{"app": "web"}, map[string]string{"app": "web"}
	b.Name = "q"
	want := b.DeepCopy()
	want.ManagedFields = nil
	first, _ := s.Transform(a)
	second, _ := s.Transform(b)
	require.Equal(t, want, second, "sharing never changes what the pod says")
	first.(*api.Pod).Labels["probe"] = "x" // only to observe the aliasing
	require.Equal(t, "x", second.(*api.Pod).Labels["probe"], "equal labels are held once")
}

func TestSharedObjectsKeepApartTwoStatesAtOneVersion(t *testing.T) {
	s := NewSharedObjects()
	current := versionOf("u1", "7")
	current.Spec.NodeName = "node-2"
	leftSelector := versionOf("u1", "7") // the old state a selector's watch sends as DELETED at 7
	leftSelector.Spec.NodeName = "node-1"
	a, _ := s.Transform(current)
	b, _ := s.Transform(leftSelector)
	require.NotSame(t, a, b)
	require.Equal(t, "node-1", b.(*api.Pod).Spec.NodeName, "each informer keeps the state its watch sent")
	runtime.KeepAlive(a)
}
