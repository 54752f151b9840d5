package api

import (
	"net/url"
	"strconv"
)

// ListOptions are the query parameters of a LIST or WATCH request
// (meta/v1 ListOptions). The client turns them into a URL query and the
// reflector fills them in; both sides read the same struct.
type ListOptions struct {
	LabelSelector        string
	FieldSelector        string
	ResourceVersion      string
	ResourceVersionMatch string
	Limit                int64
	Continue             string
	// Watch only.
	Watch               bool
	AllowWatchBookmarks bool
	SendInitialEvents   *bool
	TimeoutSeconds      *int64
}

// Query renders the options as URL query parameters, omitting zero values.
func (o ListOptions) Query() url.Values {
	q := url.Values{}
	set := func(k, v string) {
		if v != "" {
			q.Set(k, v)
		}
	}
	set("labelSelector", o.LabelSelector)
	set("fieldSelector", o.FieldSelector)
	set("resourceVersion", o.ResourceVersion)
	set("resourceVersionMatch", o.ResourceVersionMatch)
	set("continue", o.Continue)
	if o.Limit > 0 {
		q.Set("limit", strconv.FormatInt(o.Limit, 10))
	}
	if o.Watch {
		q.Set("watch", "true")
	}
	if o.AllowWatchBookmarks {
		q.Set("allowWatchBookmarks", "true")
	}
	if o.SendInitialEvents != nil {
		q.Set("sendInitialEvents", strconv.FormatBool(*o.SendInitialEvents))
	}
	if o.TimeoutSeconds != nil {
		q.Set("timeoutSeconds", strconv.FormatInt(*o.TimeoutSeconds, 10))
	}
	return q
}
