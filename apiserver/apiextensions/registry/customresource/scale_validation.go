package customresource

import (
	"fmt"
	"math"

	"kubeloop/api"
	"kubeloop/apiserver/apiextensions/field"
)

// validateScale checks the values at the scale subresource's paths, which
// a schema may leave loose (or not declare): the replicas must be integers
// from 0 to MaxInt32 (the spec's only when spec is set: a status write
// does not judge the spec) and the label selector a string. Kubernetes:
// customResourceValidator.ValidateScaleSpec and ValidateScaleStatus
// (pkg/registry/customresource/validator.go), whose field paths are the
// CRD's own (".spec.replicas") and whose messages are unstructured's
// accessor errors.
func validateScale(scale *api.CustomResourceSubresourceScale, content map[string]any, spec bool) field.ErrorList {
	if scale == nil {
		return nil
	}
	var errs field.ErrorList
	if spec {
		errs = append(errs, replicasErrors(content, scale.SpecReplicasPath)...)
	}
	errs = append(errs, replicasErrors(content, scale.StatusReplicasPath)...)
	if p := scale.LabelSelectorPath; p != nil {
		if v, ok := api.NestedField(content, pathFields(*p)...); ok {
			if _, isString := v.(string); !isString {
				errs = append(errs, field.Invalid(field.Path(*p), "", accessorError(*p, v, "string")))
			}
		}
	}
	return errs
}

func replicasErrors(content map[string]any, path string) field.ErrorList {
	v, ok := api.NestedField(content, pathFields(path)...)
	if !ok {
		return nil
	}
	n, isInt := v.(int64)
	switch {
	case !isInt:
		return field.ErrorList{field.Invalid(field.Path(path), int64(0), accessorError(path, v, "int64"))}
	case n < 0:
		return field.ErrorList{field.Invalid(field.Path(path), n, "should be a non-negative integer")}
	case n > math.MaxInt32:
		return field.ErrorList{field.Invalid(field.Path(path), n, fmt.Sprintf("should be less than or equal to %v", math.MaxInt32))}
	}
	return nil
}

// accessorError is unstructured.NestedInt64's and NestedString's error.
func accessorError(path string, v any, want string) string {
	return fmt.Sprintf("%s accessor error: %v is of the type %T, expected %s", path, v, v, want)
}
