package fieldmanager

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"

	"kubeloop/api"
	"kubeloop/apiserver/fieldmanager/fieldpath"
	"kubeloop/apiserver/fieldmanager/typed"
)

func TestResetFieldsOfTheMainResourceAndOfStatus(t *testing.T) {
	pod := typed.ForObject(&api.Pod{})
	assert.Equal(t, ".status\n", ResetFieldsFor(pod, "").String())
	status := ResetFieldsFor(pod, "status")
	assert.True(t, status.Has(fieldpathOf("spec")))
	assert.True(t, status.Has(fieldpathOf("metadata", "finalizers")))
	assert.False(t, status.Has(fieldpathOf("metadata", "labels")))
	assert.False(t, status.Has(fieldpathOf("status")))
	assert.True(t, ResetFieldsFor(typed.ForObject(&api.ConfigMap{}), "").Empty(), "a kind without status resets nothing")
}

func TestUpdateThroughAnEndpointOwnsNothingItsStrategyResets(t *testing.T) {
	f := NewFieldManager(typed.ForObject(&api.Pod{}), "v1", "")
	f.Now = func() time.Time { return clock }
	live := &api.Pod{ObjectMeta: api.ObjectMeta{Name: "p"}}
	created := live.DeepCopyObject().(*api.Pod)
	created.Spec.NodeName = "n1"
	created.Status.Phase = "Running" // a client-sent status the create strategy drops
	f.Update(live, created, "creator")
	assert.Equal(t, []string{`creator/Update/={"f:spec":{"f:nodeName":{}}}`}, summary(created.ManagedFields))

	created.UID = "u"
	created.Status.Phase = ""
	st := NewFieldManager(f.Type, "v1", "status")
	st.Now = f.Now
	written := created.DeepCopyObject().(*api.Pod)
	written.Status.Phase = "Running"
	written.Labels = map[string]string{"a": "b"}
	written.Spec.NodeName = "n2" // the status strategy keeps the stored spec
	st.Update(created, written, "kubelet")
	assert.Equal(t, []string{
		`creator/Update/={"f:spec":{"f:nodeName":{}}}`,
		`kubelet/Update/status={"f:metadata":{"f:labels":{".":{},"f:a":{}}},"f:status":{"f:phase":{}}}`,
	}, summary(written.ManagedFields))
}

func fieldpathOf(parts ...any) fieldpath.Path { return fieldpath.MakePath(parts...) }
