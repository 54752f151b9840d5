package client

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strings"

	"kubeloop/api"
)

// GroupVersionResource names a resource as discovery lists it: "" for the
// core group, "v1", "configmaps". apimachinery: schema.GroupVersionResource.
type GroupVersionResource struct {
	Group, Version, Resource string
}

// String is "/v1, Resource=configmaps" or "apps/v1, Resource=replicasets",
// as apimachinery prints it.
func (g GroupVersionResource) String() string {
	return g.Group + "/" + g.Version + ", Resource=" + g.Resource
}

// PartialObjectMetadata is one object of any kind, only its metadata.
// apimachinery: metav1.PartialObjectMetadata.
type PartialObjectMetadata struct {
	api.TypeMeta   `json:",inline"`
	api.ObjectMeta `json:"metadata,omitempty"`
}

// PartialObjectMetadataList is a list of any kind, only each item's
// metadata.
type PartialObjectMetadataList struct {
	api.TypeMeta `json:",inline"`
	api.ListMeta `json:"metadata,omitempty"`
	Items        []PartialObjectMetadata `json:"items"`
}

// MetadataResource lists and deletes the objects of a resource known only
// by name — from discovery, so custom resources too — reading nothing but
// their metadata. The namespace controller and anything else that handles
// "every kind the server has" use it. client-go: metadata.Client
// (metadata/metadata.go, Resource(gvr).Namespace(ns)).
//
// client-go asks for the PartialObjectMetadataList media type so the server
// sends only metadata; we take the ordinary JSON list and keep the
// metadata of each item, which costs bandwidth but needs nothing of the
// server.
type MetadataResource struct {
	client    *Client
	gvr       GroupVersionResource
	namespace string
}

// Metadata returns the metadata client of gvr, across all namespaces.
func (c *Client) Metadata(gvr GroupVersionResource) *MetadataResource {
	return &MetadataResource{client: c, gvr: gvr}
}

// Namespace returns a view limited to ns.
func (r *MetadataResource) Namespace(ns string) *MetadataResource {
	cp := *r
	cp.namespace = ns
	return &cp
}

func (r *MetadataResource) path(name string) string {
	var b strings.Builder
	if r.gvr.Group == "" {
		b.WriteString("/api/" + r.gvr.Version)
	} else {
		b.WriteString("/apis/" + r.gvr.Group + "/" + r.gvr.Version)
	}
	if r.namespace != "" {
		b.WriteString("/namespaces/" + url.PathEscape(r.namespace))
	}
	b.WriteString("/" + r.gvr.Resource)
	if name != "" {
		b.WriteString("/" + url.PathEscape(name))
	}
	return b.String()
}

// List reads every object (all pages) and keeps their metadata.
func (r *MetadataResource) List(ctx context.Context, opts ListOptions) (*PartialObjectMetadataList, error) {
	out := &PartialObjectMetadataList{}
	for {
		res, err := r.client.do(ctx, &request{verb: http.MethodGet, path: r.path(""), query: listQuery(opts, false)})
		if err != nil {
			return nil, err
		}
		page := &PartialObjectMetadataList{}
		if err := json.Unmarshal(res.body, page); err != nil {
			return nil, fmt.Errorf("client: decode %s list: %w", r.gvr, err)
		}
		if out.ResourceVersion == "" {
			out.TypeMeta, out.ListMeta = page.TypeMeta, page.ListMeta
		}
		out.Items = append(out.Items, page.Items...)
		if page.Continue == "" {
			out.Continue = ""
			return out, nil
		}
		opts.Continue, opts.ResourceVersion, opts.ResourceVersionMatch = page.Continue, "", ""
	}
}

// Delete deletes one object.
func (r *MetadataResource) Delete(ctx context.Context, name string, opts api.DeleteOptions) error {
	body, contentType, err := deleteBody(false, opts)
	if err != nil {
		return err
	}
	_, err = r.client.do(ctx, &request{verb: http.MethodDelete, path: r.path(name), body: body, contentType: contentType})
	return err
}

// DeleteCollection deletes every object listOpts selects.
func (r *MetadataResource) DeleteCollection(ctx context.Context, opts api.DeleteOptions, listOpts ListOptions) error {
	body, contentType, err := deleteBody(false, opts)
	if err != nil {
		return err
	}
	_, err = r.client.do(ctx, &request{verb: http.MethodDelete, path: r.path(""), query: listQuery(listOpts, false), body: body, contentType: contentType})
	return err
}
