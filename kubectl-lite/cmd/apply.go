package cmd

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"

	"github.com/spf13/cobra"
	"sigs.k8s.io/yaml"

	"kubeloop/api"
	"kubeloop/client"
)

// LastAppliedConfigAnnotation holds, on every object kubectl apply wrote,
// the manifest it last applied: the "original" of the three-way merge.
const LastAppliedConfigAnnotation = "kubectl.kubernetes.io/last-applied-configuration"

// newWriteCommand is create or apply: each manifest read from -f is
// created, or applied by applyOne, and reported as "kind/name <result>".
func newWriteCommand(f *factory, verb string) *cobra.Command {
	var files []string
	write, doing, short := createOne, "creating", "Create objects from files or stdin"
	if verb == "apply" {
		write, doing, short = applyOne, "applying", "Create or update objects so they match the files (client-side apply)"
	}
	c := &cobra.Command{
		Use:   verb + " -f FILE|DIR|-",
		Short: short,
		Args:  cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			manifests, err := readManifests(f, files)
			if err != nil {
				return err
			}
			return forEach(f, manifests, func(m target) error {
				result, err := write(c.Context(), m)
				if err != nil {
					return fmt.Errorf("error when %s %q: %w", doing, m.source, err)
				}
				fmt.Fprintf(f.streams.Out, "%s %s\n", objectName(m.info, m.name), result)
				return nil
			})
		},
	}
	c.Flags().StringSliceVarP(&files, "filename", "f", nil, "file, directory or - for stdin")
	return c
}

// createOne and applyOne send the manifest as written and let the server
// reject a field its kind does not have (fieldValidation=Strict), as kubectl
// does: decoded into the Go type here, the field would be dropped unseen.
func createOne(ctx context.Context, m target) (string, error) {
	data, _ := json.Marshal(m.obj) // it was decoded from JSON: it encodes
	_, err := m.d.CreateJSON(ctx, data, client.CreateOptions{FieldManager: "kubectl-create", FieldValidation: client.FieldValidationStrict})
	return "created", err
}

// applyOne is client-side apply (kubectl/pkg/cmd/apply/apply.go and
// patcher.go): create the object if it is missing, recording the manifest
// in the last-applied annotation; else PATCH the difference between the
// manifest, the last-applied manifest and the live object. kubectl sends a
// strategic merge patch for built-in kinds; we send a JSON merge patch, in
// which lists are replaced whole rather than merged by key.
func applyOne(ctx context.Context, m target) (string, error) {
	md := m.obj["metadata"].(map[string]any) // it has a name: decodeDocument checked
	annotations, _ := md["annotations"].(map[string]any)
	delete(annotations, LastAppliedConfigAnnotation) // what was applied, not what applied it before
	if len(annotations) == 0 {
		delete(md, "annotations")
	}
	lastApplied, _ := json.Marshal(m.obj) // it was decoded from JSON: it encodes
	// kubectl's encoder ends the JSON with a newline; keep it byte for byte.
	api.SetNestedField(m.obj, string(lastApplied)+"\n", "metadata", "annotations", LastAppliedConfigAnnotation)
	live, err := m.d.Get(ctx, m.name, client.GetOptions{})
	if api.IsNotFound(err) {
		data, _ := json.Marshal(m.obj)
		_, err = m.d.CreateJSON(ctx, data, client.CreateOptions{FieldManager: "kubectl-client-side-apply", FieldValidation: client.FieldValidationStrict})
		return "created", err
	}
	if err != nil {
		return "", err
	}
	current, _ := toMap(live) // it was decoded from JSON: it encodes
	var original map[string]any
	_ = json.Unmarshal([]byte(live.GetObjectMeta().Annotations[LastAppliedConfigAnnotation]), &original) // none, or a corrupt one, only loses deletions
	patch := threeWayMergePatch(original, m.obj, current)
	if len(patch) == 0 {
		return "unchanged", nil
	}
	data, _ := json.Marshal(patch) // it was decoded from JSON: it encodes
	_, err = m.d.Patch(ctx, m.name, client.MergePatchType, data, client.PatchOptions{FieldManager: "kubectl-client-side-apply", FieldValidation: client.FieldValidationStrict})
	return "configured", err
}

func toMap(obj api.Object) (map[string]any, error) {
	data, err := json.Marshal(obj)
	if err != nil {
		return nil, err
	}
	var m map[string]any
	return m, json.Unmarshal(data, &m)
}

// threeWayMergePatch is the JSON merge patch that takes current to modified
// without touching what someone else set: fields that changed from current
// to modified are set, and fields that were in original (last applied) but
// are gone from modified are deleted (null). Fields only current has, such
// as defaults and status, are left alone.
// kubectl: apimachinery/pkg/util/jsonmergepatch CreateThreeWayJSONMergePatch.
func threeWayMergePatch(original, modified, current map[string]any) map[string]any {
	patch := map[string]any{}
	for k, mv := range modified {
		cv, inCurrent := current[k]
		mm, mIsMap := mv.(map[string]any)
		cm, cIsMap := cv.(map[string]any)
		switch {
		case mIsMap && cIsMap:
			om, _ := original[k].(map[string]any)
			if sub := threeWayMergePatch(om, mm, cm); len(sub) > 0 {
				patch[k] = sub
			}
		case !inCurrent || !contains(cv, mv):
			patch[k] = mv
		}
	}
	for k := range original {
		if _, ok := modified[k]; !ok {
			patch[k] = nil
		}
	}
	return patch
}

// contains reports whether have holds everything want says. A list counts
// as unchanged when each item of want is contained in the matching item of
// have, so server defaults inside list items (a container's
// imagePullPolicy) do not make every apply a change.
func contains(have, want any) bool {
	switch w := want.(type) {
	case map[string]any:
		h, ok := have.(map[string]any)
		for k, v := range w {
			if hv, in := h[k]; !ok || !in || !contains(hv, v) {
				return false
			}
		}
		return ok
	case []any:
		h, ok := have.([]any)
		return ok && slices.EqualFunc(h, w, contains)
	}
	return reflect.DeepEqual(have, want)
}

var documentSeparator = regexp.MustCompile(`(?m)^---[ \t]*(#.*)?$`)

// readManifests reads every object in the files, directories (their .yaml,
// .yml and .json files, not recursively) and "-" (stdin) of paths. Each
// namespaced object without a namespace gets the command's, as kubectl's
// resource builder does before it records last-applied-configuration.
func readManifests(f *factory, paths []string) ([]target, error) {
	if len(paths) == 0 {
		return nil, usageErrorf("must specify -f")
	}
	cli, err := f.Client()
	if err != nil {
		return nil, err
	}
	var files []string
	for _, p := range paths {
		entries, err := os.ReadDir(p)
		if err != nil { // not a directory
			files = append(files, p)
		}
		for _, e := range entries {
			if ext := filepath.Ext(e.Name()); ext == ".yaml" || ext == ".yml" || ext == ".json" {
				files = append(files, filepath.Join(p, e.Name()))
			}
		}
	}
	var out []target
	for _, file := range files {
		source, read := file, func() ([]byte, error) { return os.ReadFile(file) }
		if file == "-" {
			source, read = "STDIN", func() ([]byte, error) { return io.ReadAll(f.streams.In) }
		}
		data, err := read()
		if err != nil {
			return nil, fmt.Errorf("the path %q does not exist", file)
		}
		for _, doc := range documentSeparator.Split(string(data), -1) { // JSON is YAML too
			ms, err := decodeDocument(cli, []byte(doc), source, f.namespace)
			if err != nil {
				return nil, err
			}
			out = append(out, ms...)
		}
	}
	if len(out) == 0 {
		return nil, errors.New("no objects passed to apply")
	}
	return out, nil
}

// decodeDocument turns one YAML or JSON document into manifests; a kind: List
// gives one manifest per item.
func decodeDocument(cli *client.Client, doc []byte, source, defaultNS string) ([]target, error) {
	var obj map[string]any
	if err := yaml.Unmarshal(doc, &obj); err != nil { // a document that is a list or a scalar, too
		return nil, fmt.Errorf("error parsing %s: %w", source, err)
	}
	if obj == nil {
		return nil, nil // an empty document
	}
	objs := []any{obj}
	if obj["kind"] == "List" {
		objs, _ = obj["items"].([]any)
	}
	var out []target
	for _, item := range objs {
		obj, _ := item.(map[string]any)
		apiVersion, _ := obj["apiVersion"].(string)
		kind, _ := obj["kind"].(string)
		all := api.Builtin().All()
		i := slices.IndexFunc(all, func(info *api.ResourceInfo) bool { return info.Kind == kind && info.GroupVersion() == apiVersion })
		if i < 0 {
			return nil, fmt.Errorf("resource mapping not found for %q: no matches for kind %q in version %q", source, kind, apiVersion)
		}
		md, _ := obj["metadata"].(map[string]any)
		name, _ := md["name"].(string)
		namespace, _ := md["namespace"].(string)
		if name == "" {
			return nil, fmt.Errorf("error validating %q: metadata.name is required", source)
		}
		if namespace == "" && all[i].Namespaced {
			namespace, md["namespace"] = defaultNS, defaultNS
		}
		out = append(out, target{info: all[i], name: name, d: cli.Dynamic(all[i]).Namespace(namespace), source: source, obj: obj})
	}
	return out, nil
}
