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
