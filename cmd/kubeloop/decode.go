package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"
	"sigs.k8s.io/yaml"

	"kubeloop/api"
	"kubeloop/store"
)

type decodeFlags struct {
	output        string
	etcdEndpoints []string
}

// decodeCommand is `kubeloop decode`: a value as etcd holds it, shown as
// the object it is. etcdctl prints a built-in kind's protobuf as bytes;
// this reads them as the store does (store.DecodeValue) and prints YAML or
// JSON. Kubernetes' community has the same tool, auger (`auger decode`).
func decodeCommand() *cobra.Command {
	var f decodeFlags
	cmd := &cobra.Command{
		Use:   "decode [KEY]",
		Short: "Print a value etcd holds (protobuf for built-in kinds, JSON for custom resources) as YAML or JSON",
		Long: "Reads one value as etcd stores it, from standard input " +
			"(etcdctl get KEY --print-value-only | kubeloop decode) or, with --etcd-endpoints, the value of KEY, " +
			"and prints the object it holds. The stored value has no resourceVersion: the key's revision is it.",
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			var value []byte
			var err error
			switch {
			case len(args) == 1 && len(f.etcdEndpoints) > 0:
				value, err = readKey(cmd.Context(), f.etcdEndpoints, args[0])
			case len(args) == 1:
				return errors.New("reading a KEY needs --etcd-endpoints; or pipe its value: etcdctl get KEY --print-value-only | kubeloop decode")
			default:
				value, err = io.ReadAll(cmd.InOrStdin())
			}
			if err != nil {
				return err
			}
			return printValue(cmd.OutOrStdout(), cmd.ErrOrStderr(), value, f.output)
		},
	}
	cmd.Flags().StringVarP(&f.output, "output", "o", "yaml", "yaml or json")
	cmd.Flags().StringSliceVar(&f.etcdEndpoints, "etcd-endpoints", nil, "read KEY from this etcd (comma-separated URLs) instead of a value from standard input")
	return cmd
}

func readKey(ctx context.Context, endpoints []string, key string) ([]byte, error) {
	cli, err := store.NewClient(endpoints)
	if err != nil {
		return nil, err
	}
	defer cli.Close()
	resp, err := cli.Get(ctx, key)
	if err != nil {
		return nil, fmt.Errorf("get %s: %w", key, err)
	}
	if len(resp.Kvs) == 0 {
		return nil, fmt.Errorf("%s: no such key", key)
	}
	return resp.Kvs[0].Value, nil
}

// printValue writes the object in value to out as YAML or JSON, and says
// on diag how it was stored.
func printValue(out, diag io.Writer, value []byte, output string) error {
	if output != "yaml" && output != "json" {
		return fmt.Errorf("--output %q: want yaml or json", output)
	}
	data, format, err := valueJSON(value)
	if err != nil {
		return err
	}
	fmt.Fprintf(diag, "stored as %s, %d bytes\n", format, len(value))
	if output == "yaml" {
		if data, err = yaml.JSONToYAML(data); err != nil {
			return err
		}
		_, err = out.Write(data)
		return err
	}
	var indented bytes.Buffer
	if err := json.Indent(&indented, data, "", "  "); err != nil {
		return err
	}
	indented.WriteByte('\n')
	_, err = indented.WriteTo(out)
	return err
}

// valueJSON returns the object in a stored value as JSON. JSON is shown as
// it is stored; protobuf is decoded into the kind its envelope names.
func valueJSON(value []byte) ([]byte, string, error) {
	if !bytes.HasPrefix(value, []byte(api.ProtobufPrefix)) {
		if !json.Valid(value) {
			return nil, "", errors.New("the value is neither protobuf (it does not start with \"k8s\\x00\") nor JSON")
		}
		return value, "JSON", nil
	}
	// Every protobuf body ends in its empty contentType (0x22 0x00), so a
	// final newline is etcdctl's, not the value's.
	value = bytes.TrimSuffix(value, []byte("\n"))
	tm, err := api.DecodeProtobuf(value, nil)
	if err != nil {
		return nil, "", err
	}
	group := "" // "v1" is the legacy group's
	if g, _, ok := strings.Cut(tm.APIVersion, "/"); ok {
		group = g
	}
	info, ok := api.Builtin().ForKind(group, tm.Kind)
	if !ok {
		return nil, "", fmt.Errorf("protobuf of %s %s, a kind kubeloop does not know", tm.APIVersion, tm.Kind)
	}
	obj := info.New()
	if err := store.DecodeValue(value, obj); err != nil {
		return nil, "", err
	}
	data, err := api.Encode(obj)
	return data, "protobuf", err
}
