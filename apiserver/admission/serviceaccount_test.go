package admission

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kubeloop/api"
)

// accountStore is an in-memory ServiceAccountGetter with the two reads the
// plugin makes: the watch cache (cached) and etcd (live), and a count of
// the live reads.
type accountStore struct {
	mu        sync.Mutex
	cached    map[string]*api.ServiceAccount
	live      map[string]*api.ServiceAccount
	liveReads int
	// appears is stored (live only, the cache lags) at the appearsAt-th
	// live read: an account the controller makes while the plugin waits.
	appears   *api.ServiceAccount
	appearsAt int
}

func newAccountStore(accounts ...*api.ServiceAccount) *accountStore {
	s := &accountStore{cached: map[string]*api.ServiceAccount{}, live: map[string]*api.ServiceAccount{}}
	for _, sa := range accounts {
		s.cached[sa.Namespace+"/"+sa.Name], s.live[sa.Namespace+"/"+sa.Name] = sa, sa
	}
	return s
}

func (s *accountStore) GetServiceAccount(_ context.Context, ns, name string, live bool) (*api.ServiceAccount, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	from := s.cached
	if live {
		from, s.liveReads = s.live, s.liveReads+1
		if s.appears != nil && s.liveReads == s.appearsAt {
			s.live[s.appears.Namespace+"/"+s.appears.Name] = s.appears
		}
	}
	sa, ok := from[ns+"/"+name]
	if !ok {
		return nil, api.NewNotFound(api.GroupResource{Resource: "serviceaccounts"}, name)
	}
	return sa.DeepCopy(), nil
}

func account(ns, name string, mutate ...func(*api.ServiceAccount)) *api.ServiceAccount {
	sa := &api.ServiceAccount{ObjectMeta: api.ObjectMeta{Namespace: ns, Name: name}}
	for _, m := range mutate {
		m(sa)
	}
	return sa
}

func saPod(mutate ...func(*api.Pod)) *api.Pod {
	p := &api.Pod{ObjectMeta: api.ObjectMeta{Namespace: "ns", Name: "p"}, Spec: api.PodSpec{
		InitContainers: []api.Container{{Name: "init", Image: "busybox"}},
		Containers:     []api.Container{{Name: "a", Image: "nginx"}, {Name: "b", Image: "nginx"}},
	}}
	for _, m := range mutate {
		m(p)
	}
	return p
}

// testServiceAccount is the plugin with a fixed volume name and short
// retries, so a missing default account is refused in milliseconds.
func testServiceAccount(s *accountStore) *ServiceAccount {
	p := NewServiceAccount(s)
	p.generateName = func(base string) string { return base + "x7k2q" }
	p.retryInterval = time.Millisecond
	return p
}

// admitWithServiceAccount runs both phases, as the chain does.
func admitWithServiceAccount(t *testing.T, p *ServiceAccount, pod *api.Pod) error {
	t.Helper()
	a := createAttrs(t, "", "Pod", pod)
	if err := p.Admit(context.Background(), a); err != nil {
		return err
	}
	return p.Validate(context.Background(), a)
}

func TestServiceAccountDefaultsTheNameAndMountsTheTokenInEveryContainer(t *testing.T) {
	pod := saPod()
	require.NoError(t, admitWithServiceAccount(t, testServiceAccount(newAccountStore(account("ns", "default"))), pod))

	assert.Equal(t, "default", pod.Spec.ServiceAccountName)
	mode, expiration := int32(0o644), int64(3607)
	want := api.Volume{Name: "kube-api-access-x7k2q", VolumeSource: api.VolumeSource{Projected: &api.ProjectedVolumeSource{
		DefaultMode: &mode,
		Sources: []api.VolumeProjection{
			{ServiceAccountToken: &api.ServiceAccountTokenProjection{Path: "token", ExpirationSeconds: &expiration}},
			{ConfigMap: &api.ConfigMapProjection{LocalObjectReference: api.LocalObjectReference{Name: "kube-root-ca.crt"},
				Items: []api.KeyToPath{{Key: "ca.crt", Path: "ca.crt"}}}},
			{DownwardAPI: &api.DownwardAPIProjection{Items: []api.DownwardAPIVolumeFile{{Path: "namespace",
				FieldRef: &api.ObjectFieldSelector{APIVersion: "v1", FieldPath: "metadata.namespace"}}}}},
		},
	}}}
	assert.Equal(t, []api.Volume{want}, pod.Spec.Volumes)
	mount := api.VolumeMount{Name: "kube-api-access-x7k2q", ReadOnly: true, MountPath: "/var/run/secrets/kubernetes.io/serviceaccount"}
	for _, c := range append(pod.Spec.InitContainers, pod.Spec.Containers...) {
		assert.Equal(t, []api.VolumeMount{mount}, c.VolumeMounts, "container %s", c.Name)
	}
}

func TestServiceAccountTokenFollowsAutomountOfThePodThenTheAccount(t *testing.T) {
	no, yes := false, true
	cases := []struct {
		name           string
		pod, account   *bool
		wantTokenMount bool
	}{
		{"neither says", nil, nil, true},
		{"the pod says no", &no, nil, false},
		{"the account says no", nil, &no, false},
		{"the pod's yes beats the account's no", &yes, &no, true},
		{"the pod's no beats the account's yes", &no, &yes, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			sa := account("ns", "default", func(sa *api.ServiceAccount) { sa.AutomountServiceAccountToken = c.account })
			pod := saPod(func(p *api.Pod) { p.Spec.AutomountServiceAccountToken = c.pod })
			require.NoError(t, admitWithServiceAccount(t, testServiceAccount(newAccountStore(sa)), pod))
			assert.Equal(t, "default", pod.Spec.ServiceAccountName, "the account is defaulted either way")
			assert.Equal(t, c.wantTokenMount, len(pod.Spec.Volumes) == 1)
			assert.Equal(t, c.wantTokenMount, len(pod.Spec.Containers[0].VolumeMounts) == 1)
		})
	}
}

func TestContainerThatMountsTheTokenPathKeepsItsOwnVolume(t *testing.T) {
	own := api.VolumeMount{Name: "mine", MountPath: DefaultAPITokenMountPath}
	accounts := newAccountStore(account("ns", "default"))

	pod := saPod(func(p *api.Pod) {
		p.Spec.Volumes = []api.Volume{{Name: "mine"}}
		p.Spec.Containers[0].VolumeMounts = []api.VolumeMount{own}
	})
	require.NoError(t, admitWithServiceAccount(t, testServiceAccount(accounts), pod))
	assert.Equal(t, []api.VolumeMount{own}, pod.Spec.Containers[0].VolumeMounts)
	assert.Equal(t, "kube-api-access-x7k2q", pod.Spec.Containers[1].VolumeMounts[0].Name)
	require.Len(t, pod.Spec.Volumes, 2, "the others still need the token volume")

	pod = saPod(func(p *api.Pod) {
		p.Spec.Volumes = []api.Volume{{Name: "mine"}}
		p.Spec.InitContainers[0].VolumeMounts = []api.VolumeMount{own}
		for i := range p.Spec.Containers {
			p.Spec.Containers[i].VolumeMounts = []api.VolumeMount{own}
		}
	})
	require.NoError(t, admitWithServiceAccount(t, testServiceAccount(accounts), pod))
	assert.Equal(t, []api.Volume{{Name: "mine"}}, pod.Spec.Volumes, "no container needs the token volume: none is added")
}

func TestExistingKubeAPIAccessVolumeIsMountedNotDuplicated(t *testing.T) {
	pod := saPod(func(p *api.Pod) { p.Spec.Volumes = []api.Volume{{Name: "kube-api-access-abcde"}} })
	require.NoError(t, admitWithServiceAccount(t, testServiceAccount(newAccountStore(account("ns", "default"))), pod))
	assert.Equal(t, []api.Volume{{Name: "kube-api-access-abcde"}}, pod.Spec.Volumes)
	assert.Equal(t, "kube-api-access-abcde", pod.Spec.Containers[1].VolumeMounts[0].Name)
}

func TestImagePullSecretsComeFromTheAccountUnlessThePodHasItsOwn(t *testing.T) {
	sa := account("ns", "default", func(sa *api.ServiceAccount) {
		sa.ImagePullSecrets = []api.LocalObjectReference{{Name: "registry"}}
	})
	pod := saPod()
	require.NoError(t, admitWithServiceAccount(t, testServiceAccount(newAccountStore(sa)), pod))
	assert.Equal(t, []api.LocalObjectReference{{Name: "registry"}}, pod.Spec.ImagePullSecrets)

	pod = saPod(func(p *api.Pod) { p.Spec.ImagePullSecrets = []api.LocalObjectReference{{Name: "mine"}} })
	require.NoError(t, admitWithServiceAccount(t, testServiceAccount(newAccountStore(sa)), pod))
	assert.Equal(t, []api.LocalObjectReference{{Name: "mine"}}, pod.Spec.ImagePullSecrets)
}

// A missing account refuses the pod in the mutating phase already, with
// Kubernetes' 403 message. The default account, which a controller is
// about to make, is looked up live several times; any other once.
func TestMissingServiceAccountIsForbiddenAfterRetriesOnlyForDefault(t *testing.T) {
	for _, c := range []struct {
		account   string
		liveReads int
	}{{"", 10}, {"robot", 1}} {
		t.Run("account="+c.account, func(t *testing.T) {
			accounts := newAccountStore()
			pod := saPod(func(p *api.Pod) { p.Spec.ServiceAccountName = c.account })
			err := testServiceAccount(accounts).Admit(context.Background(), createAttrs(t, "", "Pod", pod))
			name := c.account
			if name == "" {
				name = "default"
			}
			require.True(t, IsForbidden(err), "%v", err)
			assert.EqualError(t, err, `pods "p" is forbidden: error looking up service account ns/`+name+`: serviceaccount "`+name+`" not found`)
			assert.Equal(t, c.liveReads, accounts.liveReads)
			assert.Empty(t, pod.Spec.Volumes, "a refused pod is not mounted")
		})
	}
}

// The default account made while the plugin looks again admits the pod:
// the plugin's wait is what saves a pod created right after its namespace.
func TestDefaultServiceAccountFoundLiveOnARetry(t *testing.T) {
	accounts := newAccountStore()
	accounts.appears, accounts.appearsAt = account("ns", "default"), 3
	pod := saPod()
	p, a := testServiceAccount(accounts), createAttrs(t, "", "Pod", pod)
	require.NoError(t, p.Admit(context.Background(), a))
	assert.Equal(t, 3, accounts.liveReads, "found on the third live read")
	assert.Len(t, pod.Spec.Volumes, 1)
	require.NoError(t, p.Validate(context.Background(), a), "the cache still lags: Validate reads live too")
}
