package validation

import (
	"fmt"
	"strings"

	"kubeloop/api"
	"kubeloop/apiserver/apiextensions/field"
	"kubeloop/apiserver/apiextensions/schema/validate"
)

// ValidateCustomResourceDefinition checks a CRD on create: its metadata
// (a cluster-scoped name equal to "<plural>.<group>"), its spec, its
// status names and stored versions, the API-approval annotation of
// protected groups, and preserveUnknownFields. Run SetDefaults first, as
// the apiserver does while decoding.
func ValidateCustomResourceDefinition(crd *api.CustomResourceDefinition) field.ErrorList {
	errs := validateMetadata(crd)
	errs = append(errs, validateSpec(&crd.Spec, field.NewPath("spec"))...)
	errs = append(errs, ValidateCustomResourceDefinitionNames(&crd.Status.AcceptedNames, field.NewPath("status", "acceptedNames"))...)
	errs = append(errs, ValidateStoredVersions(crd.Status.StoredVersions, crd.Spec.Versions, field.NewPath("status", "storedVersions"))...)
	errs = append(errs, validateAPIApproval(crd, nil)...)
	return append(errs, validatePreserveUnknownFields(crd, nil)...)
}

// ValidateCustomResourceDefinitionUpdate checks a CRD replacing old: all
// of the create rules (but the name rule, which cannot change anyway),
// and group and names.plural may never change; scope and names.kind not
// once the CRD is Established.
func ValidateCustomResourceDefinitionUpdate(crd, old *api.CustomResourceDefinition) field.ErrorList {
	var errs field.ErrorList
	if crd.Name != old.Name {
		errs = append(errs, field.Invalid(field.NewPath("metadata", "name"), crd.Name, immutable))
	}
	errs = append(errs, validateSpec(&crd.Spec, field.NewPath("spec"))...)
	sp := field.NewPath("spec")
	if isEstablished(old) {
		if crd.Spec.Scope != old.Spec.Scope {
			errs = append(errs, field.Invalid(sp.Child("scope"), crd.Spec.Scope, immutable))
		}
		if crd.Spec.Names.Kind != old.Spec.Names.Kind {
			errs = append(errs, field.Invalid(sp.Child("names", "kind"), crd.Spec.Names.Kind, immutable))
		}
	}
	if crd.Spec.Group != old.Spec.Group {
		errs = append(errs, field.Invalid(sp.Child("group"), crd.Spec.Group, immutable))
	}
	if crd.Spec.Names.Plural != old.Spec.Names.Plural {
		errs = append(errs, field.Invalid(sp.Child("names", "plural"), crd.Spec.Names.Plural, immutable))
	}
	errs = append(errs, ValidateCustomResourceDefinitionNames(&crd.Status.AcceptedNames, field.NewPath("status", "acceptedNames"))...)
	errs = append(errs, ValidateStoredVersions(crd.Status.StoredVersions, crd.Spec.Versions, field.NewPath("status", "storedVersions"))...)
	errs = append(errs, validateAPIApproval(crd, old)...)
	return append(errs, validatePreserveUnknownFields(crd, old)...)
}

// ValidateCustomResourceDefinitionStatusUpdate checks a write to /status:
// only the accepted names are validated.
func ValidateCustomResourceDefinitionStatusUpdate(crd, old *api.CustomResourceDefinition) field.ErrorList {
	return ValidateCustomResourceDefinitionNames(&crd.Status.AcceptedNames, field.NewPath("status", "acceptedNames"))
}

// immutable is ValidateImmutableField's detail.
const immutable = "field is immutable"

func isEstablished(crd *api.CustomResourceDefinition) bool {
	for _, c := range crd.Status.Conditions {
		if c.Type == api.CRDEstablished {
			return c.Status == api.ConditionTrue
		}
	}
	return false
}

func validateMetadata(crd *api.CustomResourceDefinition) field.ErrorList {
	var errs field.ErrorList
	mp := field.NewPath("metadata")
	name := crd.Name
	switch {
	case name == "" && crd.GenerateName == "":
		errs = append(errs, field.Required(mp.Child("name"), "name or generateName is required"))
	case name != "":
		for _, msg := range api.NameIsDNSSubdomain(name, false) {
			errs = append(errs, field.Invalid(mp.Child("name"), name, msg))
		}
		if name != crd.Spec.Names.Plural+"."+crd.Spec.Group {
			errs = append(errs, field.Invalid(mp.Child("name"), name, `must be spec.names.plural+"."+spec.group`))
		}
	}
	if crd.Namespace != "" {
		errs = append(errs, field.Forbidden(mp.Child("namespace"), "not allowed on this type"))
	}
	return errs
}

func validateSpec(spec *api.CustomResourceDefinitionSpec, p field.Path) field.ErrorList {
	var errs field.ErrorList
	switch {
	case spec.Group == "":
		errs = append(errs, field.Required(p.Child("group"), ""))
	case len(api.IsDNS1123Subdomain(spec.Group)) > 0:
		errs = append(errs, field.Invalid(p.Child("group"), spec.Group, strings.Join(api.IsDNS1123Subdomain(spec.Group), ",")))
	case !strings.Contains(spec.Group, "."):
		errs = append(errs, field.Invalid(p.Child("group"), spec.Group, "should be a domain with at least one dot"))
	}
	errs = append(errs, enumString(p.Child("scope"), string(spec.Scope), []string{string(api.ClusterScoped), string(api.NamespaceScoped)})...)

	storage, names, unique := 0, map[string]bool{}, true
	for i := range spec.Versions {
		v := &spec.Versions[i]
		vp := p.Child("versions").Index(i)
		if v.Storage {
			storage++
		}
		if names[v.Name] {
			unique = false
		}
		names[v.Name] = true
		if msgs := validate.IsDNS1035Label(v.Name); len(msgs) > 0 {
			errs = append(errs, field.Invalid(vp.Child("name"), v.Name, strings.Join(msgs, ",")))
		}
		if v.Schema == nil || v.Schema.OpenAPIV3Schema == nil {
			errs = append(errs, field.Required(vp.Child("schema", "openAPIV3Schema"), ""))
		}
		errs = append(errs, validateVersion(v, vp)...)
	}
	if !unique {
		errs = append(errs, field.Invalid(p.Child("versions"), spec.Versions, "must contain unique version names"))
	}
	if storage != 1 {
		errs = append(errs, field.Invalid(p.Child("versions"), spec.Versions, "must have exactly one version marked as storage version"))
	}

	for _, n := range []struct{ name, value string }{
		{"plural", spec.Names.Plural}, {"singular", spec.Names.Singular},
		{"kind", spec.Names.Kind}, {"listKind", spec.Names.ListKind},
	} {
		if n.value == "" {
			errs = append(errs, field.Required(p.Child("names", n.name), ""))
		}
	}
	errs = append(errs, ValidateCustomResourceDefinitionNames(&spec.Names, p.Child("names"))...)

	if c := spec.Conversion; c != nil && c.Strategy != api.NoneConverter && spec.PreserveUnknownFields {
		errs = append(errs, field.Invalid(p.Child("conversion", "strategy"), c.Strategy, "must be None if spec.preserveUnknownFields is true"))
	}
	return append(errs, validateConversion(spec.Conversion, p.Child("conversion"))...)
}

func enumString(p field.Path, value string, accepted []string) field.ErrorList {
	if value == "" {
		return field.ErrorList{field.Required(p, "")}
	}
	for _, a := range accepted {
		if a == value {
			return nil
		}
	}
	return field.ErrorList{field.NotSupported(p, value, accepted)}
}

// validateVersion checks one version: its deprecation warning, schema,
// subresources, printer columns and selectable fields.
func validateVersion(v *api.CustomResourceDefinitionVersion, p field.Path) field.ErrorList {
	var errs field.ErrorList
	if w := v.DeprecationWarning; w != nil {
		switch {
		case !v.Deprecated:
			errs = append(errs, field.Invalid(p.Child("deprecationWarning"), *w, "can only be set for deprecated versions"))
		case len(*w) > 256:
			errs = append(errs, field.Invalid(p.Child("deprecationWarning"), *w, "must be <= 256 characters long"))
		}
	}
	statusEnabled := v.Subresources != nil && v.Subresources.Status != nil
	ss, schemaErrs := validateCustomResourceValidation(v.Schema, statusEnabled, p.Child("schema"))
	errs = append(errs, schemaErrs...)
	errs = append(errs, validateSubresources(v.Subresources, p.Child("subresources"))...)
	for i := range v.AdditionalPrinterColumns {
		errs = append(errs, validateColumn(&v.AdditionalPrinterColumns[i], p.Child("additionalPrinterColumns").Index(i))...)
	}
	if len(v.SelectableFields) > 0 {
		if v.Schema == nil || v.Schema.OpenAPIV3Schema == nil {
			errs = append(errs, field.Invalid(p.Child("selectableFields"), "", "may only be set when `version.schema.openAPIV3Schema` is not included"))
		} else if ss != nil {
			errs = append(errs, validateSelectableFields(v.SelectableFields, ss, p.Child("selectableFields"))...)
		}
	}
	return errs
}

// ValidateStoredVersions: status.storedVersions is not empty, holds the
// storage version, and names only versions still in spec.versions.
func ValidateStoredVersions(stored []string, versions []api.CustomResourceDefinitionVersion, p field.Path) field.ErrorList {
	if len(stored) == 0 {
		return field.ErrorList{field.Invalid(p, stored, "must have at least one stored version")}
	}
	var errs field.ErrorList
	index := map[string]int{}
	for i, v := range stored {
		index[v] = i
	}
	for _, v := range versions {
		_, ok := index[v.Name]
		if v.Storage && !ok {
			errs = append(errs, field.Invalid(p, stored, "must have the storage version "+v.Name))
		}
		delete(index, v.Name)
	}
	for i, v := range stored {
		if _, missing := index[v]; missing {
			errs = append(errs, field.Invalid(p.Index(i), v, fmt.Sprintf("missing from spec.versions; %[1]s was previously a storage version, and must remain in spec.versions until a storage migration ensures no data remains persisted in %[1]s and removes %[1]s from status.storedVersions", v)))
		}
	}
	return errs
}

// validateConversion. The paths are those of Kubernetes' internal
// version, which every apiserver error shows: spec.conversion.webhookClientConfig
// and spec.conversion.conversionReviewVersions, not their v1 places under
// spec.conversion.webhook.
func validateConversion(c *api.CustomResourceConversion, p field.Path) field.ErrorList {
	if c == nil {
		return nil
	}
	errs := enumString(p.Child("strategy"), string(c.Strategy), []string{string(api.NoneConverter), string(api.WebhookConverter)})
	var cc *api.WebhookClientConfig
	var reviewVersions []string
	if c.Webhook != nil {
		cc, reviewVersions = c.Webhook.ClientConfig, c.Webhook.ConversionReviewVersions
	}
	if c.Strategy == api.WebhookConverter {
		switch {
		case cc == nil:
			errs = append(errs, field.Required(p.Child("webhookClientConfig"), "required when strategy is set to Webhook"))
		case (cc.URL == nil) == (cc.Service == nil):
			errs = append(errs, field.Required(p.Child("webhookClientConfig"), "exactly one of url or service is required"))
		}
		return append(errs, validateConversionReviewVersions(reviewVersions, p.Child("conversionReviewVersions"))...)
	}
	if cc != nil {
		errs = append(errs, field.Forbidden(p.Child("webhookClientConfig"), "should not be set when strategy is not set to Webhook"))
	}
	if len(reviewVersions) > 0 {
		errs = append(errs, field.Forbidden(p.Child("conversionReviewVersions"), "should not be set when strategy is not set to Webhook"))
	}
	return errs
}

func validateConversionReviewVersions(versions []string, p field.Path) field.ErrorList {
	if len(versions) == 0 {
		return field.ErrorList{field.Required(p, "")}
	}
	var errs field.ErrorList
	seen, recognized := map[string]bool{}, false
	for i, v := range versions {
		if seen[v] {
			errs = append(errs, field.Invalid(p.Index(i), v, "duplicate version"))
			continue
		}
		seen[v] = true
		for _, msg := range validate.IsDNS1035Label(v) {
			errs = append(errs, field.Invalid(p.Index(i), v, msg))
		}
		recognized = recognized || v == "v1" || v == "v1beta1"
	}
	if !recognized {
		errs = append(errs, field.Invalid(p, versions, "must include at least one of v1, v1beta1"))
	}
	return errs
}

// validateAPIApproval: a group under k8s.io or kubernetes.io belongs to
// the Kubernetes project and needs the api-approved.kubernetes.io
// annotation, a URL or a value starting with "unapproved".
func validateAPIApproval(crd, old *api.CustomResourceDefinition) field.ErrorList {
	g := crd.Spec.Group
	protected := g == "k8s.io" || g == "kubernetes.io" || strings.HasSuffix(g, ".k8s.io") || strings.HasSuffix(g, ".kubernetes.io")
	if !protected {
		return nil
	}
	ap := field.NewPath("metadata", "annotations").Key(api.KubeAPIApprovedAnnotation)
	value, ok := crd.Annotations[api.KubeAPIApprovedAnnotation]
	if old != nil {
		if oldValue, oldOK := old.Annotations[api.KubeAPIApprovedAnnotation]; oldOK == ok && oldValue == value {
			return nil
		}
	}
	switch {
	case !ok:
		return field.ErrorList{field.Required(ap, fmt.Sprintf("protected groups must have approval annotation %q, see https://github.com/kubernetes/enhancements/pull/1111", api.KubeAPIApprovedAnnotation))}
	case strings.HasPrefix(value, "unapproved"):
		return nil
	case strings.HasPrefix(value, "https://") || strings.HasPrefix(value, "http://"):
		return nil
	}
	return field.ErrorList{field.Invalid(ap, value, fmt.Sprintf("protected groups must have approval annotation %q with either a URL or a reason starting with \"unapproved\", see https://github.com/kubernetes/enhancements/pull/1111", api.KubeAPIApprovedAnnotation))}
}

// validatePreserveUnknownFields: v1 allows true only on a CRD that already
// had it (legacy v1beta1 objects being migrated).
func validatePreserveUnknownFields(crd, old *api.CustomResourceDefinition) field.ErrorList {
	if old != nil && old.Spec.PreserveUnknownFields {
		return nil
	}
	if crd.Spec.PreserveUnknownFields {
		return field.ErrorList{field.Invalid(field.NewPath("spec", "preserveUnknownFields"), true, "cannot set to true, set x-kubernetes-preserve-unknown-fields to true in spec.versions[*].schema instead")}
	}
	return nil
}
