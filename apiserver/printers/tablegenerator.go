package printers

import (
	"context"
	"time"

	"kubeloop/api"
	"kubeloop/apiserver/registry/rest"
)

// TableConvertor renders one resource's objects with its printer. It is
// what every registry's Store holds as its rest.TableConvertor.
// Kubernetes: pkg/printers/tablegenerator.go (HumanReadableGenerator.GenerateTable)
// and pkg/printers/storage/storage.go (TableConvertor.ConvertToTable).
type TableConvertor struct {
	info    *api.ResourceInfo
	printer tablePrinter
}

var _ rest.TableConvertor = (*TableConvertor)(nil)

// NewTableConvertor is the printer of a resource; kinds without columns of
// their own get Name and Age, as Kubernetes' default table convertor.
func NewTableConvertor(info *api.ResourceInfo) *TableConvertor {
	return &TableConvertor{info: info, printer: tablePrinterFor(info)}
}

// ConvertToTable renders objs as one Table with listMeta.
func (c *TableConvertor) ConvertToTable(_ context.Context, objs []api.Object, listMeta api.ListMeta, opts rest.TableOptions) (*rest.Table, error) {
	now := time.Now()
	t := &rest.Table{
		TypeMeta:          api.TypeMeta{Kind: "Table", APIVersion: "meta.k8s.io/" + opts.Version},
		ListMeta:          listMeta,
		ColumnDefinitions: c.printer.columns,
		Rows:              make([]rest.TableRow, 0, len(objs)),
	}
	kind := rest.KindOf(c.info)
	for _, obj := range objs {
		row := rest.TableRow{Cells: c.printer.cells(obj, now)}
		switch opts.IncludeObject {
		case "Metadata":
			m := *obj.GetObjectMeta()
			row.Object = &rest.PartialObjectMetadata{
				TypeMeta: api.TypeMeta{Kind: "PartialObjectMetadata", APIVersion: "meta.k8s.io/" + opts.Version},
				Metadata: &m,
			}
		case "Object":
			row.Object = rest.WithTypeMeta(kind, obj)
		}
		t.Rows = append(t.Rows, row)
	}
	return t, nil
}
