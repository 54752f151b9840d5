package handlers

import (
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"kubeloop/api"
	"kubeloop/apiserver/endpoints/request"
	"kubeloop/apiserver/registry/rest"
)

// listOptions reads the query of a LIST, WATCH or DELETE collection and
// checks it the way Kubernetes' listOpts does: the selectors are parsed
// (a syntax error is a 400 whose message is the parser's, word for word),
// ValidateListOptions runs (422), and then every field the field selector
// names goes through the kind's field label conversion (400).
// Kubernetes: staging/src/k8s.io/apiserver/pkg/endpoints/handlers/get.go
// (listOpts) and apimachinery/pkg/apis/meta/internalversion/validation.
func listOptions(r *http.Request, info *api.ResourceInfo, watch bool) (rest.ListOptions, error) {
	q := query(r)
	var opts rest.ListOptions
	if ls := q.Get("labelSelector"); ls != "" {
		sel, err := api.ParseSelector(ls)
		if err != nil {
			return opts, api.NewBadRequest(err.Error())
		}
		opts.Predicate.Label = sel
	}
	var fields api.FieldSelector
	if fs := q.Get("fieldSelector"); fs != "" {
		sel, err := api.ParseFieldSelector(fs)
		if err != nil {
			return opts, api.NewBadRequest(err.Error())
		}
		fields = sel
	}
	if l := q.Get("limit"); l != "" {
		n, err := strconv.ParseInt(l, 10, 64)
		if err != nil || n < 0 {
			return opts, api.NewBadRequest(fmt.Sprintf("invalid limit %q", l))
		}
		opts.Predicate.Limit = n
	}
	opts.Predicate.Continue = q.Get("continue")
	opts.ResourceVersion = q.Get("resourceVersion")
	opts.ResourceVersionMatch = q.Get("resourceVersionMatch")
	opts.AllowWatchBookmarks = request.IsTrue(q.Get("allowWatchBookmarks"))
	if v, ok := q["sendInitialEvents"]; ok && len(v) > 0 {
		b := request.IsTrue(v[0])
		opts.SendInitialEvents = &b
	}
	if causes := validateListOptions(opts, watch); len(causes) > 0 {
		return opts, newInvalidQualified("meta.k8s.io", "ListOptions", "", causes)
	}
	if fields != nil {
		sel, err := convertFieldLabels(fields, info)
		if err != nil {
			return opts, err
		}
		opts.Predicate.Field = sel
	}
	return opts, nil
}

// convertFieldLabels passes every clause of a field selector through the
// kind's field label conversion: a field the kind does not support is a
// 400 with the conversion's message ("field label not supported: x" for a
// pod), and a renamed field (a pod's spec.host) takes its new name. The
// fields are checked as the parser produced them, untrimmed, so
// "metadata.name =x" names the unknown field "metadata.name ". Kubernetes
// visits the clauses in the order of their text, which decides the field
// the message names when several are unknown; a clause's String sorts the
// same way.
func convertFieldLabels(sel api.FieldSelector, info *api.ResourceInfo) (api.FieldSelector, error) {
	reqs := slices.Clone(sel.Requirements())
	slices.SortStableFunc(reqs, func(a, b api.FieldRequirement) int { return strings.Compare(a.String(), b.String()) })
	out, err := reqs.Transform(info.ConvertFieldLabel)
	if err != nil {
		return nil, api.NewBadRequest(err.Error())
	}
	return out, nil
}

func validateListOptions(opts rest.ListOptions, watch bool) []api.StatusCause {
	var causes []api.StatusCause
	forbidden := func(field, msg string) {
		causes = append(causes, api.StatusCause{Type: api.CauseTypeFieldValueForbidden, Field: field, Message: "Forbidden: " + msg})
	}
	match := opts.ResourceVersionMatch
	if match != "" && match != rest.ResourceVersionMatchExact && match != rest.ResourceVersionMatchNotOlderThan {
		causes = append(causes, api.StatusCause{Type: api.CauseTypeFieldValueNotSupported, Field: "resourceVersionMatch",
			Message: fmt.Sprintf(`Unsupported value: %q: supported values: "Exact", "NotOlderThan", ""`, match)})
	}
	if watch {
		if opts.SendInitialEvents != nil && match != rest.ResourceVersionMatchNotOlderThan {
			forbidden("resourceVersionMatch", "sendInitialEvents requires setting resourceVersionMatch to NotOlderThan")
		}
		if match != "" && opts.SendInitialEvents == nil {
			forbidden("resourceVersionMatch", "resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided")
		}
		return causes
	}
	if match != "" {
		if opts.ResourceVersion == "" {
			forbidden("resourceVersionMatch", "resourceVersionMatch is forbidden unless resourceVersion is provided")
		}
		if opts.Predicate.Continue != "" {
			forbidden("resourceVersionMatch", "resourceVersionMatch is forbidden when continue is provided")
		}
		if match == rest.ResourceVersionMatchExact && opts.ResourceVersion == "0" {
			forbidden("resourceVersionMatch", `resourceVersionMatch "exact" is forbidden for resourceVersion "0"`)
		}
	}
	if opts.SendInitialEvents != nil {
		forbidden("sendInitialEvents", "sendInitialEvents is forbidden for list")
	}
	return causes
}
