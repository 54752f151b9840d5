package watchcache

import (
	"fmt"
	"strconv"
	"strings"

	"kubeloop/api"
	"kubeloop/store"
)

// validateWatchOptions rejects the combinations Kubernetes rejects for a
// watch (apimachinery internalversion/validation: validateWatchOptions).
// The apiserver validates too; doing it here keeps the cache safe when it
// is called directly. A WatchList client that gets this 422 falls back to
// LIST + WATCH.
func validateWatchOptions(opts store.ListOptions) error {
	var causes []api.StatusCause
	match := opts.ResourceVersionMatch
	if opts.SendInitialEvents != nil && match != store.ResourceVersionMatchNotOlderThan {
		causes = append(causes, forbidden("resourceVersionMatch",
			"sendInitialEvents requires setting resourceVersionMatch to "+store.ResourceVersionMatchNotOlderThan))
	}
	if match != "" {
		if opts.SendInitialEvents == nil {
			causes = append(causes, forbidden("resourceVersionMatch",
				"resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided"))
		}
		if match != store.ResourceVersionMatchNotOlderThan {
			causes = append(causes, notSupported("resourceVersionMatch", match, store.ResourceVersionMatchNotOlderThan))
		}
		if opts.Predicate.Continue != "" {
			causes = append(causes, forbidden("resourceVersionMatch",
				"resourceVersionMatch is forbidden when continue is provided"))
		}
	}
	return listOptionsInvalid(causes)
}

// validateListOptions is the list half of the same validation.
func validateListOptions(opts store.ListOptions) error {
	var causes []api.StatusCause
	if match := opts.ResourceVersionMatch; match != "" {
		if opts.ResourceVersion == "" {
			causes = append(causes, forbidden("resourceVersionMatch",
				"resourceVersionMatch is forbidden unless resourceVersion is provided"))
		}
		if opts.Predicate.Continue != "" {
			causes = append(causes, forbidden("resourceVersionMatch",
				"resourceVersionMatch is forbidden when continue is provided"))
		}
		if match != store.ResourceVersionMatchExact && match != store.ResourceVersionMatchNotOlderThan {
			causes = append(causes, notSupported("resourceVersionMatch", match,
				store.ResourceVersionMatchExact, store.ResourceVersionMatchNotOlderThan, ""))
		}
		if match == store.ResourceVersionMatchExact && opts.ResourceVersion == "0" {
			causes = append(causes, forbidden("resourceVersionMatch",
				`resourceVersionMatch "exact" is forbidden for resourceVersion "0"`))
		}
	}
	if opts.SendInitialEvents != nil {
		causes = append(causes, forbidden("sendInitialEvents", "sendInitialEvents is forbidden for list"))
	}
	return listOptionsInvalid(causes)
}

func forbidden(field, msg string) api.StatusCause {
	return api.StatusCause{Type: api.CauseTypeFieldValueForbidden, Field: field, Message: "Forbidden: " + msg}
}

func notSupported(field, value string, supported ...string) api.StatusCause {
	quoted := make([]string, len(supported))
	for i, s := range supported {
		quoted[i] = strconv.Quote(s)
	}
	return api.StatusCause{Type: api.CauseTypeFieldValueNotSupported, Field: field,
		Message: fmt.Sprintf("Unsupported value: %q: supported values: %s", value, strings.Join(quoted, ", "))}
}

// listOptionsInvalid is 422 about the "ListOptions.meta.k8s.io" pseudo
// object, worded as Kubernetes words it.
func listOptionsInvalid(causes []api.StatusCause) error {
	if len(causes) == 0 {
		return nil
	}
	return api.NewInvalid("meta.k8s.io", "ListOptions", "", causes)
}

// parseResourceVersion reads "" and "0" as 0; anything else must be a
// positive integer (400 otherwise, as Kubernetes' versioner answers).
func parseResourceVersion(rv string) (uint64, error) {
	if rv == "" {
		return 0, nil
	}
	n, err := strconv.ParseUint(rv, 10, 64)
	if err != nil {
		return 0, api.NewBadRequest(fmt.Sprintf("invalid resource version %q: %v", rv, err))
	}
	return n, nil
}
