package client

import (
	"net/url"
	"strconv"

	"kubeloop/api"
)

// GetOptions are the query parameters of a GET of one object.
type GetOptions struct {
	// ResourceVersion "" reads the latest (from etcd); "0" accepts any cached
	// version.
	ResourceVersion string
}

// The resourceVersionMatch values.
const (
	ResourceVersionMatchNotOlderThan = "NotOlderThan"
	ResourceVersionMatchExact        = "Exact"
)

// ListOptions are the query parameters of a LIST and of a WATCH. They are
// api.ListOptions, so the reflector (which may not import client) and the
// client read the same struct, and DynamicResource and ListWatch satisfy the
// reflector's ListerWatcher as they are.
type ListOptions = api.ListOptions

// listQuery encodes o for a LIST (watch false) or a WATCH (watch true),
// whatever o.Watch says.
func listQuery(o ListOptions, watch bool) url.Values {
	o.Watch = watch
	if !watch {
		o.AllowWatchBookmarks, o.SendInitialEvents, o.TimeoutSeconds = false, nil, nil
	}
	return o.Query()
}

// FieldValidation values: what the server does with unknown or duplicate
// fields in a write.
const (
	FieldValidationStrict = "Strict"
	FieldValidationWarn   = "Warn"
	FieldValidationIgnore = "Ignore"
)

// CreateOptions are the query parameters of a POST.
type CreateOptions struct {
	FieldManager    string
	FieldValidation string
	DryRun          []string
}

// UpdateOptions are the query parameters of a PUT.
type UpdateOptions struct {
	FieldManager    string
	FieldValidation string
	DryRun          []string
}

// PatchOptions are the query parameters of a PATCH. Force is only meaningful
// for server-side apply.
type PatchOptions struct {
	FieldManager    string
	Force           *bool
	FieldValidation string
	DryRun          []string
}

func writeQuery(fieldManager, fieldValidation string, dryRun []string) url.Values {
	q := url.Values{}
	if fieldManager != "" {
		q.Set("fieldManager", fieldManager)
	}
	if fieldValidation != "" {
		q.Set("fieldValidation", fieldValidation)
	}
	for _, d := range dryRun {
		q.Add("dryRun", d)
	}
	return q
}

func (o CreateOptions) query() url.Values {
	return writeQuery(o.FieldManager, o.FieldValidation, o.DryRun)
}

func (o UpdateOptions) query() url.Values {
	return writeQuery(o.FieldManager, o.FieldValidation, o.DryRun)
}

func (o PatchOptions) query() url.Values {
	q := writeQuery(o.FieldManager, o.FieldValidation, o.DryRun)
	if o.Force != nil {
		q.Set("force", strconv.FormatBool(*o.Force))
	}
	return q
}

// PatchType is the Content-Type of a PATCH body; it picks the patch algorithm.
type PatchType string

// The patch types Kubernetes accepts.
const (
	JSONPatchType           PatchType = "application/json-patch+json"
	MergePatchType          PatchType = "application/merge-patch+json"
	StrategicMergePatchType PatchType = "application/strategic-merge-patch+json"
	ApplyPatchType          PatchType = "application/apply-patch+yaml"
)
