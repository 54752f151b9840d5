package cmd

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"sigs.k8s.io/yaml"

	"kubeloop/api"
	"kubeloop/client"
)

// typed decodes a manifest into its Go type.
func (m target) typed() (api.Object, error) {
	data, _ := json.Marshal(m.obj) // it was decoded from JSON: it encodes
	obj, err := decodeStrict(m.info, data)
	if err != nil {
		return nil, fmt.Errorf("error validating %q: %w", m.source, err)
	}
	return obj, nil
}

// decodeStrict decodes YAML or JSON data into info's Go type. A field the
// type does not have is an error here, where kubectl lets the server reject
// it (fieldValidation=Strict); our typed client would otherwise drop it.
func decodeStrict(info *api.ResourceInfo, data []byte) (api.Object, error) {
	obj := info.New()
	data, err := yaml.YAMLToJSON(data)
	if err == nil {
		var unknown []string
		if unknown, _, err = api.DecodeStrict(data, obj); err == nil && len(unknown) > 0 {
			err = fmt.Errorf("unknown field %q", strings.Join(unknown, `", "`))
		}
	}
	return obj, err
}

// documentSeparator is a YAML "---" line.
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
	data, err := yaml.YAMLToJSON(doc)
	if err != nil {
		return nil, fmt.Errorf("error parsing %s: %w", source, err)
	}
	var obj map[string]any
	if err := json.Unmarshal(data, &obj); err != nil || obj == nil {
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
