package kubelet

import (
	"testing"

	"github.com/stretchr/testify/require"

	"kubeloop/api"
)

func TestStatusWriteStartsFromTheNewerCopyOfThePod(t *testing.T) {
	pod := func(uid, rv string) *api.Pod {
		p := &api.Pod{}
		p.UID, p.ResourceVersion = uid, rv
		return p
	}
	informer := pod("u1", "99")
	for _, tc := range []struct {
		name    string
		written *api.Pod
		want    *api.Pod
	}{
		{"nothing written yet", nil, informer},
		// Numeric, not lexical: "100" is newer than "99".
		{"the write is newer than the informer", pod("u1", "100"), nil},
		{"the informer caught up", pod("u1", "98"), informer},
		{"another pod of the same name", pod("u2", "100"), informer},
		{"an unparsable version", pod("u1", "x"), informer},
	} {
		t.Run(tc.name, func(t *testing.T) {
			want := tc.want
			if want == nil {
				want = tc.written
			}
			require.Same(t, want, newerPod(informer, tc.written))
		})
	}
}

func TestWorkerLetsGoOfTheWrittenPodOnceTheInformerHasIt(t *testing.T) {
	pod := func(rv string) *api.Pod {
		p := &api.Pod{Status: api.PodStatus{Phase: api.PodRunning}}
		p.UID, p.ResourceVersion = "u1", rv
		return p
	}
	var kl Kubelet
	informer := pod("100")

	w := &podWorker{written: pod("101")}
	require.NoError(t, kl.setPodStatus(t.Context(), informer, w, informer.Status))
	require.NotNil(t, w.written, "the informer has not delivered the write yet: its copy is kept")

	w.written = pod("100")
	require.NoError(t, kl.setPodStatus(t.Context(), informer, w, informer.Status))
	require.Nil(t, w.written, "the informer's copy is as new: the written one is let go")
}
