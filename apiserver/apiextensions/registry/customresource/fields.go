package customresource

import (
	"fmt"
	"strconv"

	"kubeloop/api"
	"kubeloop/apiserver/apiextensions/jsonpath"
)

// setSelectableFields makes the version's selectableFields usable in field
// selectors beside metadata.name and, for a namespaced kind,
// metadata.namespace: Fields reads each path's value as text (a missing
// field is ""), FieldLabelConversion accepts exactly those names (so a
// cluster-scoped kind refuses metadata.namespace, as Kubernetes' does).
// Kubernetes: conversion/converter.go (crConverter.ConvertFieldLabel) and
// pkg/registry/customresource/strategy.go (objectMetaFieldsSet,
// selectableFieldsSet).
func setSelectableFields(info *api.ResourceInfo, fields []api.SelectableField) error {
	known := map[string]bool{"metadata.name": true, "metadata.namespace": info.Namespaced}
	info.FieldLabelConversion = func(label, value string) (string, string, error) {
		if !known[label] {
			return "", "", fmt.Errorf("field label not supported: %s", label)
		}
		return label, value, nil
	}
	if len(fields) == 0 {
		return nil
	}
	type field struct {
		name string
		path *jsonpath.Path
	}
	var parsed []field
	for _, f := range fields {
		p, err := jsonpath.Parse(f.JSONPath)
		if err != nil {
			return err
		}
		name := f.JSONPath[1:] // ".spec.color" selects as "spec.color"
		parsed = append(parsed, field{name: name, path: p})
		known[name] = true
	}
	info.Fields = func(obj api.Object) map[string]string {
		u := obj.(*api.Unstructured)
		out := make(map[string]string, len(parsed))
		for _, f := range parsed {
			out[f.name] = ""
			if vals := f.path.Find(u.Content); len(vals) == 1 {
				out[f.name] = scalarText(vals[0])
			}
		}
		return out
	}
	return nil
}

// scalarText is a string, integer or boolean as a field selector compares
// it.
func scalarText(v any) string {
	switch t := v.(type) {
	case string:
		return t
	case int64:
		return strconv.FormatInt(t, 10)
	case bool:
		return strconv.FormatBool(t)
	case float64:
		return strconv.FormatFloat(t, 'f', -1, 64)
	}
	return ""
}
