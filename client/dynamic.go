package client

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strings"

	"kubeloop/api"
)

// DynamicResource is a client for one kind known only at run time through its
// ResourceInfo: the informer factory, the garbage collector and kubectl-lite
// use it for "any kind". The typed Resource[T] is a thin wrapper around it.
// client-go: dynamic.ResourceInterface, but over api.Object instead of
// unstructured maps, because every kubeloop kind has a Go type.
type DynamicResource struct {
	client    *Client
	info      *api.ResourceInfo
	namespace string
	// protobuf: requests prefer protobuf, as client-go's typed clients'
	// do for built-in kinds (content.go).
	protobuf bool
}

// Dynamic returns a client for the kind described by info, across all
// namespaces (or cluster-scoped).
func (c *Client) Dynamic(info *api.ResourceInfo) *DynamicResource {
	return &DynamicResource{client: c, info: info, protobuf: c.prefersProtobuf(info)}
}

// Namespace returns a view of r limited to ns. For a cluster-scoped kind the
// namespace is ignored.
func (r *DynamicResource) Namespace(ns string) *DynamicResource {
	cp := *r
	cp.namespace = ns
	return &cp
}

// Info returns the kind r serves.
func (r *DynamicResource) Info() *api.ResourceInfo { return r.info }

// path builds the URL path of the collection (name ""), an object, or one
// of its subresources:
//
//	/api/v1/namespaces/default/pods/web-1/binding
//	/apis/apps/v1/replicasets                       (all namespaces)
//	/api/v1/nodes/n1/status                          (cluster-scoped)
func (r *DynamicResource) path(namespace, name string, subresources ...string) string {
	var b strings.Builder
	if r.info.Group == "" {
		b.WriteString("/api/" + r.info.Version)
	} else {
		b.WriteString("/apis/" + r.info.Group + "/" + r.info.Version)
	}
	if r.info.Namespaced && namespace != "" {
		b.WriteString("/namespaces/" + url.PathEscape(namespace))
	}
	b.WriteString("/" + r.info.Resource)
	if name != "" {
		b.WriteString("/" + url.PathEscape(name))
		for _, s := range subresources {
			b.WriteString("/" + s)
		}
	}
	return b.String()
}

// objectNamespace is where a write of obj goes: the view's namespace, or
// the object's own when the view spans all namespaces, so generic code can
// write objects without first picking a namespaced view.
func (r *DynamicResource) objectNamespace(obj api.Object) string {
	if r.namespace != "" {
		return r.namespace
	}
	return obj.GetObjectMeta().Namespace
}

// request is a request about r's kind; its Accept header prefers protobuf
// when the kind does.
func (r *DynamicResource) request(verb, path string, query url.Values) *request {
	req := &request{verb: verb, path: path, query: query}
	if r.protobuf {
		req.accept = acceptProtobuf
	}
	return req
}

// decode decodes a reply into a new object of r's kind.
func (r *DynamicResource) decode(res result) (api.Object, error) {
	obj := r.info.New()
	if err := res.into(obj); err != nil {
		return nil, fmt.Errorf("client: decode %s: %w", r.info.Kind, err)
	}
	return obj, nil
}

// Get reads one object.
func (r *DynamicResource) Get(ctx context.Context, name string, opts GetOptions) (api.Object, error) {
	q := url.Values{}
	if opts.ResourceVersion != "" {
		q.Set("resourceVersion", opts.ResourceVersion)
	}
	res, err := r.client.do(ctx, r.request(http.MethodGet, r.path(r.namespace, name), q))
	if err != nil {
		return nil, err
	}
	return r.decode(res)
}

// List reads one page of the collection. Follow ListMeta.Continue for the
// next page, or use ListAll.
func (r *DynamicResource) List(ctx context.Context, opts ListOptions) (api.ListObject, error) {
	res, err := r.client.do(ctx, r.request(http.MethodGet, r.path(r.namespace, ""), listQuery(opts, false)))
	if err != nil {
		return nil, err
	}
	list := r.info.NewList()
	if err := res.into(list); err != nil {
		return nil, fmt.Errorf("client: decode %s: %w", r.info.ListKind(), err)
	}
	if isProtobuf(res.contentType) {
		// Protobuf has no place for an item's apiVersion and kind, which
		// kubeloop's JSON lists name: set them, so the items are the same
		// whichever encoding they came in.
		for _, item := range list.GetItems() {
			*item.GetTypeMeta() = api.TypeMeta{APIVersion: r.info.GroupVersion(), Kind: r.info.Kind}
		}
	}
	return list, nil
}

// ListAll follows continue tokens until the last page and returns every item
// and the resourceVersion of the first page (the snapshot all pages share).
func (r *DynamicResource) ListAll(ctx context.Context, opts ListOptions) ([]api.Object, string, error) {
	var items []api.Object
	rv := ""
	for {
		list, err := r.List(ctx, opts)
		if err != nil {
			return nil, "", err
		}
		if rv == "" {
			rv = list.GetListMeta().ResourceVersion
		}
		items = append(items, list.GetItems()...)
		next := list.GetListMeta().Continue
		if next == "" {
			return items, rv, nil
		}
		// A continue token carries its own snapshot; resourceVersion must not
		// be sent with it.
		opts.Continue, opts.ResourceVersion, opts.ResourceVersionMatch = next, "", ""
	}
}

// Watch starts a watch. The events' objects are of r's kind (ERROR events
// carry a *api.Status). The watch ends when the server ends the stream, when
// ctx is cancelled, or on Stop.
func (r *DynamicResource) Watch(ctx context.Context, opts ListOptions) (api.Watcher, error) {
	req := r.request(http.MethodGet, r.path(r.namespace, ""), listQuery(opts, true))
	ctx, cancel := context.WithCancel(ctx)
	resp, err := r.client.send(ctx, req)
	if err != nil {
		cancel()
		return nil, err
	}
	if resp.StatusCode != http.StatusOK {
		defer cancel()
		defer resp.Body.Close()
		var buf bytes.Buffer
		_, _ = buf.ReadFrom(resp.Body)
		return nil, errorFromResponse(req.verb, resp.StatusCode, resp.Header.Get("Content-Type"), buf.Bytes())
	}
	return newStreamWatcher(ctx, cancel, resp.Body, resp.Header.Get("Content-Type"), r.info.New), nil
}

// write sends obj with verb to path and decodes the reply into a new object
// made by newObj. apiVersion and kind are what the body is sent as when obj
// does not say.
func (r *DynamicResource) write(ctx context.Context, verb, path string, q url.Values, obj api.Object, apiVersion, kind string, newObj func() api.Object) (api.Object, error) {
	req := r.request(verb, path, q)
	var err error
	if req.body, req.contentType, err = encodeBody(r.protobuf, withTypeMeta(obj, apiVersion, kind)); err != nil {
		return nil, fmt.Errorf("client: encode %s: %w", kind, err)
	}
	res, err := r.client.do(ctx, req)
	if err != nil {
		return nil, err
	}
	out := newObj()
	if err := res.into(out); err != nil {
		return nil, fmt.Errorf("client: decode reply of %s %s: %w", verb, path, err)
	}
	return out, nil
}

// Create posts obj to its collection and returns what the server stored.
func (r *DynamicResource) Create(ctx context.Context, obj api.Object, opts CreateOptions) (api.Object, error) {
	return r.write(ctx, http.MethodPost, r.path(r.objectNamespace(obj), ""), opts.query(), obj, r.info.GroupVersion(), r.info.Kind, r.info.New)
}

// Update replaces obj. A non-empty metadata.resourceVersion makes it a
// compare-and-swap: a stale one fails with Conflict.
func (r *DynamicResource) Update(ctx context.Context, obj api.Object, opts UpdateOptions) (api.Object, error) {
	name := obj.GetObjectMeta().Name
	return r.write(ctx, http.MethodPut, r.path(r.objectNamespace(obj), name), opts.query(), obj, r.info.GroupVersion(), r.info.Kind, r.info.New)
}

// UpdateStatus replaces obj's status through the status subresource.
func (r *DynamicResource) UpdateStatus(ctx context.Context, obj api.Object, opts UpdateOptions) (api.Object, error) {
	name := obj.GetObjectMeta().Name
	return r.write(ctx, http.MethodPut, r.path(r.objectNamespace(obj), name, "status"), opts.query(), obj, r.info.GroupVersion(), r.info.Kind, r.info.New)
}

// CreateJSON posts body, an object's JSON as someone wrote it, to the
// collection. Decoded into its Go type, it would lose the fields its kind
// does not have; sent as written, with FieldValidation Strict, the server
// rejects them, as it does kubectl's manifests (client-go: the dynamic
// client, whose objects are unstructured).
func (r *DynamicResource) CreateJSON(ctx context.Context, body []byte, opts CreateOptions) (api.Object, error) {
	reply, err := r.client.do(ctx, &request{verb: http.MethodPost, path: r.path(r.namespace, ""), query: opts.query(), body: body})
	if err != nil {
		return nil, err
	}
	return r.decode(reply)
}

// UpdateJSON replaces the object name with body, as CreateJSON creates.
func (r *DynamicResource) UpdateJSON(ctx context.Context, name string, body []byte, opts UpdateOptions) (api.Object, error) {
	reply, err := r.client.do(ctx, &request{verb: http.MethodPut, path: r.path(r.namespace, name), query: opts.query(), body: body})
	if err != nil {
		return nil, err
	}
	return r.decode(reply)
}

// Patch applies a patch of type pt to the object (or to a subresource of it,
// e.g. "status") and returns the result: an object of r's kind, or a
// *api.Scale for the scale subresource.
func (r *DynamicResource) Patch(ctx context.Context, name string, pt PatchType, data []byte, opts PatchOptions, subresources ...string) (api.Object, error) {
	req := r.request(http.MethodPatch, r.path(r.namespace, name, subresources...), opts.query())
	req.body, req.contentType = data, string(pt)
	res, err := r.client.do(ctx, req)
	if err != nil {
		return nil, err
	}
	if len(subresources) == 1 && subresources[0] == "scale" {
		scale := &api.Scale{}
		if err := res.into(scale); err != nil {
			return nil, fmt.Errorf("client: decode Scale: %w", err)
		}
		return scale, nil
	}
	return r.decode(res)
}

// Delete deletes one object. The reply (the object, or a Success Status) is
// discarded; callers that need to know whether finalizers hold it re-Get.
func (r *DynamicResource) Delete(ctx context.Context, name string, opts api.DeleteOptions) error {
	return r.delete(ctx, r.path(r.namespace, name), nil, opts)
}

// DeleteCollection deletes every object matching listOpts' selectors.
func (r *DynamicResource) DeleteCollection(ctx context.Context, opts api.DeleteOptions, listOpts ListOptions) error {
	return r.delete(ctx, r.path(r.namespace, ""), listQuery(listOpts, false), opts)
}

// delete sends DELETE with opts as its body, in r's encoding (client-go's
// typed clients send DeleteOptions as protobuf too).
func (r *DynamicResource) delete(ctx context.Context, path string, q url.Values, opts api.DeleteOptions) error {
	req := r.request(http.MethodDelete, path, q)
	var err error
	if req.body, req.contentType, err = deleteBody(r.protobuf, opts); err != nil {
		return err
	}
	_, err = r.client.do(ctx, req)
	return err
}

// deleteBody is opts as a v1 DeleteOptions body.
func deleteBody(protobuf bool, opts api.DeleteOptions) ([]byte, string, error) {
	if opts.APIVersion == "" {
		opts.APIVersion = "v1"
	}
	if opts.Kind == "" {
		opts.Kind = "DeleteOptions"
	}
	body, contentType, err := encodeBody(protobuf, &opts)
	if err != nil {
		return nil, "", fmt.Errorf("client: encode DeleteOptions: %w", err)
	}
	return body, contentType, nil
}
