package cmd

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"sigs.k8s.io/yaml"

	"kubeloop/api"
)

// manifest is one object read from a file. It stays a JSON map, not a Go
// struct, so that apply diffs exactly the fields the user wrote.
type manifest struct {
	source          string // the file, for messages
	info            *api.ResourceInfo
	obj, metadata   map[string]any // metadata is obj["metadata"]
	name, namespace string
}

// typed decodes the manifest into its Go type. A field the type does not
// have is an error here, where kubectl lets the server reject it
// (fieldValidation=Strict); our client would otherwise drop it silently.
func (m *manifest) typed() (api.Object, error) {
	data, err := json.Marshal(m.obj)
	if err != nil {
		return nil, err
	}
	obj := m.info.New()
	unknown, _, err := api.DecodeStrict(data, obj)
	if err != nil {
		return nil, fmt.Errorf("error validating %q: %w", m.source, err)
	}
	if len(unknown) > 0 {
		return nil, fmt.Errorf("error validating %q: unknown field %q", m.source, strings.Join(unknown, `", "`))
	}
	return obj, nil
}

// documentSeparator is a YAML "---" line.
var documentSeparator = regexp.MustCompile(`(?m)^---[ \t]*(#.*)?$`)

// readManifests reads every object in the files, directories (their .yaml,
// .yml and .json files, not recursively) and "-" (stdin) of paths. Each
// namespaced object without a namespace gets the command's, as kubectl's
// resource builder does before it records last-applied-configuration.
func readManifests(f *factory, paths []string) ([]*manifest, error) {
	if len(paths) == 0 {
		return nil, usageErrorf("must specify -f")
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
	var out []*manifest
	for _, file := range files {
		data, err := f.readInput(file)
		if err != nil {
			return nil, fmt.Errorf("the path %q does not exist", file)
		}
		source := map[bool]string{true: "STDIN", false: file}[file == "-"]
		docs := []string{string(data)}
		if !bytes.HasPrefix(bytes.TrimSpace(data), []byte("{")) {
			docs = documentSeparator.Split(string(data), -1)
		}
		for _, doc := range docs {
			ms, err := decodeDocument([]byte(doc), source, f.Namespace())
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
func decodeDocument(doc []byte, source, defaultNS string) ([]*manifest, error) {
	data, err := yaml.YAMLToJSON(doc)
	if err != nil {
		return nil, fmt.Errorf("error parsing %s: %w", source, err)
	}
	var obj map[string]any
	if err := json.Unmarshal(data, &obj); err != nil || obj == nil {
		return nil, nil // an empty document
	}
	apiVersion, _ := obj["apiVersion"].(string)
	kind, _ := obj["kind"].(string)
	if kind == "List" {
		items, _ := obj["items"].([]any)
		var out []*manifest
		for _, it := range items {
			b, _ := json.Marshal(it)
			ms, err := decodeDocument(b, source, defaultNS)
			if err != nil {
				return nil, err
			}
			out = append(out, ms...)
		}
		return out, nil
	}
	group, _, isGrouped := strings.Cut(apiVersion, "/")
	if !isGrouped {
		group = ""
	}
	info, ok := api.Builtin().ForKind(group, kind)
	if !ok || info.GroupVersion() != apiVersion {
		return nil, fmt.Errorf("resource mapping not found for %q: no matches for kind %q in version %q", source, kind, apiVersion)
	}
	m := &manifest{source: source, info: info, obj: obj}
	if m.metadata, _ = obj["metadata"].(map[string]any); m.metadata == nil {
		m.metadata = map[string]any{}
		obj["metadata"] = m.metadata
	}
	m.name, _ = m.metadata["name"].(string)
	m.namespace, _ = m.metadata["namespace"].(string)
	if m.name == "" {
		return nil, fmt.Errorf("error validating %q: metadata.name is required", source)
	}
	if info.Namespaced && m.namespace == "" {
		m.namespace, m.metadata["namespace"] = defaultNS, defaultNS
	}
	return []*manifest{m}, nil
}
