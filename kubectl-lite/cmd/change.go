package cmd

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"
	"sigs.k8s.io/yaml"

	"kubeloop/api"
	"kubeloop/client"
)

func newDeleteCommand(f *factory) *cobra.Command {
	var (
		files   []string
		cascade string
		wait    bool
	)
	c := &cobra.Command{
		Use:   "delete (TYPE NAME... | TYPE/NAME... | -f FILE)",
		Short: "Delete objects by name or by file",
		RunE: func(c *cobra.Command, args []string) error {
			policy, ok := map[string]api.DeletionPropagation{
				"background": api.DeletePropagationBackground, "true": api.DeletePropagationBackground,
				"foreground": api.DeletePropagationForeground, "orphan": api.DeletePropagationOrphan, "false": api.DeletePropagationOrphan,
			}[cascade]
			if !ok {
				return usageErrorf("invalid cascade value (%s). Must be \"background\", \"foreground\", or \"orphan\"", cascade)
			}
			var ts []target
			var err error
			switch {
			case len(files) > 0 && len(args) > 0:
				return usageErrorf("cannot specify both -f and resource names")
			case len(files) > 0:
				ts, err = readManifests(f, files)
			default:
				_, ts, err = f.resolve(args, false)
			}
			if err != nil {
				return err
			}
			var deleted []target
			err = forEach(f, ts, func(t target) error {
				err := t.d.Delete(c.Context(), t.name, api.DeleteOptions{PropagationPolicy: &policy})
				if err == nil {
					fmt.Fprintf(f.streams.Out, "%s %q deleted\n", qualifiedKind(t.info), t.name)
					deleted = append(deleted, t)
				}
				return err
			})
			if wait {
				err = cmp.Or(forEach(f, deleted, func(t target) error {
					return t.d.Until(c.Context(), t.name, func(obj api.Object) bool { return obj == nil })
				}), err)
			}
			return err
		},
	}
	c.Flags().StringSliceVarP(&files, "filename", "f", nil, "delete the objects in these files")
	c.Flags().StringVar(&cascade, "cascade", "background", "background, foreground or orphan: what happens to dependents")
	c.Flags().BoolVar(&wait, "wait", true, "wait until the objects are gone (finalizers done)")
	return c
}

func newScaleCommand(f *factory) *cobra.Command {
	var (
		replicas int32
		wait     bool
	)
	c := &cobra.Command{
		Use:   "scale TYPE NAME --replicas N [--wait]",
		Short: "Set the number of replicas through the scale subresource",
		RunE: func(c *cobra.Command, args []string) error {
			if !c.Flags().Changed("replicas") {
				return usageErrorf("the --replicas=COUNT flag is required, and COUNT must be greater than or equal to 0")
			}
			_, t, err := f.resolveOne(args, "scale")
			if err != nil {
				return err
			}
			// A kind without the scale subresource is the server's NotFound.
			patch := fmt.Appendf(nil, `{"spec":{"replicas":%d}}`, replicas)
			if _, err := t.d.Patch(c.Context(), t.name, client.MergePatchType, patch, client.PatchOptions{FieldManager: "kubectl-scale"}, "scale"); err != nil {
				return err
			}
			fmt.Fprintf(f.streams.Out, "%s scaled\n", objectName(t.info, t.name))
			if !wait {
				return nil
			}
			// One progress line ("3/5 ready"), rewritten as the status changes,
			// until readyReplicas (for the current generation) reaches replicas.
			last, notRS := "", error(nil)
			err = t.d.Until(c.Context(), t.name, func(obj api.Object) bool {
				rs, ok := obj.(*api.ReplicaSet)
				if !ok {
					notRS = fmt.Errorf("--wait knows only replicasets, and %s %q is none (or is gone)", t.info.Resource, t.name)
					return true
				}
				if line := fmt.Sprintf("%d/%d ready", rs.Status.ReadyReplicas, replicas); line != last {
					fmt.Fprintf(f.streams.Out, "\r%s", line)
					last = line
				}
				return rs.Status.ReadyReplicas == replicas && rs.Status.Replicas == replicas && rs.Status.ObservedGeneration >= rs.Generation
			})
			if err = cmp.Or(err, notRS); err == nil {
				fmt.Fprintln(f.streams.Out)
			}
			return err
		},
	}
	c.Flags().Int32Var(&replicas, "replicas", 0, "the new desired number of replicas")
	c.Flags().BoolVar(&wait, "wait", false, "wait, with a live progress line, until that many replicas are ready")
	return c
}

// newLabelCommand builds `label` or `annotate`: the same command over
// metadata.labels or metadata.annotations.
func newLabelCommand(f *factory, verb string) *cobra.Command {
	var overwrite bool
	field, done := "labels", "labeled"
	if verb == "annotate" {
		field, done = "annotations", "annotated"
	}
	c := &cobra.Command{
		Use:   verb + " TYPE NAME KEY=VALUE... KEY-...",
		Short: "Update the " + field + " of an object",
		RunE: func(c *cobra.Command, args []string) error {
			split := len(args)
			for split > 0 && (strings.Contains(args[split-1], "=") || strings.HasSuffix(args[split-1], "-")) {
				split--
			}
			if split == len(args) {
				return usageErrorf("at least one %s update is required", strings.TrimSuffix(field, "s"))
			}
			_, ts, err := f.resolve(args[:split], false)
			if err != nil {
				return err
			}
			for _, t := range ts {
				obj, err := t.d.Get(c.Context(), t.name, client.GetOptions{})
				if err != nil {
					return err
				}
				current := obj.GetObjectMeta().Labels
				if field == "annotations" {
					current = obj.GetObjectMeta().Annotations
				}
				changes, err := labelChanges(current, args[split:], overwrite)
				if err != nil {
					return err
				}
				result := "not " + done
				if len(changes) > 0 {
					patch, _ := json.Marshal(map[string]any{"metadata": map[string]any{field: changes}})
					if _, err := t.d.Patch(c.Context(), t.name, client.MergePatchType, patch, client.PatchOptions{FieldManager: "kubectl-" + verb}); err != nil {
						return err
					}
					result = done
				}
				fmt.Fprintf(f.streams.Out, "%s %s\n", objectName(t.info, t.name), result)
			}
			return nil
		},
	}
	c.Flags().BoolVar(&overwrite, "overwrite", false, "allow changing a key that already has a value")
	return c
}

// labelChanges turns "k=v" and "k-" into the merge patch of the map: a
// value for each set, null for each removal, nothing for a no-op.
func labelChanges(current map[string]string, updates []string, overwrite bool) (map[string]any, error) {
	out := map[string]any{}
	for _, u := range updates {
		key, value, set := strings.Cut(u, "=")
		if !set {
			key = strings.TrimSuffix(key, "-")
		}
		old, exists := current[key]
		switch {
		case !set && exists:
			out[key] = nil
		case !set || exists && old == value: // nothing to remove, or no change
		case exists && !overwrite:
			return nil, fmt.Errorf("'%s' already has a value (%s), and --overwrite is false", key, old)
		default:
			out[key] = value
		}
	}
	return out, nil
}

func newEditCommand(f *factory) *cobra.Command {
	return &cobra.Command{
		Use:   "edit TYPE NAME",
		Short: "Edit an object's YAML in $KUBE_EDITOR or $EDITOR and PUT it back",
		RunE: func(c *cobra.Command, args []string) error {
			_, t, err := f.resolveOne(args, "edit")
			if err != nil {
				return err
			}
			obj, err := t.d.Get(c.Context(), t.name, client.GetOptions{}) // with apiVersion and kind
			if err != nil {
				return err
			}
			before, _ := yaml.Marshal(obj) // it was decoded from JSON: it encodes
			after, err := runEditor(f, before)
			if err != nil {
				return err
			}
			if bytes.Equal(before, after) {
				fmt.Fprintln(f.streams.Out, "Edit cancelled, no changes made.")
				return nil
			}
			edited, err := yaml.YAMLToJSON(after)
			if err != nil {
				return fmt.Errorf("the edited file had a syntax error: %w", err)
			}
			// The resourceVersion read above goes back with the PUT, so an
			// edit made on a stale copy is a Conflict rather than a lost update;
			// the server rejects unknown fields, as for create.
			if _, err := t.d.UpdateJSON(c.Context(), t.name, edited, client.UpdateOptions{FieldManager: "kubectl-edit", FieldValidation: client.FieldValidationStrict}); err != nil {
				return err
			}
			fmt.Fprintf(f.streams.Out, "%s edited\n", objectName(t.info, t.name))
			return nil
		},
	}
}

// runEditor writes content to a temporary file, runs the editor on it
// through the shell (so EDITOR may carry arguments) and returns the result.
func runEditor(f *factory, content []byte) ([]byte, error) {
	editor := cmp.Or(os.Getenv("KUBE_EDITOR"), os.Getenv("EDITOR"), "vi")
	dir, err := os.MkdirTemp("", "kubectl-lite-edit-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "edit.yaml")
	if err := os.WriteFile(path, content, 0o600); err != nil {
		return nil, err
	}
	cmd := exec.Command("sh", "-c", editor+` "$0"`, path)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = f.streams.In, f.streams.Out, f.streams.ErrOut
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("there was a problem with the editor %q: %w", editor, err)
	}
	return os.ReadFile(path)
}
