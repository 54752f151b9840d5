package watchcache

import (
	"testing"

	"github.com/stretchr/testify/require"

	"kubeloop/api"
)

func TestFieldSetMatchesAsTheMapOfObjectFields(t *testing.T) {
	info, _ := api.Builtin().ForResource("", "pods")
	running := nodePod("p", "node-1")
	running.Status.Phase = api.PodRunning
	pending := nodePod("q", "")
	selectors := []string{"", "spec.nodeName=node-1", "spec.nodeName=", "spec.nodeName!=",
		"status.phase!=Running,spec.nodeName=node-1", "metadata.name=p,metadata.namespace=ns",
		"status.podIPs=", "status.podIPs!=x", "spec.hostNetwork=false"}
	var names fieldNames
	for _, obj := range []*api.Pod{running, pending} {
		set := names.newFieldSet(info, obj)
		for _, s := range selectors {
			sel, err := api.ParseFieldSelector(s)
			require.NoError(t, err, s)
			require.Equal(t, sel.Matches(info.ObjectFields(obj)), set.matches(sel), "%s on %s", s, obj.Name)
		}
		require.Equal(t, obj.Spec.NodeName, set.get("spec.nodeName"))
		require.Equal(t, "", set.get("no.such.field"), "an absent field reads as empty")
	}
	a, b := names.newFieldSet(info, running), names.newFieldSet(info, pending)
	require.Same(t, &a.names[0], &b.names[0], "sets of one kind share their names")
}
