//go:build exercise || solution

package apply

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kubeloop/api"
	"kubeloop/client"
)

var ctx = context.Background()

func deployments(ns string) *client.Resource[*api.Deployment] {
	return client.For[*api.Deployment](testCluster.Client).Namespace(ns)
}

func getDeployment(t *testing.T, ns, name string) *api.Deployment {
	t.Helper()
	d, err := deployments(ns).Get(ctx, name, client.GetOptions{})
	require.NoError(t, err)
	return d
}

func int32p(n int32) *int32 { return &n }

// webApp is the configuration most tests start from.
func webApp(ns string) WebApp {
	return WebApp{Namespace: ns, Name: "shop", Image: "shop:1", Labels: map[string]string{"tier": "frontend"}}
}

// mustApply runs Apply with a recorded client and fails on an error.
func mustApply(t *testing.T, app WebApp) Result {
	t.Helper()
	c, _ := operator(t)
	res, err := Apply(ctx, c, app)
	require.NoError(t, err, "Apply(%+v)", app)
	require.NotNil(t, res.Deployment, "Apply returned no Deployment")
	return res
}

// userEdits is a person editing the Deployment (kubectl edit, kubectl
// patch): a merge patch, recorded as an Update of userManager.
func userEdits(t *testing.T, ns, name, patch string) *api.Deployment {
	t.Helper()
	d, err := deployments(ns).Patch(ctx, name, client.MergePatchType, []byte(patch), client.PatchOptions{FieldManager: userManager})
	require.NoError(t, err)
	return d
}

// labelerApplies is a second controller that applies labels, and only
// labels, with its own field manager.
func labelerApplies(t *testing.T, ns, name string, labels map[string]string) *api.Deployment {
	t.Helper()
	body, err := json.Marshal(map[string]any{"apiVersion": "apps/v1", "kind": "Deployment",
		"metadata": map[string]any{"name": name, "labels": labels}})
	require.NoError(t, err)
	d, err := deployments(ns).Patch(ctx, name, client.ApplyPatchType, body, client.PatchOptions{FieldManager: labelerManager})
	require.NoError(t, err)
	return d
}

// The fields the operator owns for webApp: its configuration, and nothing
// the server defaulted (strategy, revisionHistoryLimit, the container's
// imagePullPolicy...), nothing it did not send (spec.replicas).
var webAppFields = []string{
	".metadata.labels.app",
	".metadata.labels.tier",
	".spec.selector",
	".spec.template.metadata.labels.app",
	`.spec.template.spec.containers[name="web"]`,
	`.spec.template.spec.containers[name="web"].image`,
	`.spec.template.spec.containers[name="web"].name`,
}

func TestApplyIsAPatchWithTheFieldManager(t *testing.T) {
	ns := newNamespace(t)
	c, rec := operator(t)
	res, err := Apply(ctx, c, webApp(ns))
	require.NoError(t, err)
	require.NotNil(t, res.Deployment)

	writes := rec.writes()
	require.NotEmpty(t, writes, "Apply made no write request")
	for _, w := range writes {
		assert.Equal(t, "PATCH", w.Method, "server-side apply is a PATCH: %s", w)
		assert.Equal(t, string(client.ApplyPatchType), w.ContentType, "an apply has Content-Type %s: %s", client.ApplyPatchType, w)
		assert.Equal(t, []string{FieldManager}, w.Query["fieldManager"], "every apply names its field manager: %s", w)
		assert.NotContains(t, w.Query, "force", "nobody told the operator to force: %s", w)
	}

	d := getDeployment(t, ns, "shop")
	assert.Equal(t, "shop:1", d.Spec.Template.Spec.Containers[0].Image)
	assert.Equal(t, "frontend", d.Labels["tier"])
	entries := entriesOf(d, FieldManager)
	require.Len(t, entries, 1, "the operator has one managedFields entry, from its apply: %+v", d.ManagedFields)
	assert.Equal(t, api.ManagedFieldsOperationApply, entries[0].Operation,
		"the operator's entry must be an Apply: an Update (PUT, or a merge patch) owns whatever it wrote or the server defaulted, and never lets go")
	assert.Empty(t, entries[0].Subresource)
}

func TestTheOperatorOwnsExactlyItsConfiguration(t *testing.T) {
	ns := newNamespace(t)
	d := mustApply(t, webApp(ns)).Deployment
	assert.Equal(t, webAppFields, fieldsOf(t, d, FieldManager), "the fields the operator owns after creating the Deployment")

	// Someone else scales it and labels it; the operator applies again.
	userEdits(t, ns, "shop", `{"metadata":{"labels":{"team":"payments"}},"spec":{"replicas":5}}`)
	d = mustApply(t, webApp(ns)).Deployment
	assert.Equal(t, webAppFields, fieldsOf(t, d, FieldManager),
		"applying again must not make the operator own what others set: send the configuration, not the live object")
	assert.Equal(t, int32(5), *d.Spec.Replicas, "the user's replicas are kept: the operator says nothing about them")
	assert.Equal(t, "payments", d.Labels["team"], "the user's label is kept")
	assert.Contains(t, fieldsOf(t, d, userManager), ".spec.replicas")
}

// A field another manager set (and so owns) is not the operator's to
// change: without force the apply is refused with 409 Conflict, and the
// operator yields the field and applies the rest.
func TestAFieldAnotherManagerOwnsIsNotStolen(t *testing.T) {
	ns := newNamespace(t)
	app := webApp(ns)
	app.Replicas = int32p(2)
	mustApply(t, app)
	userEdits(t, ns, "shop", `{"spec":{"replicas":5}}`)

	app.Image = "shop:2"
	res := mustApply(t, app)
	assert.Equal(t, []string{".spec.replicas"}, res.Yielded, "the conflict names .spec.replicas, which the operator must yield")
	d := getDeployment(t, ns, "shop")
	assert.Equal(t, int32(5), *d.Spec.Replicas, "the user's replicas were overwritten: without force, a field another manager owns is theirs")
	assert.Equal(t, "shop:2", d.Spec.Template.Spec.Containers[0].Image,
		"the rest of the configuration must still be applied after yielding the conflicting field")
	assert.Contains(t, fieldsOf(t, d, userManager), ".spec.replicas", "the user still owns spec.replicas")
	assert.NotContains(t, fieldsOf(t, d, FieldManager), ".spec.replicas", "the operator yielded spec.replicas: it must not own it")
}

func TestForceTakesTheFieldWhenTold(t *testing.T) {
	ns := newNamespace(t)
	app := webApp(ns)
	app.Replicas = int32p(2)
	mustApply(t, app)
	userEdits(t, ns, "shop", `{"spec":{"replicas":5}}`)

	app.ForceConflicts = true
	res := mustApply(t, app)
	assert.Empty(t, res.Yielded, "a forced apply has no conflict to yield to")
	d := getDeployment(t, ns, "shop")
	assert.Equal(t, int32(2), *d.Spec.Replicas, "told to force, the operator sets its replicas")
	assert.Contains(t, fieldsOf(t, d, FieldManager), ".spec.replicas", "a forced apply takes the field's ownership")
	assert.NotContains(t, fieldsOf(t, d, userManager), ".spec.replicas", "and the user loses it")
}

// What the operator stops sending, it stops owning; a field nobody owns
// any more is removed, one somebody else owns too stays theirs.
func TestAFieldDroppedFromTheConfigurationIsRemoved(t *testing.T) {
	ns := newNamespace(t)
	app := webApp(ns)
	app.Labels = map[string]string{"tier": "frontend", "canary": "yes"}
	mustApply(t, app)
	labelerApplies(t, ns, "shop", map[string]string{"tier": "frontend"}) // same value: shared, no conflict

	app.Labels = map[string]string{}
	d := mustApply(t, app).Deployment
	assert.NotContains(t, d.Labels, "canary", "the operator dropped the label canary, which nobody else owned: the apply must remove it")
	assert.Equal(t, "frontend", d.Labels["tier"], "the label tier is also the labeler's: dropping it from the operator's configuration must leave it")
	owned := fieldsOf(t, d, FieldManager)
	assert.NotContains(t, owned, ".metadata.labels.tier", "the operator no longer sends tier: it must no longer own it")
	assert.NotContains(t, owned, ".metadata.labels.canary")
	assert.Contains(t, fieldsOf(t, d, labelerManager), ".metadata.labels.tier")
}

// Two managers that each apply their own fields do not fight: the same
// configuration applied again changes nothing, not even the
// resourceVersion, and nobody loses anything.
func TestReapplyingTheSameConfigurationChangesNothing(t *testing.T) {
	ns := newNamespace(t)
	app := webApp(ns)
	mustApply(t, app)
	labelerApplies(t, ns, "shop", map[string]string{"team": "payments"})
	first := mustApply(t, app).Deployment
	for range 2 {
		again := mustApply(t, app).Deployment
		assert.Equal(t, first.ResourceVersion, again.ResourceVersion,
			"the same configuration applied again must change nothing: the operator and the labeler fight over a field")
	}
	d := getDeployment(t, ns, "shop")
	assert.Equal(t, "payments", d.Labels["team"], "the labeler's label survives the operator's applies")
	assert.Equal(t, webAppFields, fieldsOf(t, d, FieldManager))
	assert.Equal(t, []string{".metadata.labels.team"}, fieldsOf(t, d, labelerManager))
}
