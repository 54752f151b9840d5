package generic

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"strconv"

	"kubeloop/api"
	"kubeloop/apiserver/endpoints/request"
	"kubeloop/apiserver/fieldmanager/typed"
	"kubeloop/apiserver/names"
	"kubeloop/apiserver/registry/rest"
	"kubeloop/store"
)

// generateNameAttempts is how often a create with generateName tries a new
// random suffix after AlreadyExists, as Kubernetes' RetryGenerateName does.
const generateNameAttempts = 8

// Store is the REST storage of one resource, made from its strategies over
// its storage (etcd behind the watch cache). Everything a write does that
// does not depend on the kind is here; what does is in the strategies.
// Kubernetes: registry/generic/registry/store.go (Store).
type Store struct {
	// Info is the resource: its kind, URL name and etcd key layout.
	Info *api.ResourceInfo
	// Storage is where objects live (store.Interface: etcd, usually
	// behind a watch cache), able to pretend a write for a dry run.
	Storage DryRunnableStorage

	CreateStrategy rest.RESTCreateStrategy
	UpdateStrategy rest.RESTUpdateStrategy
	// DeleteStrategy gives objects a grace period; nil means none.
	DeleteStrategy rest.RESTGracefulDeleteStrategy
	// TableConvertor renders the resource's kubectl columns.
	TableConvertor rest.TableConvertor
	// Logger gets one line for each deletion the store completes.
	Logger *slog.Logger
	// ShouldDeleteDuringUpdate decides whether a write leaves an object
	// that must now be removed; nil means the package's
	// ShouldDeleteDuringUpdate. Kubernetes: Store.ShouldDeleteDuringUpdate,
	// which the namespace registry overrides too.
	ShouldDeleteDuringUpdate func(obj api.Object) bool
	// ManagedFieldsType is the schema managedFields are tracked by for
	// objects without a Go type (custom resources); nil: the kind's Go type.
	ManagedFieldsType *typed.Type
}

// ManagedFieldsSchema is the schema the handlers' field manager reads
// this store's objects by, nil for a kind's Go type.
func (e *Store) ManagedFieldsSchema() *typed.Type { return e.ManagedFieldsType }

// Options is what every REST storage constructor takes: the resource, its
// storage, its table printer and a logger.
type Options struct {
	Info           *api.ResourceInfo
	Storage        store.Interface
	TableConvertor rest.TableConvertor
	Logger         *slog.Logger
}

// NewStore builds the Store of a resource from its strategy.
func NewStore(o Options, strategy interface {
	rest.RESTCreateStrategy
	rest.RESTUpdateStrategy
}) *Store {
	s := &Store{
		Info: o.Info, Storage: DryRunnableStorage{Storage: o.Storage, Info: o.Info}, CreateStrategy: strategy, UpdateStrategy: strategy,
		TableConvertor: o.TableConvertor, Logger: o.Logger,
	}
	if d, ok := strategy.(rest.RESTGracefulDeleteStrategy); ok {
		s.DeleteStrategy = d
	}
	if s.Logger == nil {
		s.Logger = slog.Default()
	}
	return s
}

var (
	_ rest.Storage           = (*Store)(nil)
	_ rest.Getter            = (*Store)(nil)
	_ rest.Lister            = (*Store)(nil)
	_ rest.Watcher           = (*Store)(nil)
	_ rest.Creater           = (*Store)(nil)
	_ rest.Updater           = (*Store)(nil)
	_ rest.GracefulDeleter   = (*Store)(nil)
	_ rest.CollectionDeleter = (*Store)(nil)
	_ rest.TableConvertor    = (*Store)(nil)
)

// New is an empty object of the kind.
func (e *Store) New() api.Object { return e.Info.New() }

// NewList is an empty list of the kind.
func (e *Store) NewList() api.ListObject { return e.Info.NewList() }

// NamespaceScoped is the resource's scope.
func (e *Store) NamespaceScoped() bool { return e.Info.Namespaced }

// KeyFunc is the etcd key of the object name in ctx's namespace.
func (e *Store) KeyFunc(ctx context.Context, name string) string {
	return e.Info.Key(request.NamespaceValue(ctx), name)
}

// KeyRootFunc is the etcd prefix of ctx's namespace, or of every namespace.
func (e *Store) KeyRootFunc(ctx context.Context) string {
	if ns := request.NamespaceValue(ctx); e.Info.Namespaced && ns != "" {
		return e.Info.KeyPrefix() + ns + "/"
	}
	return e.Info.KeyPrefix()
}

// Get reads one object. Kubernetes: Store.Get.
func (e *Store) Get(ctx context.Context, name string, opts *rest.GetOptions) (api.Object, error) {
	return e.Storage.Get(ctx, e.KeyFunc(ctx, name), *opts)
}

// List reads a page of the collection. Kubernetes: Store.List.
func (e *Store) List(ctx context.Context, opts *rest.ListOptions) (api.ListObject, error) {
	res, err := e.Storage.List(ctx, e.KeyRootFunc(ctx), *opts)
	if err != nil {
		return nil, err
	}
	return toList(e.Info, res), nil
}

// Watch streams the collection's changes. Kubernetes: Store.Watch.
func (e *Store) Watch(ctx context.Context, opts *rest.ListOptions) (api.Watcher, error) {
	return e.Storage.Watch(ctx, e.KeyRootFunc(ctx), *opts)
}

// ConvertToTable renders objects with the resource's printer.
func (e *Store) ConvertToTable(ctx context.Context, objs []api.Object, lm api.ListMeta, opts rest.TableOptions) (*rest.Table, error) {
	return e.TableConvertor.ConvertToTable(ctx, objs, lm, opts)
}

// Create stores a new object: a generated name if asked for, server-owned
// metadata and the strategy's preparation, the strategy's validation,
// validating admission, then storage. A generated name that is taken is
// replaced by another, and the object prepared again, because the strategy
// may use the name (a Job's job-name label). A dry run stores nothing and
// answers the object as it would have been stored. Kubernetes: Store.Create.
func (e *Store) Create(ctx context.Context, obj api.Object, createValidation rest.ValidateObjectFunc, opts *rest.CreateOptions) (api.Object, error) {
	dryRun := rest.IsDryRun(opts.DryRun)
	m := obj.GetObjectMeta()
	generated := m.Name == "" && m.GenerateName != ""
	for attempt := 1; ; attempt++ {
		cand := obj
		if generated {
			cand = obj.DeepCopyObject()
			cand.GetObjectMeta().Name = names.GenerateName(m.GenerateName)
		}
		rest.BeforeCreate(e.CreateStrategy, ctx, cand)
		if err := e.CreateStrategy.Validate(ctx, cand); err != nil {
			return nil, err
		}
		if createValidation != nil {
			if err := createValidation(ctx, cand); err != nil {
				return nil, err
			}
		}
		cm := cand.GetObjectMeta()
		out, err := e.Storage.Create(ctx, e.Info.Key(cm.Namespace, cm.Name), cand, dryRun)
		if err != nil && api.IsAlreadyExists(err) && generated && attempt < generateNameAttempts {
			continue
		}
		return out, err
	}
}

// Update is the read-modify-write every update, patch and scale goes
// through: objInfo turns the stored object into what the client asked for
// (the body, or the patch applied to it), then the strategy prepares and
// validates it and validating admission judges it. A non-empty
// resourceVersion in the result is a precondition (409 if stale). If the
// write leaves an object being deleted with nothing holding it, the object
// is deleted right after, in the same request. A dry run stores nothing
// (and deletes nothing) and answers the object as it would have been
// stored. Kubernetes: Store.Update.
func (e *Store) Update(ctx context.Context, name string, objInfo rest.UpdatedObjectInfo, updateValidation rest.ValidateObjectUpdateFunc, opts *rest.UpdateOptions) (api.Object, error) {
	dryRun := rest.IsDryRun(opts.DryRun)
	deleteNow := false
	tryUpdate := func(cur api.Object) (api.Object, error) {
		obj, err := objInfo.UpdatedObject(ctx, cur.DeepCopyObject())
		if err != nil {
			return nil, err
		}
		cm := cur.GetObjectMeta()
		if rv := obj.GetObjectMeta().ResourceVersion; rv != "" && rv != cm.ResourceVersion {
			return nil, api.NewConflict(e.Info.GroupResource(), cm.Name, api.ErrObjectModified)
		}
		rest.BeforeUpdate(e.UpdateStrategy, ctx, obj, cur)
		if err := e.UpdateStrategy.ValidateUpdate(ctx, obj, cur); err != nil {
			return nil, err
		}
		if updateValidation != nil {
			if err := updateValidation(ctx, obj, cur); err != nil {
				return nil, err
			}
		}
		deleteNow = e.shouldDeleteDuringUpdate(obj)
		return obj, nil
	}
	out, err := e.Storage.GuaranteedUpdate(ctx, e.KeyFunc(ctx, name), nil, tryUpdate, dryRun)
	if err != nil || !deleteNow || dryRun {
		return out, err
	}
	return e.FinishDeletion(ctx, out)
}

// toList wraps a store page into the kind's List with its metadata.
func toList(info *api.ResourceInfo, res *store.ListResult) api.ListObject {
	list := info.NewList()
	kind := rest.KindOf(info)
	items := make([]api.Object, len(res.Items))
	for i, it := range res.Items {
		items[i] = rest.WithTypeMeta(kind, it)
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

// LogWrite is the one log line of a write the registry makes on its own
// (deletions): verb, resource, key, the new resourceVersion and the outcome.
func (e *Store) LogWrite(verb string, in, out api.Object, err error) {
	key := ""
	if in != nil {
		key, _ = api.MetaNamespaceKeyFunc(in)
	}
	rv := ""
	if out != nil {
		rv = out.GetObjectMeta().ResourceVersion
		key, _ = api.MetaNamespaceKeyFunc(out)
	}
	code := http.StatusOK
	if err != nil {
		code = http.StatusInternalServerError
		var se *api.StatusError
		if errors.As(err, &se) {
			code = int(se.ErrStatus.Code)
		}
	}
	e.Logger.Info("write", "verb", verb, "resource", e.Info.GroupResource().String(), "key", key, "rv", rv, "code", code)
}
