package admission

import (
	"context"
	"errors"
	"testing"

	"github.com/stretchr/testify/require"

	"kubeloop/api"
)

// recorder is a plugin that notes when it ran and can refuse.
type recorder struct {
	name   string
	log    *[]string
	refuse error
}

func (r recorder) Admit(_ context.Context, _ *Attributes) error {
	*r.log = append(*r.log, "admit:"+r.name)
	return r.refuse
}

func (r recorder) Validate(_ context.Context, _ *Attributes) error {
	*r.log = append(*r.log, "validate:"+r.name)
	return r.refuse
}

func TestChainRunsPluginsInOrderWithinEachPhase(t *testing.T) {
	var log []string
	c := NewChain(
		[]MutationInterface{recorder{name: "m1", log: &log}, recorder{name: "m2", log: &log}},
		[]ValidationInterface{recorder{name: "v1", log: &log}, recorder{name: "v2", log: &log}},
	)
	a := &Attributes{Operation: Create}
	require.NoError(t, c.Admit(context.Background(), a))
	require.NoError(t, c.Validate(context.Background(), a))
	require.Equal(t, []string{"admit:m1", "admit:m2", "validate:v1", "validate:v2"}, log)
}

func TestChainStopsAtFirstRefusal(t *testing.T) {
	var log []string
	no := errors.New("no")
	c := NewChain(
		[]MutationInterface{recorder{name: "m1", log: &log, refuse: no}, recorder{name: "m2", log: &log}},
		[]ValidationInterface{recorder{name: "v1", log: &log, refuse: no}, recorder{name: "v2", log: &log}},
	)
	a := &Attributes{Operation: Create}
	require.ErrorIs(t, c.Admit(context.Background(), a), no)
	require.ErrorIs(t, c.Validate(context.Background(), a), no)
	require.Equal(t, []string{"admit:m1", "validate:v1"}, log)
}

// A pod that leaves restartPolicy, dnsPolicy and pull policies out is only
// valid because defaulting runs first: validation alone requires them.
func TestValidationJudgesTheObjectTheDefaultChainDefaulted(t *testing.T) {
	ns := namespaces{"ns1": {ObjectMeta: api.ObjectMeta{Name: "ns1"}, Status: api.NamespaceStatus{Phase: api.NamespaceActive}}}
	pod := validPod()
	require.Empty(t, pod.Spec.RestartPolicy)

	err := NewValidation().Validate(context.Background(), createAttrs(t, "", "Pod", pod.DeepCopy()))
	requireInvalid(t, err, "Pod",
		cause{api.CauseTypeFieldValueRequired, "spec.containers[0].imagePullPolicy"},
		cause{api.CauseTypeFieldValueRequired, "spec.containers[0].terminationMessagePolicy"},
		cause{api.CauseTypeFieldValueRequired, "spec.containers[0].ports[0].protocol"},
		cause{api.CauseTypeFieldValueRequired, "spec.restartPolicy"},
		cause{api.CauseTypeFieldValueRequired, "spec.dnsPolicy"},
	)

	c := NewDefaultChain(ns)
	a := createAttrs(t, "", "Pod", pod)
	require.NoError(t, c.Admit(context.Background(), a))
	require.NoError(t, c.Validate(context.Background(), a))
	require.NoError(t, NewValidation().Validate(context.Background(), a))
	require.Equal(t, api.RestartPolicyAlways, pod.Spec.RestartPolicy)
}

func TestDefaultChainRefusesCreateInMissingNamespaceBeforeValidating(t *testing.T) {
	pod := validPod()
	pod.Spec.Containers = nil // invalid too, but the namespace check comes first
	err := NewDefaultChain(namespaces{}).Admit(context.Background(), createAttrs(t, "", "Pod", pod))
	require.True(t, api.IsNotFound(err), "got %v", err)
}
