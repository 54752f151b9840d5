package admission

import (
	"context"
	"fmt"
	"slices"
)

// Chain runs every mutating plugin, in order, then every validating plugin,
// in order. The first refusal ends the walk: later plugins never see a
// request an earlier one rejected.
//
// The apiserver calls Admit before it prepares the object for storage and
// Validate right before it writes, so a validating plugin always judges the
// object exactly as it will be stored.
type Chain struct {
	mutating   []MutationInterface
	validating []ValidationInterface
}

var (
	_ MutationInterface   = (*Chain)(nil)
	_ ValidationInterface = (*Chain)(nil)
)

// NewChain builds a chain from plugins already in their run order.
func NewChain(mutating []MutationInterface, validating []ValidationInterface) *Chain {
	return &Chain{mutating: mutating, validating: validating}
}

// NewDefaultChain is kubeloop's fixed plugin order, the analogue of
// kube-apiserver's --enable-admission-plugins default list:
//
//	mutating:   NamespaceLifecycle, Defaulting
//	validating: NamespaceLifecycle
//
// NamespaceLifecycle is first for the same reason it heads Kubernetes' list:
// there is no point defaulting or validating an object that cannot be
// stored because its namespace is gone. Defaulting runs before the
// registry's strategy validates (see Validation), so that validation
// judges the defaulted object (a pod with no restartPolicy is valid
// because it becomes Always).
//
// NamespaceLifecycle sits in both phases; see its Validate for why.
func NewDefaultChain(ns NamespaceGetter) *Chain {
	lifecycle := NewNamespaceLifecycle(ns)
	return NewChain(
		[]MutationInterface{lifecycle, NewDefaulting()},
		[]ValidationInterface{lifecycle},
	)
}

// Admit runs the mutating phase.
func (c *Chain) Admit(ctx context.Context, a *Attributes) error {
	for _, p := range c.mutating {
		if err := p.Admit(ctx, a); err != nil {
			return err
		}
	}
	return nil
}

// Validate runs the validating phase. Plugins that are both mutating and
// validating run in both phases, as in Kubernetes.
func (c *Chain) Validate(ctx context.Context, a *Attributes) error {
	for _, p := range c.validating {
		if err := p.Validate(ctx, a); err != nil {
			return err
		}
	}
	return nil
}

// The optional plugins, by kube-apiserver's names.
const (
	PluginServiceAccount  = "ServiceAccount"
	PluginNodeRestriction = "NodeRestriction"
)

// NewChainWith is the default chain plus the named optional plugins
// (kube-apiserver's --enable-admission-plugins), in Kubernetes' order:
//
//	mutating:   NamespaceLifecycle, ServiceAccount, Defaulting
//	validating: NamespaceLifecycle, ServiceAccount, NodeRestriction
//
// ServiceAccount is optional because it refuses pods until their account
// exists, which only a cluster running the serviceaccount controller
// makes; the apiserver tests run without one, and so does a bare
// cluster.Start (cluster/grants.go, admissionPlugins).
func NewChainWith(ns NamespaceGetter, accounts ServiceAccountGetter, enabled []string) (*Chain, error) {
	lifecycle := NewNamespaceLifecycle(ns)
	mutating := []MutationInterface{lifecycle}
	validating := []ValidationInterface{lifecycle}
	for _, name := range enabled {
		switch name {
		case PluginServiceAccount:
			sa := NewServiceAccount(accounts)
			mutating, validating = append(mutating, sa), append(validating, sa)
		case PluginNodeRestriction:
		default:
			return nil, fmt.Errorf("admission: unknown plugin %q", name)
		}
	}
	if slices.Contains(enabled, PluginNodeRestriction) {
		validating = append(validating, NodeRestriction{})
	}
	return NewChain(append(mutating, NewDefaulting()), validating), nil
}
