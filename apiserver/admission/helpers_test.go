package admission

import (
	"context"
	"errors"
	"testing"

	"github.com/stretchr/testify/require"

	"kubeloop/api"
)

// resource looks a kind up in the builtin registry, as the apiserver does.
func resource(t *testing.T, group, kind string) *api.ResourceInfo {
	t.Helper()
	info, ok := api.Builtin().ForKind(group, kind)
	require.True(t, ok, "kind %s/%s not registered", group, kind)
	return info
}

// createAttrs is a create of obj in its own namespace.
func createAttrs(t *testing.T, group, kind string, obj api.Object) *Attributes {
	m := obj.GetObjectMeta()
	return &Attributes{Operation: Create, Resource: resource(t, group, kind),
		Namespace: m.Namespace, Name: m.Name, Object: obj}
}

func updateAttrs(t *testing.T, group, kind string, obj, old api.Object) *Attributes {
	a := createAttrs(t, group, kind, obj)
	a.Operation, a.OldObject = Update, old
	return a
}

// cause is the part of a StatusCause a test pins down.
type cause struct {
	Type  api.CauseType
	Field string
}

// requireInvalid asserts a 422 Invalid naming kind, with exactly the causes
// given (in order), and returns the causes for message checks.
func requireInvalid(t *testing.T, err error, kind string, want ...cause) []api.StatusCause {
	t.Helper()
	require.Error(t, err)
	var se *api.StatusError
	require.True(t, errors.As(err, &se), "want *api.StatusError, got %T: %v", err, err)
	require.EqualValues(t, 422, se.ErrStatus.Code)
	require.Equal(t, api.StatusReasonInvalid, se.ErrStatus.Reason)
	require.NotNil(t, se.ErrStatus.Details)
	require.Equal(t, kind, se.ErrStatus.Details.Kind)
	got := make([]cause, 0, len(se.ErrStatus.Details.Causes))
	for _, c := range se.ErrStatus.Details.Causes {
		got = append(got, cause{c.Type, c.Field})
	}
	require.Equal(t, want, got, "causes: %+v", se.ErrStatus.Details.Causes)
	return se.ErrStatus.Details.Causes
}

// defaulted runs the defaulting plugin on obj, so that validation tests
// start from what the chain would hand to validation.
func defaulted[T api.Object](t *testing.T, obj T) T {
	t.Helper()
	require.NoError(t, NewDefaulting().Admit(context.Background(), &Attributes{Operation: Create, Object: obj}))
	return obj
}

func ptr[T any](v T) *T { return &v }

func validPod() *api.Pod {
	return &api.Pod{
		ObjectMeta: api.ObjectMeta{Name: "web-1", Namespace: "ns1", Labels: map[string]string{"app": "web"}},
		Spec: api.PodSpec{Containers: []api.Container{{
			Name: "c1", Image: "nginx:1.27",
			Ports: []api.ContainerPort{{Name: "http", ContainerPort: 80}},
			Resources: api.ResourceRequirements{
				Requests: api.ResourceList{api.ResourceCPU: "100m"},
				Limits:   api.ResourceList{api.ResourceCPU: "1", api.ResourceMemory: "128Mi"},
			},
		}}},
	}
}

func validReplicaSet() *api.ReplicaSet {
	return &api.ReplicaSet{
		ObjectMeta: api.ObjectMeta{Name: "web", Namespace: "ns1"},
		Spec: api.ReplicaSetSpec{
			Replicas: ptr(int32(3)),
			Selector: &api.LabelSelector{MatchLabels: map[string]string{"app": "web"}},
			Template: api.PodTemplateSpec{
				ObjectMeta: api.ObjectMeta{Labels: map[string]string{"app": "web", "tier": "fe"}},
				Spec:       api.PodSpec{Containers: []api.Container{{Name: "c1", Image: "nginx"}}},
			},
		},
	}
}
