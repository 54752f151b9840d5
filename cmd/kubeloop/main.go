// Command kubeloop runs a kubeloop cluster: everything in one process
// (`kubeloop up`, what `make run` starts) or one component per process
// against a shared apiserver (`kubeloop apiserver`, `kubeloop
// controller-manager`, `kubeloop scheduler`, `kubeloop kubelet`).
// `kubeloop decode` prints a value etcd holds as the object it is.
package main

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"os/signal"
	"syscall"

	"github.com/spf13/cobra"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	// The first signal starts a clean shutdown; once it has, the default
	// handling comes back so a second Ctrl-C kills a shutdown that hangs.
	go func() {
		<-ctx.Done()
		stop()
	}()
	slog.SetDefault(slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelInfo})))

	root := &cobra.Command{
		Use:           "kubeloop",
		Short:         "The Kubernetes control loop, rebuilt to be read",
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.AddCommand(upCommand(), apiserverCommand(), traceCommand(), decodeCommand())
	root.AddCommand(componentCommands()...)
	if err := root.ExecuteContext(ctx); err != nil {
		fmt.Fprintln(os.Stderr, "error:", err)
		os.Exit(1)
	}
}
