package handlers

import (
	"fmt"
	"net/http"
	"strconv"
	"strings"

	"kubeloop/api"
	"kubeloop/apiserver/endpoints/request"
	"kubeloop/apiserver/registry/rest"
)

// listOptions reads the query of a LIST, WATCH or DELETE collection and
// checks it the way Kubernetes' ValidateListOptions does
// (staging/src/k8s.io/apimachinery/pkg/apis/meta/internalversion/validation).
func listOptions(r *http.Request, info *api.ResourceInfo, watch bool) (rest.ListOptions, error) {
	q := r.URL.Query()
	var opts rest.ListOptions
	if ls := q.Get("labelSelector"); ls != "" {
		sel, err := api.ParseSelector(ls)
		if err != nil {
			return opts, api.NewBadRequest(fmt.Sprintf("unable to parse requirement: %v", err))
		}
		opts.Predicate.Label = sel
	}
	if fs := q.Get("fieldSelector"); fs != "" {
		sel, err := api.ParseFieldSelector(fs)
		if err != nil {
			return opts, api.NewBadRequest(fmt.Sprintf("invalid field selector: %v", err))
		}
		supported := info.ObjectFields(info.New())
		for _, f := range fieldSelectorKeys(fs) {
			if _, ok := supported[f]; !ok {
				return opts, api.NewBadRequest(fmt.Sprintf("field label not supported: %s", f))
			}
		}
		opts.Predicate.Field = sel
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
	return opts, nil
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

// fieldSelectorKeys returns the field names a selector string mentions, so
// an unsupported one can be refused before the store sees it. Backslash
// escapes in values are skipped over.
func fieldSelectorKeys(s string) []string {
	var keys []string
	for _, term := range splitUnescaped(s, ',') {
		term = strings.TrimSpace(term)
		if term == "" {
			continue
		}
		i := strings.IndexAny(term, "!=")
		if i < 0 {
			keys = append(keys, term)
			continue
		}
		keys = append(keys, strings.TrimSpace(term[:i]))
	}
	return keys
}

func splitUnescaped(s string, sep byte) []string {
	var out []string
	start := 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case sep:
			out = append(out, s[start:i])
			start = i + 1
		}
	}
	return append(out, s[start:])
}
