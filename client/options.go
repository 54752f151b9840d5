package client

import (
	"net/url"
	"strconv"
)

// GetOptions are the query parameters of a GET of one object.
type GetOptions struct {
	// ResourceVersion "" reads the latest (from etcd); "0" accepts any cached
	// version.
	ResourceVersion string
}

// ResourceVersionMatch says how a list's ResourceVersion is interpreted.
type ResourceVersionMatch string

// The resourceVersionMatch values.
const (
	ResourceVersionMatchNotOlderThan ResourceVersionMatch = "NotOlderThan"
	ResourceVersionMatchExact        ResourceVersionMatch = "Exact"
)

// ListOptions are the query parameters of a LIST and of a WATCH.
type ListOptions struct {
	LabelSelector        string
	FieldSelector        string
	Limit                int64
	Continue             string
	ResourceVersion      string
	ResourceVersionMatch ResourceVersionMatch

	// Watch only.
	AllowWatchBookmarks bool
	SendInitialEvents   *bool
	TimeoutSeconds      *int64
}

// query encodes o; watch adds watch=true and the watch-only parameters.
func (o ListOptions) query(watch bool) url.Values {
	q := url.Values{}
	set := func(k, v string) {
		if v != "" {
			q.Set(k, v)
		}
	}
	set("labelSelector", o.LabelSelector)
	set("fieldSelector", o.FieldSelector)
	if o.Limit > 0 {
		q.Set("limit", strconv.FormatInt(o.Limit, 10))
	}
	set("continue", o.Continue)
	set("resourceVersion", o.ResourceVersion)
	set("resourceVersionMatch", string(o.ResourceVersionMatch))
	if watch {
		q.Set("watch", "true")
		if o.AllowWatchBookmarks {
			q.Set("allowWatchBookmarks", "true")
		}
		if o.SendInitialEvents != nil {
			q.Set("sendInitialEvents", strconv.FormatBool(*o.SendInitialEvents))
		}
		if o.TimeoutSeconds != nil {
			q.Set("timeoutSeconds", strconv.FormatInt(*o.TimeoutSeconds, 10))
		}
	}
	return q
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
