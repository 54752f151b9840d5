package main

import (
	"github.com/spf13/cobra"

	"kubeloop/cluster"
)

// allComponents is what `kubeloop up` runs beside the apiserver. The
// controller manager, scheduler and kubelets join as they are built.
func allComponents(nodes int) (cluster.Components, error) {
	return cluster.Full(nodes), nil
}

// componentCommands are the one-component-per-process commands.
func componentCommands() []*cobra.Command { return nil }
