package validation

import (
	"encoding/json"
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"sigs.k8s.io/yaml"

	"kubeloop/api"
	"kubeloop/apiserver/apiextensions/field"
)

// validCRD is the api package's CronTab fixture, defaulted.
func validCRD(t *testing.T) *api.CustomResourceDefinition {
	t.Helper()
	y, err := os.ReadFile("../../../api/testdata/apiextensions/customresourcedefinition.yaml")
	require.NoError(t, err)
	var crd api.CustomResourceDefinition
	require.NoError(t, yaml.Unmarshal(y, &crd))
	// The fixture shows every keyword, some of which a CRD may not use.
	spec := crd.Spec.Versions[0].Schema.OpenAPIV3Schema.Properties["spec"]
	delete(spec.Properties, "deps")
	delete(spec.Properties, "tuple")
	crd.Spec.Versions[0].Schema.OpenAPIV3Schema.Properties["spec"] = spec
	SetDefaults(&crd)
	return &crd
}

// brief is each error's field, cause and detail: the bad value of a
// whole versions list is too long to spell out in a table.
func brief(errs field.ErrorList) []string {
	out := []string{}
	for _, e := range errs {
		out = append(out, e.Field.String()+" "+string(e.Type)+" "+e.Detail)
	}
	return out
}

func messages(errs field.ErrorList) []string {
	out := []string{}
	for _, e := range errs {
		out = append(out, e.Error())
	}
	return out
}

func schemaOf(t *testing.T, j string) *api.JSONSchemaProps {
	t.Helper()
	var s api.JSONSchemaProps
	require.NoError(t, json.Unmarshal([]byte(j), &s))
	return s.DeepCopy()
}

func TestAValidCRDPasses(t *testing.T) {
	assert.Equal(t, []string{}, messages(ValidateCustomResourceDefinition(validCRD(t))))
}

const dns1035 = "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')"

func TestValidateCustomResourceDefinition(t *testing.T) {
	const v0 = "spec.versions[0]"
	const root = v0 + ".schema.openAPIV3Schema"
	setSchema := func(j string) func(*api.CustomResourceDefinition) {
		return func(c *api.CustomResourceDefinition) {
			c.Spec.Versions[0].Schema.OpenAPIV3Schema = schemaOf(t, j)
			c.Spec.Versions[0].SelectableFields = nil
			c.Spec.Versions[0].Subresources = nil
		}
	}
	cases := []struct {
		name   string
		change func(*api.CustomResourceDefinition)
		want   []string
	}{
		{"the name is not plural.group", func(c *api.CustomResourceDefinition) { c.Name = "crontab.stable.example.com" },
			[]string{`metadata.name FieldValueInvalid must be spec.names.plural+"."+spec.group`}},
		{"a namespace", func(c *api.CustomResourceDefinition) { c.Namespace = "default" },
			[]string{`metadata.namespace FieldValueForbidden not allowed on this type`}},
		{"no group", func(c *api.CustomResourceDefinition) { c.Spec.Group = ""; c.Name = "crontabs" },
			[]string{`metadata.name FieldValueInvalid must be spec.names.plural+"."+spec.group`, `spec.group FieldValueRequired `}},
		{"a group without a dot", func(c *api.CustomResourceDefinition) { c.Spec.Group = "example"; c.Name = "crontabs.example" },
			[]string{`spec.group FieldValueInvalid should be a domain with at least one dot`}},
		{"a bad scope", func(c *api.CustomResourceDefinition) { c.Spec.Scope = "Global" },
			[]string{`spec.scope FieldValueNotSupported supported values: "Cluster", "Namespaced"`}},
		{"no scope", func(c *api.CustomResourceDefinition) { c.Spec.Scope = "" },
			[]string{`spec.scope FieldValueRequired `}},
		{"bad names", func(c *api.CustomResourceDefinition) {
			c.Spec.Names.ShortNames = []string{"C T"}
			c.Spec.Names.Categories = []string{"All"}
			c.Spec.Names.ListKind = "CronTab"
		}, []string{
			`spec.names.shortNames[0] FieldValueInvalid ` + dns1035,
			`spec.names.listKind FieldValueInvalid kind and listKind may not be the same`,
			`spec.names.categories[0] FieldValueInvalid ` + dns1035}},
		{"no kind", func(c *api.CustomResourceDefinition) { c.Spec.Names.Kind = "" },
			[]string{`spec.names.kind FieldValueRequired `}},
		{"no storage version", func(c *api.CustomResourceDefinition) { c.Spec.Versions[0].Storage = false },
			[]string{`spec.versions FieldValueInvalid must have exactly one version marked as storage version`}},
		{"two versions of one name", func(c *api.CustomResourceDefinition) {
			v := *c.Spec.Versions[0].DeepCopy()
			v.Storage = false
			c.Spec.Versions = append(c.Spec.Versions, v)
		}, []string{`spec.versions FieldValueInvalid must contain unique version names`}},
		{"a bad version name", func(c *api.CustomResourceDefinition) {
			c.Spec.Versions[0].Name = "V1"
			c.Status.StoredVersions = []string{"V1"}
		},
			[]string{v0 + `.name FieldValueInvalid ` + dns1035}},
		{"a stored version no longer in spec", func(c *api.CustomResourceDefinition) { c.Status.StoredVersions = []string{"v1", "v0"} },
			[]string{`status.storedVersions[1] FieldValueInvalid missing from spec.versions; v0 was previously a storage version, and must remain in spec.versions until a storage migration ensures no data remains persisted in v0 and removes v0 from status.storedVersions`}},
		{"no schema", func(c *api.CustomResourceDefinition) {
			c.Spec.Versions[0].Schema = nil
			c.Spec.Versions[0].SelectableFields = nil
		},
			[]string{v0 + `.schema.openAPIV3Schema FieldValueRequired `}},
		{"a warning on a version not deprecated", func(c *api.CustomResourceDefinition) { w := "old"; c.Spec.Versions[0].DeprecationWarning = &w },
			[]string{v0 + `.deprecationWarning FieldValueInvalid can only be set for deprecated versions`}},
		{"a scale path outside spec", func(c *api.CustomResourceDefinition) {
			c.Spec.Versions[0].Subresources.Scale.SpecReplicasPath = ".status.replicas"
		},
			[]string{v0 + `.subresources.scale.specReplicasPath FieldValueInvalid should be a json path under .spec`}},
		{"a scale path not a json path", func(c *api.CustomResourceDefinition) {
			c.Spec.Versions[0].Subresources.Scale.StatusReplicasPath = "status"
		},
			[]string{v0 + `.subresources.scale.statusReplicasPath FieldValueInvalid must be a simple json path starting with .`}},
		{"a bad printer column", func(c *api.CustomResourceDefinition) {
			c.Spec.Versions[0].AdditionalPrinterColumns[0] = api.CustomResourceColumnDefinition{Type: "float", Format: "hex"}
		}, []string{
			v0 + `.additionalPrinterColumns[0].name FieldValueRequired `,
			v0 + `.additionalPrinterColumns[0].type FieldValueInvalid must be one of boolean,date,integer,number,string`,
			v0 + `.additionalPrinterColumns[0].format FieldValueInvalid must be one of byte,date,date-time,double,float,int32,int64,password`,
			v0 + `.additionalPrinterColumns[0].JSONPath FieldValueRequired `}},
		{"a selectable field of an object", func(c *api.CustomResourceDefinition) {
			c.Spec.Versions[0].SelectableFields = []api.SelectableField{{JSONPath: ".spec"}, {JSONPath: ".spec.nope"}}
		},
			[]string{
				v0 + `.selectableFields[0].jsonPath FieldValueInvalid must point to a field of type string, boolean or integer. Enum string fields and strings with formats are allowed.`,
				v0 + `.selectableFields[1].jsonPath FieldValueInvalid is an invalid path: does not refer to a valid field`}},
		{"webhook conversion without a client", func(c *api.CustomResourceDefinition) {
			c.Spec.Conversion = &api.CustomResourceConversion{Strategy: api.WebhookConverter}
		}, []string{`spec.conversion.webhookClientConfig FieldValueRequired required when strategy is set to Webhook`, `spec.conversion.conversionReviewVersions FieldValueRequired `}},
		{"preserveUnknownFields", func(c *api.CustomResourceDefinition) { c.Spec.PreserveUnknownFields = true },
			[]string{`spec.preserveUnknownFields FieldValueInvalid cannot set to true, set x-kubernetes-preserve-unknown-fields to true in spec.versions[*].schema instead`}},
		{"a protected group without approval", func(c *api.CustomResourceDefinition) { c.Spec.Group = "x.k8s.io"; c.Name = "crontabs.x.k8s.io" },
			[]string{`metadata.annotations[api-approved.kubernetes.io] FieldValueRequired protected groups must have approval annotation "api-approved.kubernetes.io", see https://github.com/kubernetes/enhancements/pull/1111`}},
		{"a schema that is not structural", setSchema(`{"type":"object","properties":{"a":{}}}`),
			[]string{root + `.properties[a].type FieldValueRequired must not be empty for specified object fields`}},
		{"forbidden keywords", setSchema(`{"type":"object","properties":{"a":{"type":"string","$ref":"#/x","uniqueItems":true}}}`),
			[]string{root + `.properties[a].$ref FieldValueForbidden $ref is not supported`,
				root + `.properties[a].uniqueItems FieldValueForbidden uniqueItems cannot be set to true since the runtime complexity becomes quadratic`}},
		{"a null type", setSchema(`{"type":"object","properties":{"a":{"type":"null"}}}`),
			[]string{root + `.properties[a].type FieldValueNotSupported supported values: "array", "boolean", "integer", "number", "object", "string"`,
				root + `.properties[a].type FieldValueForbidden type cannot be set to null, use nullable as an alternative`}},
		{"properties with additionalProperties", setSchema(`{"type":"object","properties":{"a":{"type":"object","properties":{"b":{"type":"string"}},"additionalProperties":{"type":"string"}}}}`),
			[]string{root + `.properties[a].additionalProperties FieldValueForbidden additionalProperties and properties are mutual exclusive`}},
		{"a default in metadata", setSchema(`{"type":"object","properties":{"metadata":{"type":"object","default":{}}}}`),
			// The structural rule ignores the default, which has its own message.
			[]string{root + `.properties[metadata].default FieldValueForbidden must not be set in top-level metadata`}},
		{"a list map without keys", setSchema(`{"type":"object","properties":{"a":{"type":"array","x-kubernetes-list-type":"map","items":{"type":"object","properties":{"k":{"type":"string"}}}}}}`),
			[]string{root + `.properties[a].x-kubernetes-list-map-keys FieldValueRequired must not be empty if x-kubernetes-list-type is map`}},
		{"a list map key that is optional", setSchema(`{"type":"object","properties":{"a":{"type":"array","x-kubernetes-list-type":"map","x-kubernetes-list-map-keys":["k","z"],"items":{"type":"object","properties":{"k":{"type":"string"}}}}}}`),
			[]string{root + `.properties[a].x-kubernetes-list-map-keys FieldValueInvalid entries must all be names of item properties`,
				root + `.properties[a].items.properties[k].default FieldValueRequired this property is in x-kubernetes-list-map-keys, so it must have a default or be a required property`}},
		{"a list type on an object", setSchema(`{"type":"object","properties":{"a":{"type":"object","x-kubernetes-list-type":"set"}}}`),
			[]string{root + `.properties[a].type FieldValueInvalid must be array if x-kubernetes-list-type is specified`}},
		{"a bad map type", setSchema(`{"type":"object","properties":{"a":{"type":"object","x-kubernetes-map-type":"deep"}}}`),
			[]string{root + `.properties[a].x-kubernetes-map-type FieldValueNotSupported supported values: "atomic", "granular"`}},
		{"a bad validation rule", setSchema(`{"type":"object","x-kubernetes-validations":[{"rule":" "},{"rule":"a\nb"},{"rule":"x","reason":"Because"}]}`),
			[]string{root + `.x-kubernetes-validations[0].rule FieldValueRequired rule is not specified`,
				root + `.x-kubernetes-validations[1].message FieldValueRequired message must be specified if rule contains line breaks`,
				root + `.x-kubernetes-validations[2].reason FieldValueNotSupported supported values: "FieldValueDuplicate", "FieldValueForbidden", "FieldValueInvalid", "FieldValueRequired"`}},
		{"a rule that does not compile", setSchema(`{"type":"object","properties":{"a":{"type":"string"}},"x-kubernetes-validations":[{"rule":"self.b == 1"}]}`),
			[]string{root + ".x-kubernetes-validations[0].rule FieldValueInvalid compilation failed: ERROR: <input>:1:5: undefined field 'b'\n | self.b == 1\n | ....^"}},
		{"a rule's fieldPath that leads nowhere", setSchema(`{"type":"object","properties":{"a":{"type":"string"}},"x-kubernetes-validations":[{"rule":"true","fieldPath":".b"}]}`),
			[]string{root + `.x-kubernetes-validations[0].fieldPath FieldValueInvalid must be a valid path`}},
		{"oldSelf below a plain list", setSchema(`{"type":"object","properties":{"a":{"type":"array","maxItems":5,"items":{"type":"string","maxLength":5,"x-kubernetes-validations":[{"rule":"self == oldSelf"}]}}}}`),
			[]string{root + `.properties[a].items.x-kubernetes-validations[0].rule FieldValueInvalid oldSelf cannot be used on the uncorrelatable portion of the schema within ` + root + `.properties[a]`}},
		{"an invalid default", setSchema(`{"type":"object","properties":{"a":{"type":"integer","maximum":3,"default":5}}}`),
			[]string{root + `.properties[a].default FieldValueInvalid  in body should be less than or equal to 3`}},
		{"root keywords with the status subresource", func(c *api.CustomResourceDefinition) {
			c.Spec.Versions[0].Schema.OpenAPIV3Schema.AnyOf = []api.JSONSchemaProps{{Required: []string{"spec"}}}
		}, []string{root + ` FieldValueInvalid only [Description Type Format Title Maximum ExclusiveMaximum Minimum ExclusiveMinimum MaxLength MinLength Pattern MaxItems MinItems UniqueItems MultipleOf Required Items Properties ExternalDocs Example XPreserveUnknownFields XValidations] fields are allowed at the root of the schema if the status subresource is enabled`}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			crd := validCRD(t)
			c.change(crd)
			assert.Equal(t, c.want, brief(ValidateCustomResourceDefinition(crd)))
		})
	}
}

func TestValidateCustomResourceDefinitionUpdate(t *testing.T) {
	established := func() *api.CustomResourceDefinition {
		c := validCRD(t)
		c.Status.Conditions = []api.CustomResourceDefinitionCondition{{Type: api.CRDEstablished, Status: api.ConditionTrue}}
		return c
	}
	notEstablished := func() *api.CustomResourceDefinition {
		c := validCRD(t)
		c.Status.Conditions = nil
		return c
	}
	cases := []struct {
		name   string
		old    *api.CustomResourceDefinition
		change func(*api.CustomResourceDefinition)
		want   []string
	}{
		{"nothing changed", established(), func(*api.CustomResourceDefinition) {}, []string{}},
		{"the scope of an established CRD", established(), func(c *api.CustomResourceDefinition) { c.Spec.Scope = api.ClusterScoped },
			[]string{`spec.scope: Invalid value: "Cluster": field is immutable`}},
		{"the scope before it is established", notEstablished(), func(c *api.CustomResourceDefinition) { c.Spec.Scope = api.ClusterScoped }, []string{}},
		{"the kind of an established CRD", established(), func(c *api.CustomResourceDefinition) { c.Spec.Names.Kind = "Cron"; c.Spec.Names.ListKind = "CronList" },
			[]string{`spec.names.kind: Invalid value: "Cron": field is immutable`}},
		{"the group", validCRD(t), func(c *api.CustomResourceDefinition) { c.Spec.Group = "other.example.com" },
			[]string{`spec.group: Invalid value: "other.example.com": field is immutable`}},
		{"the plural", validCRD(t), func(c *api.CustomResourceDefinition) { c.Spec.Names.Plural = "crons" },
			[]string{`spec.names.plural: Invalid value: "crons": field is immutable`}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			crd := c.old.DeepCopy()
			c.change(crd)
			assert.Equal(t, c.want, messages(ValidateCustomResourceDefinitionUpdate(crd, c.old)))
		})
	}
}

func TestCRDErrorsBecomeA422(t *testing.T) {
	crd := validCRD(t)
	crd.Spec.Scope = ""
	st := ValidateCustomResourceDefinition(crd).ToStatusError("apiextensions.k8s.io", "CustomResourceDefinition", crd.Name).Status()
	assert.Equal(t, int32(422), st.Code)
	assert.Equal(t, `CustomResourceDefinition.apiextensions.k8s.io "crontabs.stable.example.com" is invalid: spec.scope: Required value`, st.Message)
}

func TestSetDefaults(t *testing.T) {
	crd := &api.CustomResourceDefinition{Spec: api.CustomResourceDefinitionSpec{
		Names:    api.CustomResourceDefinitionNames{Kind: "CronTab", Plural: "crontabs"},
		Versions: []api.CustomResourceDefinitionVersion{{Name: "v1"}, {Name: "v2", Storage: true}},
	}}
	SetDefaults(crd)
	assert.Equal(t, "crontab", crd.Spec.Names.Singular)
	assert.Equal(t, "CronTabList", crd.Spec.Names.ListKind)
	assert.Equal(t, api.NoneConverter, crd.Spec.Conversion.Strategy)
	assert.Equal(t, []string{"v2"}, crd.Status.StoredVersions)
}
