package spec

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kubeloop/api"
)

func builtin(t *testing.T) Definitions {
	t.Helper()
	d, err := Build(api.Builtin())
	require.NoError(t, err)
	return d
}

func def(t *testing.T, d Definitions, name string) *Schema {
	t.Helper()
	s := d[name]
	require.NotNil(t, s, "no definition %s", name)
	return s
}

const (
	podName        = "io.k8s.api.core.v1.Pod"
	podSpecName    = "io.k8s.api.core.v1.PodSpec"
	containerName  = "io.k8s.api.core.v1.Container"
	objectMetaName = "io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta"
	timeName       = "io.k8s.apimachinery.pkg.apis.meta.v1.Time"
	quantityName   = "io.k8s.apimachinery.pkg.api.resource.Quantity"
	intOrStrName   = "io.k8s.apimachinery.pkg.util.intstr.IntOrString"
)

func TestEveryServedKindAndListHasItsGroupVersionKind(t *testing.T) {
	d := builtin(t)
	for _, info := range api.Builtin().All() {
		kind := def(t, d, NameOf(info.New()))
		assert.Equal(t, []GroupVersionKind{{Group: info.Group, Version: info.Version, Kind: info.Kind}}, kind.GVKs(), info.Kind)
		list := def(t, d, NameOf(info.NewList()))
		assert.Equal(t, []GroupVersionKind{{Group: info.Group, Version: info.Version, Kind: info.ListKind()}}, list.GVKs(), info.ListKind())
	}
	assert.Equal(t, []GroupVersionKind{{Group: "autoscaling", Version: "v1", Kind: "Scale"}}, def(t, d, "io.k8s.api.autoscaling.v1.Scale").GVKs())
	assert.Equal(t, []GroupVersionKind{{Version: "v1", Kind: "Binding"}}, def(t, d, "io.k8s.api.core.v1.Binding").GVKs())
	assert.Contains(t, def(t, d, "io.k8s.apimachinery.pkg.apis.meta.v1.DeleteOptions").GVKs(), GroupVersionKind{Group: "apps", Version: "v1", Kind: "DeleteOptions"})
	assert.Empty(t, def(t, d, podSpecName).GVKs(), "only kinds carry a GVK")
}

func TestDefinitionsAreNamedAsKubernetesNamesThem(t *testing.T) {
	assert.Equal(t, podName, NameOf(&api.Pod{}))
	assert.Equal(t, "io.k8s.api.core.v1.PodList", NameOf(&api.PodList{}))
	assert.Equal(t, "io.k8s.api.apps.v1.ReplicaSetList", NameOf(&api.ReplicaSetList{}))
	assert.Equal(t, "io.k8s.api.coordination.v1.Lease", NameOf(&api.Lease{}))
	assert.Equal(t, objectMetaName, NameOf(api.ObjectMeta{}))
	assert.Equal(t, "io.k8s.apimachinery.pkg.apis.meta.v1.LabelSelector", NameOf(&api.LabelSelector{}))
}

func TestEveryReferenceResolves(t *testing.T) {
	d := builtin(t)
	require.NoError(t, d.check())
	d["broken"] = &Schema{Type: "object", Properties: map[string]*Schema{"x": {Ref: "nowhere"}}}
	require.ErrorContains(t, d.check(), "broken → nowhere")
}

func TestScalarsHaveKubernetesTypesAndFormats(t *testing.T) {
	d := builtin(t)
	meta := def(t, d, objectMetaName).Properties
	assert.Equal(t, "integer", meta["generation"].Type)
	assert.Equal(t, "int64", meta["generation"].Format)
	assert.Equal(t, timeName, meta["creationTimestamp"].Ref)
	assert.Equal(t, "int32", def(t, d, "io.k8s.api.core.v1.ContainerPort").Properties["containerPort"].Format)
	assert.Equal(t, &Schema{Type: "string", Format: "byte"}, def(t, d, "io.k8s.api.core.v1.ConfigMap").Properties["binaryData"].AdditionalProperties, "items carry no description")
	assert.Equal(t, "boolean", def(t, d, "io.k8s.api.core.v1.ConfigMap").Properties["immutable"].Type)

	assert.Equal(t, map[string]any{"type": "string", "format": "date-time"}, withoutDescription(d[timeName].V3()))
	assert.Equal(t, map[string]any{"type": "string"}, withoutDescription(d[quantityName].V2()))
	assert.Equal(t, map[string]any{"oneOf": []any{map[string]any{"type": "string"}, map[string]any{"type": "number"}}},
		withoutDescription(d[quantityName].V3()))
	assert.Equal(t, map[string]any{"type": "string", "format": "int-or-string"}, withoutDescription(d[intOrStrName].V2()))
	assert.Equal(t, map[string]any{"format": "int-or-string", "oneOf": []any{map[string]any{"type": "integer"}, map[string]any{"type": "string"}}},
		withoutDescription(d[intOrStrName].V3()))
	assert.Equal(t, quantityName, def(t, d, "io.k8s.api.core.v1.ResourceRequirements").Properties["limits"].AdditionalProperties.Ref)
}

func withoutDescription(m map[string]any) map[string]any {
	delete(m, "description")
	return m
}

func TestRequiredFollowsJSONTagsAndKubernetesMarkers(t *testing.T) {
	d := builtin(t)
	assert.Equal(t, []string{"name"}, def(t, d, containerName).Required, "name has no omitempty")
	assert.Equal(t, []string{"containers"}, def(t, d, podSpecName).Required)
	assert.Equal(t, []string{"apiVersion", "kind", "name", "uid"}, def(t, d, "io.k8s.apimachinery.pkg.apis.meta.v1.OwnerReference").Required)
	assert.Equal(t, []string{"items"}, def(t, d, "io.k8s.api.core.v1.PodList").Required, "a list's metadata is optional, as in Kubernetes")
	assert.Equal(t, []string{"spec"}, def(t, d, "io.k8s.api.apps.v1.ReplicaSet").Required, "+required in k8s.io/api")
	assert.Empty(t, def(t, d, "io.k8s.api.apps.v1.ReplicaSetCondition").Required, "+optional in k8s.io/api")
	assert.Empty(t, def(t, d, podName).Required)
}

func TestPatchExtensionsComeFromTheStructTags(t *testing.T) {
	d := builtin(t)
	spec := def(t, d, podSpecName).Properties
	assert.Equal(t, map[string]any{ExtPatchStrategy: "merge", ExtPatchMergeKey: "name"}, spec["containers"].Extensions)
	assert.Equal(t, map[string]any{ExtPatchStrategy: "merge,retainKeys", ExtPatchMergeKey: "name"}, spec["volumes"].Extensions)
	assert.Equal(t, map[string]any{ExtPatchStrategy: "merge", ExtPatchMergeKey: "ip"}, spec["hostAliases"].Extensions)
	assert.Empty(t, spec["tolerations"].Extensions, "atomic in Kubernetes")
	assert.Equal(t, map[string]any{ExtPatchStrategy: "merge"}, def(t, d, objectMetaName).Properties["finalizers"].Extensions)

	v3 := def(t, d, podSpecName).V3()["properties"].(map[string]any)["containers"].(map[string]any)
	assert.Equal(t, "name", v3[ExtPatchMergeKey])
	assert.Equal(t, "array", v3["type"])
}

func TestDefaultsAreWhatTheDecoderLeaves(t *testing.T) {
	d := builtin(t)
	assert.Equal(t, "", def(t, d, containerName).Properties["name"].Default, "a string that is always written")
	assert.Nil(t, def(t, d, containerName).Properties["image"].Default, "omitempty")
	assert.Equal(t, map[string]any{}, def(t, d, podName).Properties["spec"].Default, "a struct")
	assert.Nil(t, def(t, d, podSpecName).Properties["securityContext"].Default, "a pointer")
	assert.Nil(t, def(t, d, objectMetaName).Properties["creationTimestamp"].Default, "Time decodes itself; its zero is null")
	assert.Equal(t, "", def(t, d, objectMetaName).Properties["finalizers"].Items.Default, "a list item")
}

func TestReferencesWithSiblingsAreWrappedInAllOfInV3Only(t *testing.T) {
	bare := &Schema{Ref: podSpecName}
	assert.Equal(t, map[string]any{"$ref": "#/components/schemas/" + podSpecName}, bare.V3())
	assert.Equal(t, map[string]any{"$ref": "#/definitions/" + podSpecName}, bare.V2())

	described := &Schema{Ref: podSpecName, Description: "The pod's spec.", Default: map[string]any{}}
	assert.Equal(t, map[string]any{
		"allOf":       []any{map[string]any{"$ref": "#/components/schemas/" + podSpecName}},
		"description": "The pod's spec.",
		"default":     map[string]any{},
	}, described.V3())
	assert.Equal(t, map[string]any{
		"$ref":        "#/definitions/" + podSpecName,
		"description": "The pod's spec.",
		"default":     map[string]any{},
	}, described.V2())
}

func TestDescriptionsComeFromTheGeneratedTable(t *testing.T) {
	d := builtin(t)
	require.NotEmpty(t, api.Description("Pod", ""))
	assert.Equal(t, api.Description("Pod", ""), def(t, d, podName).Description)
	assert.Equal(t, api.Description("PodList", ""), def(t, d, "io.k8s.api.core.v1.PodList").Description, "a list is described by its alias")
	assert.Equal(t, api.Description("List", "Items"), def(t, d, "io.k8s.api.core.v1.PodList").Properties["items"].Description)
	assert.Equal(t, api.Description("TypeMeta", "Kind"), def(t, d, podName).Properties["kind"].Description, "inline TypeMeta keeps its own comments")
	assert.Equal(t, api.Description("Pod", "ObjectMeta"), def(t, d, podName).Properties["metadata"].Description, "an embedded field is named after its type")
	event := def(t, d, "io.k8s.api.core.v1.Event").Properties["reportingComponent"]
	require.NotEmpty(t, api.Description("Event", "ReportingController"))
	assert.Equal(t, api.Description("Event", "ReportingController"), event.Description, "keyed by Go field name, not JSON name")
}

func TestClosureHoldsWhatTheRootsReach(t *testing.T) {
	d := builtin(t).Closure(podName)
	for _, name := range []string{podName, podSpecName, containerName, objectMetaName, timeName, quantityName, intOrStrName} {
		assert.Contains(t, d, name)
	}
	assert.NotContains(t, d, "io.k8s.api.apps.v1.ReplicaSet")
	assert.NoError(t, d.check(), "a closure is a complete document")
}

func TestKindsNotYetServedAreNamedForTheirKubernetesPackage(t *testing.T) {
	assert.Equal(t, "io.k8s.api.apps.v1.DeploymentList", NameOf(&api.DeploymentList{}))
	assert.Equal(t, "io.k8s.api.batch.v1.Job", NameOf(&api.Job{}))
	assert.Equal(t, "io.k8s.api.core.v1.Secret", NameOf(&api.Secret{}))
}
