package api

// JSONSchemaProps is one node of a CRD's OpenAPI v3 schema (JSON Schema
// draft 4 with OpenAPI's and Kubernetes' additions). Every keyword is
// modelled, including those a structural schema forbids ($ref, definitions,
// dependencies, patternProperties, additionalItems, ...), so that the
// validation can name them instead of the decoder dropping them.
//
// Kubernetes: apiextensions-apiserver/pkg/apis/apiextensions/v1/
// types_jsonschema.go (v1.37.2). The field numbers are that package's
// generated.proto.
type JSONSchemaProps struct {
	// The id keyword; forbidden in CRDs.
	ID string `json:"id,omitempty" protobuf:"bytes,1,opt,name=id"`
	// The $schema keyword; forbidden in CRDs.
	Schema JSONSchemaURL `json:"$schema,omitempty" protobuf:"bytes,2,opt,name=schema"`
	// The $ref keyword; forbidden in CRDs.
	Ref *string `json:"$ref,omitempty" protobuf:"bytes,3,opt,name=ref"`
	// Human documentation of the node (what `kubectl explain` prints).
	Description string `json:"description,omitempty" protobuf:"bytes,4,opt,name=description"`
	// object, array, string, integer, number or boolean.
	Type string `json:"type,omitempty" protobuf:"bytes,5,opt,name=type"`
	// A format of the value, checked for the formats Kubernetes knows
	// (date-time, uuid, hostname, ...), ignored for others.
	Format string `json:"format,omitempty" protobuf:"bytes,6,opt,name=format"`
	// A short title.
	Title string `json:"title,omitempty" protobuf:"bytes,7,opt,name=title"`
	// The value written in when the field is absent (or null and not
	// nullable).
	Default *JSON `json:"default,omitempty" protobuf:"bytes,8,opt,name=default"`
	// The upper bound of a number.
	Maximum *float64 `json:"maximum,omitempty" protobuf:"fixed64,9,opt,name=maximum"`
	// Whether maximum itself is excluded.
	ExclusiveMaximum bool `json:"exclusiveMaximum,omitempty" protobuf:"varint,10,opt,name=exclusiveMaximum"`
	// The lower bound of a number.
	Minimum *float64 `json:"minimum,omitempty" protobuf:"fixed64,11,opt,name=minimum"`
	// Whether minimum itself is excluded.
	ExclusiveMinimum bool `json:"exclusiveMinimum,omitempty" protobuf:"varint,12,opt,name=exclusiveMinimum"`
	// The most characters (runes) of a string.
	MaxLength *int64 `json:"maxLength,omitempty" protobuf:"varint,13,opt,name=maxLength"`
	// The fewest characters of a string.
	MinLength *int64 `json:"minLength,omitempty" protobuf:"varint,14,opt,name=minLength"`
	// A regular expression (ECMA 262 in JSON Schema; Go's RE2 here as in
	// Kubernetes) a string must match somewhere.
	Pattern string `json:"pattern,omitempty" protobuf:"bytes,15,opt,name=pattern"`
	// The most elements of an array.
	MaxItems *int64 `json:"maxItems,omitempty" protobuf:"varint,16,opt,name=maxItems"`
	// The fewest elements of an array.
	MinItems *int64 `json:"minItems,omitempty" protobuf:"varint,17,opt,name=minItems"`
	// Whether array elements must differ; forbidden in CRDs (list-type set
	// says it instead).
	UniqueItems bool `json:"uniqueItems,omitempty" protobuf:"varint,18,opt,name=uniqueItems"`
	// A number must be an integer multiple of it.
	MultipleOf *float64 `json:"multipleOf,omitempty" protobuf:"fixed64,19,opt,name=multipleOf"`
	// The values allowed, as JSON.
	Enum []JSON `json:"enum,omitempty" protobuf:"bytes,20,rep,name=enum" listType:"atomic"`
	// The most properties of an object.
	MaxProperties *int64 `json:"maxProperties,omitempty" protobuf:"varint,21,opt,name=maxProperties"`
	// The fewest properties of an object.
	MinProperties *int64 `json:"minProperties,omitempty" protobuf:"varint,22,opt,name=minProperties"`
	// Properties that must be present.
	Required []string `json:"required,omitempty" protobuf:"bytes,23,rep,name=required" listType:"atomic"`
	// The schema of array elements (a single schema in a structural schema).
	Items *JSONSchemaPropsOrArray `json:"items,omitempty" protobuf:"bytes,24,opt,name=items"`
	// Schemas the value must all match; value validations only.
	AllOf []JSONSchemaProps `json:"allOf,omitempty" protobuf:"bytes,25,rep,name=allOf" listType:"atomic"`
	// Schemas of which the value must match exactly one.
	OneOf []JSONSchemaProps `json:"oneOf,omitempty" protobuf:"bytes,26,rep,name=oneOf" listType:"atomic"`
	// Schemas of which the value must match at least one.
	AnyOf []JSONSchemaProps `json:"anyOf,omitempty" protobuf:"bytes,27,rep,name=anyOf" listType:"atomic"`
	// A schema the value must not match.
	Not *JSONSchemaProps `json:"not,omitempty" protobuf:"bytes,28,opt,name=not"`
	// The schemas of an object's known properties.
	Properties map[string]JSONSchemaProps `json:"properties,omitempty" protobuf:"bytes,29,rep,name=properties"`
	// The schema of every other property (a map's values), or false.
	AdditionalProperties *JSONSchemaPropsOrBool `json:"additionalProperties,omitempty" protobuf:"bytes,30,opt,name=additionalProperties"`
	// Schemas by property-name regex; forbidden in CRDs.
	PatternProperties map[string]JSONSchemaProps `json:"patternProperties,omitempty" protobuf:"bytes,31,rep,name=patternProperties"`
	// Property dependencies; forbidden in CRDs.
	Dependencies JSONSchemaDependencies `json:"dependencies,omitempty" protobuf:"bytes,32,rep,name=dependencies"`
	// The schema of elements past a tuple's items; forbidden in CRDs.
	AdditionalItems *JSONSchemaPropsOrBool `json:"additionalItems,omitempty" protobuf:"bytes,33,opt,name=additionalItems"`
	// Named schemas for $ref; forbidden in CRDs.
	Definitions JSONSchemaDefinitions `json:"definitions,omitempty" protobuf:"bytes,34,rep,name=definitions"`
	// A link to more documentation.
	ExternalDocs *ExternalDocumentation `json:"externalDocs,omitempty" protobuf:"bytes,35,opt,name=externalDocs"`
	// An example value; documentation only.
	Example *JSON `json:"example,omitempty" protobuf:"bytes,36,opt,name=example"`
	// Whether null is a valid value (otherwise a null is pruned when it has
	// a default, and refused if not).
	Nullable bool `json:"nullable,omitempty" protobuf:"varint,37,opt,name=nullable"`

	// x-kubernetes-preserve-unknown-fields keeps the fields the schema does
	// not name instead of pruning them; on a node without a type it also
	// allows any value.
	XPreserveUnknownFields *bool `json:"x-kubernetes-preserve-unknown-fields,omitempty" protobuf:"varint,38,opt,name=xKubernetesPreserveUnknownFields"`
	// x-kubernetes-embedded-resource says the object is a whole Kubernetes
	// object (apiVersion, kind, metadata), validated and pruned as one.
	XEmbeddedResource bool `json:"x-kubernetes-embedded-resource,omitempty" protobuf:"varint,39,opt,name=xKubernetesEmbeddedResource"`
	// x-kubernetes-int-or-string allows an integer or a string (like
	// IntOrString's "80" or "50%").
	XIntOrString bool `json:"x-kubernetes-int-or-string,omitempty" protobuf:"varint,40,opt,name=xKubernetesIntOrString"`
	// x-kubernetes-list-map-keys are the fields identifying an element of
	// a list of type map.
	XListMapKeys []string `json:"x-kubernetes-list-map-keys,omitempty" protobuf:"bytes,41,rep,name=xKubernetesListMapKeys" listType:"atomic"`
	// x-kubernetes-list-type is atomic, set or map: how server-side apply
	// merges the list, and (set, map) which duplicates are refused.
	XListType *string `json:"x-kubernetes-list-type,omitempty" protobuf:"bytes,42,opt,name=xKubernetesListType"`
	// x-kubernetes-map-type is granular or atomic: whether apply merges the
	// object's fields one by one or replaces it whole.
	XMapType *string `json:"x-kubernetes-map-type,omitempty" protobuf:"bytes,43,opt,name=xKubernetesMapType"`
	// x-kubernetes-validations are CEL rules evaluated on the node's value.
	XValidations ValidationRules `json:"x-kubernetes-validations,omitempty" patchStrategy:"merge" patchMergeKey:"rule" protobuf:"bytes,44,rep,name=xKubernetesValidations" listType:"map" listMapKey:"rule"`
}

// JSONSchemaURL is the $schema keyword's URL.
type JSONSchemaURL string

// ExternalDocumentation links to documentation elsewhere.
type ExternalDocumentation struct {
	Description string `json:"description,omitempty" protobuf:"bytes,1,opt,name=description"`
	URL         string `json:"url,omitempty" protobuf:"bytes,2,opt,name=url"`
}

// JSONSchemaDependencies maps a property to what its presence requires.
type JSONSchemaDependencies map[string]JSONSchemaPropsOrStringArray

// JSONSchemaDefinitions are named schemas.
type JSONSchemaDefinitions map[string]JSONSchemaProps

// ValidationRules are a node's CEL rules.
type ValidationRules []ValidationRule

// ValidationRule is one x-kubernetes-validations entry: a CEL expression
// over `self` (the node's value) and, in a transition rule, `oldSelf` (the
// stored value), which must be true.
type ValidationRule struct {
	// The CEL expression, e.g. "self.minReplicas <= self.replicas".
	Rule string `json:"rule" protobuf:"bytes,1,opt,name=rule"`
	// The message when the rule is false; defaults to
	// "failed rule: <rule>".
	Message string `json:"message,omitempty" protobuf:"bytes,2,opt,name=message"`
	// A CEL expression yielding the message; wins over message when it
	// evaluates to a non-empty single-line string.
	MessageExpression string `json:"messageExpression,omitempty" protobuf:"bytes,3,opt,name=messageExpression"`
	// The cause type reported: FieldValueInvalid (the default),
	// FieldValueForbidden, FieldValueRequired or FieldValueDuplicate.
	Reason *FieldValueErrorReason `json:"reason,omitempty" protobuf:"bytes,4,opt,name=reason"`
	// A path relative to the node (".spec.x", "['a.b']") the error is
	// reported at instead of the node itself.
	FieldPath string `json:"fieldPath,omitempty" protobuf:"bytes,5,opt,name=fieldPath"`
	// Whether a transition rule also runs when there is no old value
	// (oldSelf is then an optional).
	OptionalOldSelf *bool `json:"optionalOldSelf,omitempty" protobuf:"varint,6,opt,name=optionalOldSelf"`
}

// FieldValueErrorReason is the cause type a failed rule reports.
type FieldValueErrorReason string

// The reasons a ValidationRule may give.
const (
	FieldValueRequired  FieldValueErrorReason = "FieldValueRequired"
	FieldValueDuplicate FieldValueErrorReason = "FieldValueDuplicate"
	FieldValueInvalid   FieldValueErrorReason = "FieldValueInvalid"
	FieldValueForbidden FieldValueErrorReason = "FieldValueForbidden"
)

// JSON is any JSON value kept as its text (a default, an enum value, an
// example). On the JSON wire it is the value itself; in protobuf a
// message {1 raw}. The zero JSON is null.
type JSON struct {
	Raw []byte `json:"-" protobuf:"bytes,1,opt,name=raw"`
}

// JSONSchemaPropsOrArray is the items keyword: one schema for every element
// (what structural schemas allow), or a list of schemas, one per position.
type JSONSchemaPropsOrArray struct {
	Schema      *JSONSchemaProps  `protobuf:"bytes,1,opt,name=schema"`
	JSONSchemas []JSONSchemaProps `protobuf:"bytes,2,rep,name=jSONSchemas" listType:"atomic"`
}

// JSONSchemaPropsOrBool is additionalProperties (or additionalItems):
// true, false, or a schema (which implies true).
type JSONSchemaPropsOrBool struct {
	Allows bool             `protobuf:"varint,1,opt,name=allows"`
	Schema *JSONSchemaProps `protobuf:"bytes,2,opt,name=schema"`
}

// JSONSchemaPropsOrStringArray is a dependency: a schema, or the names of
// properties that must also be present.
type JSONSchemaPropsOrStringArray struct {
	Schema   *JSONSchemaProps `protobuf:"bytes,1,opt,name=schema"`
	Property []string         `protobuf:"bytes,2,rep,name=property" listType:"atomic"`
}
