package admission

import (
	"context"
	"errors"
	"testing"

	"github.com/stretchr/testify/require"

	"kubeloop/api"
)

// namespaces is an in-memory NamespaceGetter: the lookup NamespaceLifecycle
// depends on, without a store. A nil entry makes the lookup fail.
type namespaces map[string]*api.Namespace

func (n namespaces) GetNamespace(_ context.Context, name string) (*api.Namespace, error) {
	ns, ok := n[name]
	if !ok {
		return nil, api.NewNotFound(api.GroupResource{Resource: "namespaces"}, name)
	}
	if ns == nil {
		return nil, errors.New("storage unavailable")
	}
	return ns.DeepCopy(), nil
}

func lifecycleNamespaces() namespaces {
	deleting := api.Now()
	return namespaces{
		"active":      {ObjectMeta: api.ObjectMeta{Name: "active"}, Status: api.NamespaceStatus{Phase: api.NamespaceActive}},
		"terminating": {ObjectMeta: api.ObjectMeta{Name: "terminating"}, Status: api.NamespaceStatus{Phase: api.NamespaceTerminating}},
		"deleted":     {ObjectMeta: api.ObjectMeta{Name: "deleted", DeletionTimestamp: &deleting}, Status: api.NamespaceStatus{Phase: api.NamespaceActive}},
		"broken":      nil,
	}
}

func configMapIn(ns string) *api.ConfigMap {
	return &api.ConfigMap{ObjectMeta: api.ObjectMeta{Name: "cm1", Namespace: ns}}
}

func TestNamespaceLifecycleAllowsCreateInActiveNamespace(t *testing.T) {
	l := NewNamespaceLifecycle(lifecycleNamespaces())
	require.NoError(t, l.Admit(context.Background(), createAttrs(t, "", "ConfigMap", configMapIn("active"))))
}

func TestNamespaceLifecycleRefusesCreateInMissingNamespaceWithNotFound(t *testing.T) {
	l := NewNamespaceLifecycle(lifecycleNamespaces())
	err := l.Admit(context.Background(), createAttrs(t, "", "ConfigMap", configMapIn("nope")))
	require.True(t, api.IsNotFound(err), "got %v", err)
	require.EqualValues(t, 404, api.CodeForError(err))
	require.EqualError(t, err, `namespaces "nope" not found`)
}

func TestNamespaceLifecycleRefusesCreateInTerminatingNamespace(t *testing.T) {
	for _, ns := range []string{"terminating", "deleted"} {
		t.Run(ns, func(t *testing.T) {
			l := NewNamespaceLifecycle(lifecycleNamespaces())
			err := l.Admit(context.Background(), createAttrs(t, "", "ConfigMap", configMapIn(ns)))
			require.True(t, IsForbidden(err), "got %v", err)
			require.EqualValues(t, 403, api.CodeForError(err))
			require.EqualError(t, err, `configmaps "cm1" is forbidden: unable to create new content in namespace `+ns+` because it is being terminated`)
			var se *api.StatusError
			require.ErrorAs(t, err, &se)
			require.Equal(t, []api.StatusCause{{Type: CauseTypeNamespaceTerminating,
				Message: "namespace " + ns + " is being terminated", Field: "metadata.namespace"}}, se.ErrStatus.Details.Causes)
		})
	}
}

func TestNamespaceLifecycleNamesUnknownWhenNameIsStillToBeGenerated(t *testing.T) {
	cm := configMapIn("terminating")
	cm.Name, cm.GenerateName = "", "cm-"
	err := NewNamespaceLifecycle(lifecycleNamespaces()).Admit(context.Background(), createAttrs(t, "", "ConfigMap", cm))
	require.ErrorContains(t, err, `configmaps "Unknown" is forbidden`)
}

func TestNamespaceLifecycleAllowsUpdatesAndDeletesInTerminatingNamespace(t *testing.T) {
	l := NewNamespaceLifecycle(lifecycleNamespaces())
	cm := configMapIn("terminating")
	require.NoError(t, l.Admit(context.Background(), updateAttrs(t, "", "ConfigMap", cm, cm.DeepCopy())))
	del := createAttrs(t, "", "ConfigMap", cm)
	del.Operation, del.Object = Delete, nil
	require.NoError(t, l.Admit(context.Background(), del))
	// Deletes in a namespace that is already gone are allowed too.
	del.Namespace = "nope"
	require.NoError(t, l.Admit(context.Background(), del))
}

func TestNamespaceLifecycleIgnoresNamespacesAndClusterScopedKinds(t *testing.T) {
	// The getter would fail for every name: it must not be consulted.
	l := NewNamespaceLifecycle(namespaces{})
	ns := &api.Namespace{ObjectMeta: api.ObjectMeta{Name: "new"}}
	require.NoError(t, l.Admit(context.Background(), createAttrs(t, "", "Namespace", ns)))
	node := &api.Node{ObjectMeta: api.ObjectMeta{Name: "n1"}}
	require.NoError(t, l.Admit(context.Background(), createAttrs(t, "", "Node", node)))
}

func TestNamespaceLifecycleLeavesMalformedNamespaceNamesToValidation(t *testing.T) {
	l := NewNamespaceLifecycle(namespaces{})
	require.NoError(t, l.Admit(context.Background(), createAttrs(t, "", "ConfigMap", configMapIn("Bad_NS"))))
	err := NewValidation().Validate(context.Background(), createAttrs(t, "", "ConfigMap", configMapIn("Bad_NS")))
	requireInvalid(t, err, "ConfigMap", cause{api.CauseTypeFieldValueInvalid, "metadata.namespace"})
}

func TestNamespaceLifecycleReportsLookupFailureAsInternalError(t *testing.T) {
	err := NewNamespaceLifecycle(lifecycleNamespaces()).Admit(context.Background(), createAttrs(t, "", "ConfigMap", configMapIn("broken")))
	require.EqualValues(t, 500, api.CodeForError(err))
	require.ErrorContains(t, err, "storage unavailable")
}

func TestNamespaceLifecycleRefusesDeletingImmortalNamespaces(t *testing.T) {
	l := NewNamespaceLifecycle(lifecycleNamespaces())
	for _, name := range []string{"default", "kube-system", "kube-public", "kube-node-lease"} {
		a := &Attributes{Operation: Delete, Resource: resource(t, "", "Namespace"), Name: name}
		err := l.Admit(context.Background(), a)
		require.True(t, IsForbidden(err), "%s: got %v", name, err)
		require.EqualError(t, err, `namespaces "`+name+`" is forbidden: this namespace may not be deleted`)
	}
	a := &Attributes{Operation: Delete, Resource: resource(t, "", "Namespace"), Name: "active"}
	require.NoError(t, l.Admit(context.Background(), a))
}

// The apiserver runs only the validating phase for deletes, so the default
// chain must protect the immortal namespaces there too.
func TestDefaultChainRefusesDeletingImmortalNamespaceInValidatingPhase(t *testing.T) {
	a := &Attributes{Operation: Delete, Resource: resource(t, "", "Namespace"), Name: "kube-system"}
	err := NewDefaultChain(lifecycleNamespaces()).Validate(context.Background(), a)
	require.True(t, IsForbidden(err), "got %v", err)
}
