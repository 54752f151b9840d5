// Package pki is the cluster's certificates: a certificate authority, the
// apiserver's serving certificate, and client certificates whose subject is
// an identity (CN = user name, O = groups), all kept as PEM files in the
// data dir so that a restart keeps trusting the same clients.
//
// Where it sits on the spine: before the apiserver serves. cluster.Start
// and `kubeloop up` load or create the CA, the serving certificate and the
// admin's client certificate, and issue one client certificate per
// component (controller manager, scheduler, each kubelet).
//
// Kubernetes counterparts (v1.37.2): kubeadm's cmd/kubeadm/app/phases/certs
// (the layout ca.crt, ca.key, apiserver.crt, apiserver.key under
// /etc/kubernetes/pki) and cmd/kubeadm/app/util/pkiutil/pki_helpers.go
// (NewCertificateAuthority, NewCertAndKey), and client-go's util/cert
// (NewSelfSignedCACert).
//
// What we simplify: ECDSA P-256 keys (kubeadm defaults to RSA 2048; ECDSA
// is much faster to generate, which tests notice), one CA for everything
// (kubeadm has separate ones for front-proxy and etcd), no renewal: the CA
// lives ten years, leaf certificates one year, and a serving certificate
// that no longer covers the listen address is simply issued again.
package pki
