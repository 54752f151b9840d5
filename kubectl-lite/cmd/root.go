package cmd

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"kubeloop/api"
	"kubeloop/client"
)

// IOStreams are where a command reads and writes; tests pass buffers.
type IOStreams struct {
	In          io.Reader
	Out, ErrOut io.Writer
}

// usageError marks a mistake in the command line (not in the cluster): Run
// prints the usage hint and exits 2, as kubectl does; other errors exit 1.
type usageError struct{ error }

func usageErrorf(format string, args ...any) error { return usageError{fmt.Errorf(format, args...)} }

// errReported ends a command whose errors were already printed.
var errReported = errors.New("errors were reported")

// factory holds the global flags and turns them into a client, like
// kubectl's cmdutil.Factory (its RESTMapper is resourceFor).
type factory struct {
	kubeconfig, namespace, as string
	asGroups                  []string
	streams                   IOStreams
	started                   bool // cobra's checks passed: errors are the command's own
}

// Client builds a client from --kubeconfig/$KUBECONFIG (its current context)
// and --as; every command calls it before reading namespace, which it defaults.
func (f *factory) Client() (*client.Client, error) {
	kc, err := client.LoadKubeconfig(f.kubeconfig)
	var cfg *client.Config
	if err == nil {
		cfg, err = kc.ClientConfig("")
	}
	if err != nil {
		return nil, err
	}
	f.namespace = cmp.Or(f.namespace, kc.Namespace(""))
	cfg.Impersonate = client.ImpersonationConfig{UserName: f.as, Groups: f.asGroups} // no headers without --as
	cfg.UserAgent = "kubectl-lite"
	return client.NewForConfig(cfg)
}

// resourceFor maps what a user types (pods, pod, po, Pod, replicasets.apps)
// to a kind. kubectl asks discovery and a RESTMapper; kubeloop's kinds are
// all in api.Builtin(), and every resource name is unique without its group.
func resourceFor(typ string) (*api.ResourceInfo, error) {
	t, _, _ := strings.Cut(strings.ToLower(typ), ".")
	for _, info := range api.Builtin().All() {
		if t == info.Resource || t == info.Singular || t == strings.ToLower(info.Kind) || slices.Contains(info.ShortNames, t) {
			return info, nil
		}
	}
	return nil, fmt.Errorf("the server doesn't have a resource type %q", typ)
}

// target is one object the user pointed at, by name or in a manifest, with
// the client of its kind in the namespace of the command.
type target struct {
	info *api.ResourceInfo
	name string
	d    *client.DynamicResource
	// A manifest's object stays a JSON map, not a Go struct, so that apply
	// diffs exactly the fields the user wrote.
	source string         // the file, for messages
	obj    map[string]any // as written, with the command's namespace if it had none
}

// resolve is the start of every command that names objects: it reads "TYPE
// NAME..." or "TYPE/NAME..." as kubectl's resource builder does and builds
// the client. With allowNoName, "TYPE" alone is a target with no name.
func (f *factory) resolve(args []string, allowNoName bool) (*client.Client, []target, error) {
	if len(args) == 0 {
		return nil, nil, usageErrorf("you must specify the type of resource")
	}
	typ, names, slashed := args[0], args[1:], strings.Contains(args[0], "/")
	if slashed {
		names = args // each TYPE/NAME
	} else if len(names) == 0 {
		names = []string{""} // TYPE alone
	}
	cli, err := f.Client()
	if err != nil {
		return nil, nil, err
	}
	var ts []target
	for _, name := range names {
		if slashed {
			typ, name, _ = strings.Cut(name, "/")
		}
		info, err := resourceFor(typ)
		switch {
		case slashed && name == "":
			err = usageErrorf("there is no need to specify a resource type as a separate argument when passing arguments in resource/name form")
		case err == nil && name == "" && !allowNoName:
			err = usageErrorf("you must specify the name of the %s", info.Singular)
		}
		if err != nil {
			return nil, nil, err
		}
		ts = append(ts, target{info: info, name: name, d: cli.Dynamic(info).Namespace(f.namespace)})
	}
	return cli, ts, nil
}

func (f *factory) resolveOne(args []string, verb string) (*client.Client, target, error) {
	cli, ts, err := f.resolve(args, false)
	if err == nil && len(ts) != 1 {
		err = usageErrorf("%s takes exactly one object", verb)
	}
	if err != nil {
		return nil, target{}, err
	}
	return cli, ts[0], nil
}

// qualifiedKind is how kubectl names a kind in messages: "pod",
// "replicaset.apps", "lease.coordination.k8s.io".
func qualifiedKind(info *api.ResourceInfo) string {
	return strings.ToLower(strings.TrimSuffix(info.Kind+"."+info.Group, "."))
}

// objectName is the -o name form: "pod/web-1", "replicaset.apps/web".
func objectName(info *api.ResourceInfo, name string) string {
	return qualifiedKind(info) + "/" + name
}

// Run builds the command tree, executes args and returns the process exit
// code, printing errors the way kubectl does (cmdutil.CheckErr). Every error
// cobra returns before a command starts running (an unknown command or flag,
// arguments that the command's Args rejects) is a mistake in the command
// line: started tells which side of that line an error came from.
func Run(ctx context.Context, args []string, streams IOStreams) int {
	f := &factory{streams: streams}
	root := &cobra.Command{
		Use:               "kubectl-lite",
		Short:             "kubectl-lite controls a kubeloop cluster",
		SilenceErrors:     true,
		SilenceUsage:      true,
		PersistentPreRun:  func(*cobra.Command, []string) { f.started = true },
		CompletionOptions: cobra.CompletionOptions{DisableDefaultCmd: true},
	}
	root.SetOut(streams.Out)
	root.SetErr(streams.ErrOut)
	root.SetArgs(args)
	pf := root.PersistentFlags()
	pf.StringVar(&f.kubeconfig, "kubeconfig", "", "path to the kubeconfig file (default $KUBECONFIG or ~/.kube/config)")
	pf.StringVarP(&f.namespace, "namespace", "n", "", "the namespace for this request")
	pf.StringVar(&f.as, "as", "", "the user to impersonate for this request")
	pf.StringSliceVar(&f.asGroups, "as-group", nil, "a group to impersonate (repeatable; needs --as)")
	root.AddCommand(
		newGetCommand(f), newDescribeCommand(f), newWriteCommand(f, "create"), newWriteCommand(f, "apply"),
		newDeleteCommand(f), newScaleCommand(f), newLabelCommand(f, "label"), newLabelCommand(f, "annotate"),
		newEditCommand(f), newEventsCommand(f), newWatchSpineCommand(f), newTraceCommand(f),
	)
	c, err := root.ExecuteContextC(ctx)
	switch {
	case err == nil:
		return 0
	case !f.started || errors.As(err, new(usageError)):
		fmt.Fprintf(streams.ErrOut, "error: %s\nUsage: %s\nSee '%s --help' for usage.\n", err, c.UseLine(), c.CommandPath())
		return 2
	case !errors.Is(err, errReported):
		fmt.Fprintln(streams.ErrOut, errorMessage(err))
	}
	return 1
}

// errorMessage formats err as kubectl does: server errors by reason (with
// the context they were wrapped in: "error when creating "cm.yaml": ..."),
// Invalid objects with their field causes, the rest prefixed with "error: ".
// kubectl: staging/src/k8s.io/kubectl/pkg/cmd/util/helpers.go, checkErr.
func errorMessage(err error) string {
	var se *api.StatusError
	if !errors.As(err, &se) {
		return "error: " + err.Error()
	}
	st := se.ErrStatus
	if st.Reason == api.StatusReasonInvalid && st.Details != nil && (st.Details.Kind != "" || st.Details.Name != "") {
		msg := fmt.Sprintf("The %s %q is invalid", st.Details.Kind, st.Details.Name)
		var causes []string
		for _, c := range st.Details.Causes {
			causes = append(causes, c.Field+": "+c.Message)
		}
		if len(causes) > 1 {
			return msg + ": \n* " + strings.Join(causes, "\n* ")
		}
		return strings.Join(append([]string{msg}, causes...), ": ")
	}
	if st.Reason == api.StatusReasonUnknown {
		return "Error from server: " + err.Error()
	}
	return fmt.Sprintf("Error from server (%s): %s", st.Reason, err)
}

// forEach runs do on every item; a failure is printed and the rest still
// run, as kubectl does, and the command then exits 1.
func forEach[T any](f *factory, items []T, do func(T) error) error {
	var failed error
	for _, it := range items {
		if err := do(it); err != nil {
			fmt.Fprintln(f.streams.ErrOut, errorMessage(err))
			failed = errReported
		}
	}
	return failed
}
