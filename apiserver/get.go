package apiserver

import (
	"fmt"
	"net/http"
	"strconv"
	"strings"

	"kubeloop/api"
	"kubeloop/store"
)

// get answers GET on one object (and on its status subresource, which
// reads the same object). Kubernetes: endpoints/handlers/get.go, GetResource.
func (s *Server) get(w http.ResponseWriter, r *http.Request, sc *scope) {
	tr, err := wantsTable(r)
	if err != nil {
		writeStatus(w, err)
		return
	}
	obj, err := sc.storage.Get(r.Context(), sc.key(), getOptions(r))
	if err != nil {
		writeStatus(w, err)
		return
	}
	if tr != nil && sc.ri.Subresource == "" {
		writeJSON(w, http.StatusOK, tr.toTable(sc.info, []api.Object{obj}, api.ListMeta{ResourceVersion: obj.GetObjectMeta().ResourceVersion}))
		return
	}
	writeJSON(w, http.StatusOK, withTypeMeta(sc.info, obj))
}

// list answers GET on a collection. Kubernetes: endpoints/handlers/get.go,
// ListResource.
func (s *Server) list(w http.ResponseWriter, r *http.Request, sc *scope) {
	opts, err := listOptions(r, sc.info, false)
	if err != nil {
		writeStatus(w, err)
		return
	}
	tr, err := wantsTable(r)
	if err != nil {
		writeStatus(w, err)
		return
	}
	res, err := sc.storage.List(r.Context(), sc.prefix(), opts)
	if err != nil {
		writeStatus(w, err)
		return
	}
	if tr != nil {
		lm := api.ListMeta{ResourceVersion: strconv.FormatUint(res.ResourceVersion, 10), Continue: res.Continue, RemainingItemCount: res.RemainingItemCount}
		writeJSON(w, http.StatusOK, tr.toTable(sc.info, res.Items, lm))
		return
	}
	writeJSON(w, http.StatusOK, toList(sc.info, res))
}

// toList wraps a store page into the kind's List with its metadata.
func toList(info *api.ResourceInfo, res *store.ListResult) api.ListObject {
	list := info.NewList()
	items := make([]api.Object, len(res.Items))
	for i, it := range res.Items {
		items[i] = withTypeMeta(info, it)
	}
	list.SetItems(items)
	tm := list.GetTypeMeta()
	tm.Kind, tm.APIVersion = info.ListKind(), info.GroupVersion()
	lm := list.GetListMeta()
	lm.ResourceVersion = strconv.FormatUint(res.ResourceVersion, 10)
	lm.Continue = res.Continue
	lm.RemainingItemCount = res.RemainingItemCount
	return list
}

// withTypeMeta returns obj with apiVersion and kind set, copying it first if
// they are missing: objects from the watch cache are shared and read-only.
func withTypeMeta(info *api.ResourceInfo, obj api.Object) api.Object {
	tm := obj.GetTypeMeta()
	if tm.Kind == info.Kind && tm.APIVersion == info.GroupVersion() {
		return obj
	}
	obj = obj.DeepCopyObject()
	tm = obj.GetTypeMeta()
	tm.Kind, tm.APIVersion = info.Kind, info.GroupVersion()
	return obj
}

// listOptions reads the query of a LIST or WATCH and checks it the way
// Kubernetes' ValidateListOptions does
// (staging/src/k8s.io/apimachinery/pkg/apis/meta/internalversion/validation).
func listOptions(r *http.Request, info *api.ResourceInfo, watch bool) (store.ListOptions, error) {
	q := r.URL.Query()
	var opts store.ListOptions
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
	opts.AllowWatchBookmarks = isTrue(q.Get("allowWatchBookmarks"))
	if v, ok := q["sendInitialEvents"]; ok && len(v) > 0 {
		b := isTrue(v[0])
		opts.SendInitialEvents = &b
	}
	if causes := validateListOptions(opts, watch); len(causes) > 0 {
		return opts, newInvalidQualified("meta.k8s.io", "ListOptions", "", causes)
	}
	return opts, nil
}

func validateListOptions(opts store.ListOptions, watch bool) []api.StatusCause {
	var causes []api.StatusCause
	forbidden := func(field, msg string) {
		causes = append(causes, fieldCause(api.CauseTypeFieldValueForbidden, field, "Forbidden: "+msg))
	}
	match := opts.ResourceVersionMatch
	if match != "" && match != store.ResourceVersionMatchExact && match != store.ResourceVersionMatchNotOlderThan {
		causes = append(causes, fieldCause(api.CauseTypeFieldValueNotSupported, "resourceVersionMatch",
			fmt.Sprintf(`Unsupported value: %q: supported values: "Exact", "NotOlderThan", ""`, match)))
	}
	if watch {
		if opts.SendInitialEvents != nil && match != store.ResourceVersionMatchNotOlderThan {
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
		if match == store.ResourceVersionMatchExact && opts.ResourceVersion == "0" {
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
