package openapi

import (
	"kubeloop/apiserver/openapi/spec"
)

// The two document versions differ in where parameters keep their type
// and where bodies keep their schema: Swagger 2.0 has "type" on the
// parameter, a body parameter, "consumes"/"produces" and one schema per
// response; OpenAPI 3.0 has a schema per parameter, a requestBody and a
// schema per response media type.

var statusText = map[string]string{"200": "OK", "201": "Created", "202": "Accepted"}

func (p pathItem) v2() map[string]any {
	out := map[string]any{"parameters": parametersV2(p.parameters)}
	for _, op := range p.operations {
		out[op.method] = op.v2()
	}
	return out
}

func (op operation) v2() map[string]any {
	out := op.common()
	params := parametersV2(op.parameters)
	if op.request != "" {
		body := map[string]any{"in": "body", "name": "body", "schema": map[string]any{"$ref": spec.RefV2(op.request)}}
		if op.request != deleteOptionsName { // a DELETE may have no body
			body["required"] = true
		}
		params = append([]any{body}, params...)
		out["consumes"] = op.consumes
	}
	if len(params) > 0 {
		out["parameters"] = params
	}
	produces := objectTypes
	if op.watch {
		produces = append(append([]string{}, objectTypes...), watchTypes...)
	}
	out["produces"] = produces
	responses := map[string]any{"401": map[string]any{"description": "Unauthorized"}}
	for _, code := range append([]string{"200"}, op.codes...) {
		responses[code] = map[string]any{"description": statusText[code], "schema": map[string]any{"$ref": spec.RefV2(op.response)}}
	}
	out["responses"] = responses
	return out
}

func parametersV2(ps []parameter) []any {
	out := []any{}
	for _, p := range ps {
		m := map[string]any{"name": p.name, "in": p.in, "type": p.typ, "description": p.description, "uniqueItems": true}
		if p.required {
			m["required"] = true
		}
		out = append(out, m)
	}
	return out
}

func (p pathItem) v3() map[string]any {
	out := map[string]any{"parameters": parametersV3(p.parameters)}
	for _, op := range p.operations {
		out[op.method] = op.v3()
	}
	return out
}

func (op operation) v3() map[string]any {
	out := op.common()
	if params := parametersV3(op.parameters); len(params) > 0 {
		out["parameters"] = params
	}
	if op.request != "" {
		content := map[string]any{}
		for _, mt := range op.consumes {
			content[mt] = map[string]any{"schema": map[string]any{"$ref": spec.RefV3(op.request)}}
		}
		out["requestBody"] = map[string]any{"content": content}
	}
	mediaTypes := objectTypes
	if op.watch {
		mediaTypes = append(append([]string{}, objectTypes...), watchTypes...)
	}
	responses := map[string]any{"401": map[string]any{"description": "Unauthorized"}}
	for _, code := range append([]string{"200"}, op.codes...) {
		content := map[string]any{}
		for _, mt := range mediaTypes {
			content[mt] = map[string]any{"schema": map[string]any{"$ref": spec.RefV3(op.response)}}
		}
		responses[code] = map[string]any{"description": statusText[code], "content": content}
	}
	out["responses"] = responses
	return out
}

func parametersV3(ps []parameter) []any {
	out := []any{}
	for _, p := range ps {
		m := map[string]any{"name": p.name, "in": p.in, "description": p.description,
			"schema": map[string]any{"type": p.typ, "uniqueItems": true}}
		if p.required {
			m["required"] = true
		}
		out = append(out, m)
	}
	return out
}

// common is what both versions say alike: the description, the
// operationId, the tag and the two extensions kubectl reads.
func (op operation) common() map[string]any {
	return map[string]any{
		"description":                     op.description,
		"operationId":                     op.id,
		"tags":                            []string{op.tag},
		"x-kubernetes-action":             op.action,
		"x-kubernetes-group-version-kind": op.gvk,
	}
}
