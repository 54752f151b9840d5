package cmd

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"kubeloop/api"
	"kubeloop/client"
)

// IOStreams are where a command reads and writes; tests pass buffers.
type IOStreams struct {
	In     io.Reader
	Out    io.Writer
	ErrOut io.Writer
}

// Exit codes, as kubectl's: 1 for a failed command, 2 for a wrong command line.
const (
	exitError = 1
	exitUsage = 2
)

// usageError marks a mistake in the command line (not in the cluster), so
// Run prints the usage hint and exits 2.
type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg }

func usageErrorf(format string, args ...any) error {
	return &usageError{msg: fmt.Sprintf(format, args...)}
}

// factory holds the global flags and turns them into a client on demand,
// like kubectl's cmdutil.Factory but without the RESTMapper: every kind is
// in api.Builtin().
type factory struct {
	kubeconfig, server, context, namespace string
	// The credential flags override the kubeconfig's, as kubectl's do.
	token, certificateAuthority string
	insecureSkipTLSVerify       bool
	as                          string
	asGroups                    []string
	streams                     IOStreams
}

// Client builds a client from --kubeconfig/$KUBECONFIG, --context,
// --server and the credential flags. --server alone is enough for a
// plain-HTTP cluster, or with --token and --certificate-authority for an
// HTTPS one.
func (f *factory) Client() (*client.Client, error) {
	kc, kcErr := client.LoadKubeconfig(f.kubeconfig)
	var cfg *client.Config
	if kcErr == nil {
		c, err := kc.ClientConfig(f.context)
		if err != nil && f.server == "" {
			return nil, err
		}
		cfg = c
	} else if f.server == "" {
		return nil, kcErr
	}
	if cfg == nil {
		cfg = &client.Config{}
	}
	if f.server != "" {
		cfg.Host = f.server
	}
	if f.token != "" {
		// A token replaces the kubeconfig user's certificate, as in kubectl.
		cfg.BearerToken = f.token
		cfg.TLS.CertData, cfg.TLS.CertFile, cfg.TLS.KeyData, cfg.TLS.KeyFile = nil, "", nil, ""
	}
	if f.certificateAuthority != "" {
		cfg.TLS.CAFile, cfg.TLS.CAData = f.certificateAuthority, nil
	}
	if f.insecureSkipTLSVerify {
		cfg.TLS.Insecure = true
	}
	if f.as != "" {
		cfg.Impersonate = client.ImpersonationConfig{UserName: f.as, Groups: f.asGroups}
	}
	cfg.UserAgent = "kubectl-lite"
	return client.NewForConfig(cfg)
}

// Namespace is -n, else the context's namespace, else "default".
func (f *factory) Namespace() string {
	if f.namespace != "" {
		return f.namespace
	}
	if kc, err := client.LoadKubeconfig(f.kubeconfig); err == nil {
		return kc.Namespace(f.context)
	}
	return api.NamespaceDefault
}

// NewRootCommand builds the command tree.
func NewRootCommand(streams IOStreams) *cobra.Command {
	f := &factory{streams: streams}
	root := &cobra.Command{
		Use:           "kubectl-lite",
		Short:         "kubectl-lite controls a kubeloop cluster",
		SilenceErrors: true,
		SilenceUsage:  true,
		// Cobra's own "unknown command" check is replaced so that it is a
		// usageError like every other command-line mistake.
		Args: func(c *cobra.Command, args []string) error {
			if len(args) > 0 {
				return usageErrorf("unknown command %q for %q", args[0], c.Name())
			}
			return nil
		},
		RunE: func(c *cobra.Command, _ []string) error { return c.Help() },
	}
	root.SetIn(streams.In)
	root.SetOut(streams.Out)
	root.SetErr(streams.ErrOut)
	root.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return &usageError{msg: err.Error()} })
	pf := root.PersistentFlags()
	pf.StringVar(&f.kubeconfig, "kubeconfig", "", "path to the kubeconfig file (default $KUBECONFIG or ~/.kube/config)")
	pf.StringVar(&f.server, "server", "", "the address of the apiserver")
	pf.StringVar(&f.context, "context", "", "the kubeconfig context to use")
	pf.StringVarP(&f.namespace, "namespace", "n", "", "the namespace for this request")
	pf.StringVar(&f.token, "token", "", "a bearer token to authenticate with")
	pf.StringVar(&f.certificateAuthority, "certificate-authority", "", "path to a CA file to trust the server with")
	pf.StringVar(&f.as, "as", "", "the user to impersonate for this request")
	pf.StringSliceVar(&f.asGroups, "as-group", nil, "a group to impersonate (repeatable; needs --as)")
	pf.BoolVar(&f.insecureSkipTLSVerify, "insecure-skip-tls-verify", false, "do not check the server's certificate (insecure)")
	root.AddCommand(
		newGetCommand(f), newDescribeCommand(f), newCreateCommand(f), newApplyCommand(f),
		newDeleteCommand(f), newScaleCommand(f), newLabelCommand(f, "label"), newLabelCommand(f, "annotate"),
		newEditCommand(f), newEventsCommand(f), newWatchSpineCommand(f), newTraceCommand(f),
	)
	root.CompletionOptions.DisableDefaultCmd = true
	return root
}

// Run executes args and returns the process exit code, printing errors the
// way kubectl does (cmdutil.CheckErr).
func Run(ctx context.Context, args []string, streams IOStreams) int {
	root := NewRootCommand(streams)
	root.SetArgs(args)
	c, err := root.ExecuteContextC(ctx)
	if err == nil {
		return 0
	}
	var ue *usageError
	if errors.As(err, &ue) || strings.HasPrefix(err.Error(), "unknown command") {
		fmt.Fprintf(streams.ErrOut, "error: %s\nUsage: %s\nSee '%s --help' for usage.\n", err, c.UseLine(), c.CommandPath())
		return exitUsage
	}
	if !errors.As(err, new(reportedError)) {
		fmt.Fprintln(streams.ErrOut, errorMessage(err))
	}
	return exitError
}

// errorMessage formats err as kubectl does: server errors by reason, Invalid
// objects with their field causes, everything else prefixed with "error: ".
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
			causes = append(causes, fmt.Sprintf("%s: %s", c.Field, c.Message))
		}
		switch len(causes) {
		case 0:
			return msg
		case 1:
			return msg + ": " + causes[0]
		}
		return msg + ": \n* " + strings.Join(causes, "\n* ")
	}
	if st.Reason == api.StatusReasonUnknown {
		return "Error from server: " + st.Message
	}
	return fmt.Sprintf("Error from server (%s): %s", st.Reason, st.Message)
}

// exactArgs is cobra.ExactArgs returning a usageError.
func exactArgs(n int, what string) cobra.PositionalArgs {
	return func(_ *cobra.Command, args []string) error {
		if len(args) != n {
			return usageErrorf("%s", what)
		}
		return nil
	}
}

// readInput opens "-" as stdin and anything else as a file.
func (f *factory) readInput(name string) ([]byte, error) {
	if name == "-" {
		return io.ReadAll(f.streams.In)
	}
	return os.ReadFile(name)
}
