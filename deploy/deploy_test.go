package deploy

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/goccy/go-yaml"
)

const (
	kubeDir       = "kubernetes"
	exampleConfig = "trogdor/trogdor.json.example"
	// configKey is the ConfigMap key holding Trogdor's platform config.
	configKey     = "trogdor.json"
	basicPlatform = "org.apache.kafka.trogdor.basic.BasicPlatform"
	workerJarName = "prodlab-worker.jar"
	// trogdorAgentDefaultPort is what Trogdor assumes for a node without
	// trogdor.agent.port (Agent.DEFAULT_PORT): the coordinator then polls
	// that node as an agent (TaskManager keeps every node whose agent port
	// is > 0).
	trogdorAgentDefaultPort = 8888
	// configMapMaxBytes is Kubernetes' limit on a ConfigMap (1 MiB), less
	// room for the object's metadata: the worker jar travels in one.
	configMapMaxBytes = 1<<20 - 16<<10
)

// objectMeta is the part of a Kubernetes object's metadata the checks read.
type objectMeta struct {
	Name   string            `yaml:"name"`
	Labels map[string]string `yaml:"labels"`
}

// header is what every Kubernetes object must carry.
type header struct {
	APIVersion string     `yaml:"apiVersion"`
	Kind       string     `yaml:"kind"`
	Metadata   objectMeta `yaml:"metadata"`
}

type configMap struct {
	Metadata objectMeta        `yaml:"metadata"`
	Data     map[string]string `yaml:"data"`
}

type servicePort struct {
	Name       string `yaml:"name"`
	Port       int    `yaml:"port"`
	TargetPort any    `yaml:"targetPort"` // a number or a container port's name
}

type service struct {
	Metadata objectMeta `yaml:"metadata"`
	Spec     struct {
		ClusterIP string            `yaml:"clusterIP"`
		Selector  map[string]string `yaml:"selector"`
		Ports     []servicePort     `yaml:"ports"`
	} `yaml:"spec"`
}

type envVar struct {
	Name      string `yaml:"name"`
	Value     string `yaml:"value"`
	ValueFrom *struct {
		FieldRef *struct {
			FieldPath string `yaml:"fieldPath"`
		} `yaml:"fieldRef"`
	} `yaml:"valueFrom"`
}

type container struct {
	Name    string   `yaml:"name"`
	Image   string   `yaml:"image"`
	Command []string `yaml:"command"`
	Args    []string `yaml:"args"`
	Env     []envVar `yaml:"env"`
	Ports   []struct {
		Name          string `yaml:"name"`
		ContainerPort int    `yaml:"containerPort"`
	} `yaml:"ports"`
	Resources struct {
		Requests map[string]any `yaml:"requests"`
		Limits   map[string]any `yaml:"limits"`
	} `yaml:"resources"`
	SecurityContext *struct {
		Privileged   *bool `yaml:"privileged"`
		Capabilities *struct {
			Add []string `yaml:"add"`
		} `yaml:"capabilities"`
	} `yaml:"securityContext"`
	VolumeMounts []struct {
		Name      string `yaml:"name"`
		MountPath string `yaml:"mountPath"`
	} `yaml:"volumeMounts"`
}

type volume struct {
	Name      string `yaml:"name"`
	ConfigMap *struct {
		Name string `yaml:"name"`
	} `yaml:"configMap"`
}

// workload is a StatefulSet or a Deployment, as far as the checks read it.
type workload struct {
	Metadata objectMeta `yaml:"metadata"`
	Spec     struct {
		Replicas    *int   `yaml:"replicas"`
		ServiceName string `yaml:"serviceName"`
		Selector    struct {
			MatchLabels map[string]string `yaml:"matchLabels"`
		} `yaml:"selector"`
		Template struct {
			Metadata objectMeta `yaml:"metadata"`
			Spec     struct {
				InitContainers []container `yaml:"initContainers"`
				Containers     []container `yaml:"containers"`
				Volumes        []volume    `yaml:"volumes"`
			} `yaml:"spec"`
		} `yaml:"template"`
	} `yaml:"spec"`
}

// replicas is the workload's replica count; Kubernetes defaults it to 1.
func (w *workload) replicas() int {
	if w.Spec.Replicas == nil {
		return 1
	}
	return *w.Spec.Replicas
}

// node is one node of a Trogdor platform config, with Trogdor's defaults
// applied: a missing trogdor.agent.port is 8888, as Trogdor reads it.
type node struct {
	Name            string
	Hostname        string
	AgentPort       int
	CoordinatorPort int // 0: not the coordinator
}

// platformConfig is a parsed Trogdor platform config (trogdor.json).
type platformConfig struct {
	Platform string
	Nodes    []node // sorted by name
}

// agents are the nodes the coordinator treats as agents (agent port > 0,
// Trogdor's TaskManager rule).
func (p platformConfig) agents() []node {
	var out []node
	for _, n := range p.Nodes {
		if n.AgentPort > 0 {
			out = append(out, n)
		}
	}
	return out
}

// coordinators are the nodes with a trogdor.coordinator.port.
func (p platformConfig) coordinators() []node {
	var out []node
	for _, n := range p.Nodes {
		if n.CoordinatorPort != 0 {
			out = append(out, n)
		}
	}
	return out
}

// parsePlatform reads a Trogdor platform config the way BasicPlatform does:
// a "platform" class and a "nodes" object; ports may be JSON numbers or
// strings (Trogdor reads them as text and parses an int).
func parsePlatform(data []byte) (platformConfig, error) {
	var raw struct {
		Platform string                    `json:"platform"`
		Nodes    map[string]map[string]any `json:"nodes"`
	}
	if err := json.Unmarshal(data, &raw); err != nil {
		return platformConfig{}, fmt.Errorf("parse trogdor config: %w", err)
	}
	cfg := platformConfig{Platform: raw.Platform}
	for name, fields := range raw.Nodes {
		n := node{Name: name, AgentPort: trogdorAgentDefaultPort}
		if h, ok := fields["hostname"].(string); ok {
			n.Hostname = h
		}
		for key, dst := range map[string]*int{
			"trogdor.agent.port":       &n.AgentPort,
			"trogdor.coordinator.port": &n.CoordinatorPort,
		} {
			v, ok := fields[key]
			if !ok {
				continue
			}
			p, err := portValue(v)
			if err != nil {
				return platformConfig{}, fmt.Errorf("parse trogdor config: node %s: %s: %w", name, key, err)
			}
			*dst = p
		}
		cfg.Nodes = append(cfg.Nodes, n)
	}
	sort.Slice(cfg.Nodes, func(i, j int) bool { return cfg.Nodes[i].Name < cfg.Nodes[j].Name })
	return cfg, nil
}

// portValue reads a port given as a JSON number or a string of digits.
func portValue(v any) (int, error) {
	switch x := v.(type) {
	case float64:
		if x != math.Trunc(x) {
			return 0, fmt.Errorf("port %v is not an integer", x)
		}
		return int(x), nil
	case string:
		p, err := strconv.Atoi(x)
		if err != nil {
			return 0, fmt.Errorf("port %q: %w", x, err)
		}
		return p, nil
	}
	return 0, fmt.Errorf("port %v is neither a number nor a string", v)
}

// document is one YAML document of a manifest file.
type document struct {
	file  string
	index int // 0-based position in the file
	value any
}

func (d document) String() string { return fmt.Sprintf("%s document %d", d.file, d.index+1) }

// decode turns the document into a typed view by re-encoding it.
func (d document) decode(dst any) error {
	data, err := yaml.Marshal(d.value)
	if err != nil {
		return fmt.Errorf("%s: re-encode: %w", d, err)
	}
	if err := yaml.Unmarshal(data, dst); err != nil {
		return fmt.Errorf("%s: decode: %w", d, err)
	}
	return nil
}

// fleet is everything the deploy directory describes, parsed.
type fleet struct {
	docs        []document
	example     platformConfig // trogdor/trogdor.json.example
	configMap   configMap      // the ConfigMap holding trogdor.json
	platform    platformConfig // its trogdor.json
	services    []service
	agents      workload // the StatefulSet
	coordinator workload // the Deployment
}

// loadFleet parses files (name relative to deploy/ → content): every
// kubernetes/*.yaml and the example config.
func loadFleet(files map[string][]byte) (*fleet, error) {
	f := &fleet{}
	ex, ok := files[exampleConfig]
	if !ok {
		return nil, fmt.Errorf("load: %s missing", exampleConfig)
	}
	var err error
	if f.example, err = parsePlatform(ex); err != nil {
		return nil, fmt.Errorf("load %s: %w", exampleConfig, err)
	}
	names := make([]string, 0, len(files))
	for name := range files {
		if strings.HasPrefix(name, kubeDir+"/") {
			names = append(names, name)
		}
	}
	sort.Strings(names)
	var configMaps, statefulSets, deployments int
	for _, name := range names {
		dec := yaml.NewDecoder(bytes.NewReader(files[name]))
		for i := 0; ; i++ {
			var v any
			if err := dec.Decode(&v); errors.Is(err, io.EOF) {
				break
			} else if err != nil {
				return nil, fmt.Errorf("load %s document %d: %w", name, i+1, err)
			}
			if v == nil {
				continue // an empty document, e.g. after a trailing ---
			}
			d := document{file: name, index: i, value: v}
			f.docs = append(f.docs, d)
			var h header
			if err := d.decode(&h); err != nil {
				return nil, err
			}
			switch h.Kind {
			case "ConfigMap":
				var cm configMap
				if err := d.decode(&cm); err != nil {
					return nil, err
				}
				if _, ok := cm.Data[configKey]; ok {
					f.configMap = cm
					configMaps++
				}
			case "Service":
				var s service
				if err := d.decode(&s); err != nil {
					return nil, err
				}
				f.services = append(f.services, s)
			case "StatefulSet":
				statefulSets++
				if err := d.decode(&f.agents); err != nil {
					return nil, err
				}
			case "Deployment":
				deployments++
				if err := d.decode(&f.coordinator); err != nil {
					return nil, err
				}
			}
		}
	}
	for what, n := range map[string]int{
		"ConfigMap with " + configKey: configMaps,
		"StatefulSet (agents)":        statefulSets,
		"Deployment (coordinator)":    deployments,
	} {
		if n != 1 {
			return nil, fmt.Errorf("load %s: want exactly one %s, found %d", kubeDir, what, n)
		}
	}
	if f.platform, err = parsePlatform([]byte(f.configMap.Data[configKey])); err != nil {
		return nil, fmt.Errorf("load ConfigMap %s: %w", f.configMap.Metadata.Name, err)
	}
	return f, nil
}

// readDeployFiles reads the example config and every kubernetes/*.yaml.
func readDeployFiles(t *testing.T) map[string][]byte {
	t.Helper()
	files := map[string][]byte{}
	paths, err := filepath.Glob(filepath.Join(kubeDir, "*.yaml"))
	if err != nil {
		t.Fatalf("glob manifests: %v", err)
	}
	if len(paths) == 0 {
		t.Fatalf("no manifests in %s", kubeDir)
	}
	for _, p := range append(paths, filepath.FromSlash(exampleConfig)) {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatalf("read %s: %v", p, err)
		}
		files[filepath.ToSlash(p)] = data
	}
	return files
}

// check is one consistency rule over the parsed fleet.
type check struct {
	name string
	run  func(*fleet) error
}

// checks are the rules TestDeploy applies and TestChecksFail breaks.
var checks = []check{
	// Every object can be applied: Kubernetes refuses one without these.
	{"headers", checkHeaders},
	// Both Trogdor configs are BasicPlatform configs with agents and one coordinator.
	{"platform", checkPlatforms},
	// One agent pod per agent node.
	{"replicas", checkReplicas},
	// Agent node names are the pod names; host names are the pods' DNS names.
	{"agent names", checkAgentNames},
	// The agent port is the container's and the headless Service's.
	{"agent ports", checkAgentPorts},
	// The coordinator node is the coordinator Service, on its port.
	{"coordinator", checkCoordinator},
	// trogdor.sh agent/coordinator with the right -c and -n.
	{"commands", checkCommands},
	// prodlab-worker.jar on CLASSPATH, from a mounted volume.
	{"class path", checkClassPath},
	// Requests and limits set, nothing privileged.
	{"containers", checkContainers},
}

func checkHeaders(f *fleet) error {
	var errs []error
	for _, d := range f.docs {
		var h header
		if err := d.decode(&h); err != nil {
			errs = append(errs, err)
			continue
		}
		for field, v := range map[string]string{"apiVersion": h.APIVersion, "kind": h.Kind, "metadata.name": h.Metadata.Name} {
			if v == "" {
				errs = append(errs, fmt.Errorf("%s: no %s", d, field))
			}
		}
	}
	return errors.Join(errs...)
}

// checkPlatform checks one Trogdor config on its own.
func checkPlatform(what string, p platformConfig) error {
	var errs []error
	if p.Platform != basicPlatform {
		errs = append(errs, fmt.Errorf("%s: platform is %q, want %s", what, p.Platform, basicPlatform))
	}
	for _, n := range p.Nodes {
		if n.Hostname == "" {
			errs = append(errs, fmt.Errorf("%s: node %s has no hostname", what, n.Name))
		}
		for _, port := range []int{n.AgentPort, n.CoordinatorPort} {
			if port < 0 || port > 65535 {
				errs = append(errs, fmt.Errorf("%s: node %s: port %d out of range", what, n.Name, port))
			}
		}
	}
	coords := p.coordinators()
	if len(coords) != 1 {
		errs = append(errs, fmt.Errorf("%s: want one coordinator node (trogdor.coordinator.port), found %d", what, len(coords)))
	}
	for _, c := range coords {
		if c.AgentPort > 0 {
			errs = append(errs, fmt.Errorf("%s: coordinator node %s has agent port %d (absent means %d): the coordinator polls it as an agent; set trogdor.agent.port to 0",
				what, c.Name, c.AgentPort, trogdorAgentDefaultPort))
		}
	}
	if len(p.agents()) == 0 {
		errs = append(errs, fmt.Errorf("%s: no agent nodes", what))
	}
	return errors.Join(errs...)
}

func checkPlatforms(f *fleet) error {
	return errors.Join(checkPlatform(exampleConfig, f.example),
		checkPlatform("ConfigMap "+f.configMap.Metadata.Name, f.platform))
}

func checkReplicas(f *fleet) error {
	if got, want := f.agents.replicas(), len(f.platform.agents()); got != want {
		return fmt.Errorf("StatefulSet %s: replicas %d, but %s names %d agent nodes",
			f.agents.Metadata.Name, got, configKey, want)
	}
	return nil
}

// service finds a Service by name.
func (f *fleet) service(name string) (*service, error) {
	for i := range f.services {
		if f.services[i].Metadata.Name == name {
			return &f.services[i], nil
		}
	}
	return nil, fmt.Errorf("no Service %q", name)
}

// selects reports whether every selector label is among the pod labels.
func selects(selector, labels map[string]string) bool {
	if len(selector) == 0 {
		return false
	}
	for k, v := range selector {
		if labels[k] != v {
			return false
		}
	}
	return true
}

// hostnameFor is the pattern of a DNS name of host under service: short
// (resolved through the namespace's search path) or fully qualified.
func hostnameFor(host, service string) *regexp.Regexp {
	under := ""
	if service != "" {
		under = `(\.` + regexp.QuoteMeta(service) + `)?`
	}
	return regexp.MustCompile("^" + regexp.QuoteMeta(host) + under +
		`(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?\.svc\.cluster\.local)?$`)
}

func checkAgentNames(f *fleet) error {
	sts := &f.agents
	var errs []error
	svc, err := f.service(sts.Spec.ServiceName)
	if err != nil {
		return fmt.Errorf("StatefulSet %s: serviceName: %w", sts.Metadata.Name, err)
	}
	if svc.Spec.ClusterIP != "None" {
		errs = append(errs, fmt.Errorf("Service %s: not headless (clusterIP %q): the agents get no per-pod DNS names", svc.Metadata.Name, svc.Spec.ClusterIP))
	}
	podLabels := sts.Spec.Template.Metadata.Labels
	if !selects(svc.Spec.Selector, podLabels) {
		errs = append(errs, fmt.Errorf("Service %s: selector %v does not select the agent pods %v", svc.Metadata.Name, svc.Spec.Selector, podLabels))
	}
	if !selects(sts.Spec.Selector.MatchLabels, podLabels) {
		errs = append(errs, fmt.Errorf("StatefulSet %s: selector %v does not select its pods %v", sts.Metadata.Name, sts.Spec.Selector.MatchLabels, podLabels))
	}
	pods := map[string]bool{}
	for i := 0; i < sts.replicas(); i++ {
		pods[fmt.Sprintf("%s-%d", sts.Metadata.Name, i)] = true
	}
	for _, n := range f.platform.agents() {
		if !pods[n.Name] {
			errs = append(errs, fmt.Errorf("%s: agent node %s is not one of the StatefulSet's pod names %s-0..%d",
				configKey, n.Name, sts.Metadata.Name, sts.replicas()-1))
			continue
		}
		// The short pod name alone does not resolve: it needs the Service.
		if re := hostnameFor(n.Name, svc.Metadata.Name); !re.MatchString(n.Hostname) || n.Hostname == n.Name {
			errs = append(errs, fmt.Errorf("%s: agent node %s: hostname %q is not the pod's DNS name %s.%s[.<namespace>.svc.cluster.local]",
				configKey, n.Name, n.Hostname, n.Name, svc.Metadata.Name))
		}
	}
	return errors.Join(errs...)
}

// containerPort resolves a Service targetPort (number or name) in c.
func containerPort(c *container, target any) (int, bool) {
	for _, p := range c.Ports {
		switch t := target.(type) {
		case string:
			if p.Name == t {
				return p.ContainerPort, true
			}
		case uint64:
			if p.ContainerPort == int(t) {
				return p.ContainerPort, true
			}
		case int:
			if p.ContainerPort == t {
				return p.ContainerPort, true
			}
		}
	}
	return 0, false
}

// checkServes checks that svc serves port through c: a Service port equal
// to port whose targetPort is c's port equal to port.
func checkServes(svc *service, c *container, port int) error {
	for _, sp := range svc.Spec.Ports {
		target := sp.TargetPort
		if target == nil {
			target = sp.Port // Kubernetes' default
		}
		if cp, ok := containerPort(c, target); ok && sp.Port == port && cp == port {
			return nil
		}
	}
	return fmt.Errorf("Service %s does not serve port %d on a container port %d of container %s", svc.Metadata.Name, port, port, c.Name)
}

// mainContainer is the workload's first container (the Trogdor process).
func mainContainer(w *workload) (*container, error) {
	if len(w.Spec.Template.Spec.Containers) == 0 {
		return nil, fmt.Errorf("%s: no containers", w.Metadata.Name)
	}
	return &w.Spec.Template.Spec.Containers[0], nil
}

func checkAgentPorts(f *fleet) error {
	c, err := mainContainer(&f.agents)
	if err != nil {
		return err
	}
	svc, err := f.service(f.agents.Spec.ServiceName)
	if err != nil {
		return fmt.Errorf("StatefulSet %s: serviceName: %w", f.agents.Metadata.Name, err)
	}
	var errs []error
	for _, n := range f.platform.agents() {
		if err := checkServes(svc, c, n.AgentPort); err != nil {
			errs = append(errs, fmt.Errorf("agent node %s (port %d): %w", n.Name, n.AgentPort, err))
		}
	}
	return errors.Join(errs...)
}

func checkCoordinator(f *fleet) error {
	coords := f.platform.coordinators()
	if len(coords) != 1 {
		return fmt.Errorf("%s: want one coordinator node, found %d", configKey, len(coords))
	}
	n := coords[0]
	d := &f.coordinator
	var errs []error
	if d.replicas() != 1 {
		errs = append(errs, fmt.Errorf("Deployment %s: replicas %d, want one coordinator", d.Metadata.Name, d.replicas()))
	}
	c, err := mainContainer(d)
	if err != nil {
		return errors.Join(append(errs, err)...)
	}
	var svc *service
	for i := range f.services {
		if selects(f.services[i].Spec.Selector, d.Spec.Template.Metadata.Labels) {
			svc = &f.services[i]
		}
	}
	if svc == nil {
		return errors.Join(append(errs, fmt.Errorf("no Service selector selects the coordinator pods %v", d.Spec.Template.Metadata.Labels))...)
	}
	if !hostnameFor(svc.Metadata.Name, "").MatchString(n.Hostname) {
		errs = append(errs, fmt.Errorf("%s: coordinator node %s: hostname %q is not the Service %s",
			configKey, n.Name, n.Hostname, svc.Metadata.Name))
	}
	if err := checkServes(svc, c, n.CoordinatorPort); err != nil {
		errs = append(errs, fmt.Errorf("coordinator node %s (port %d): %w", n.Name, n.CoordinatorPort, err))
	}
	return errors.Join(errs...)
}

// flagValue is the value of the first of flags in argv ("-n x" or "--node-name=x").
func flagValue(argv []string, flags ...string) (string, bool) {
	for i, a := range argv {
		for _, f := range flags {
			if a == f && i+1 < len(argv) {
				return argv[i+1], true
			}
			if strings.HasPrefix(a, f+"=") {
				return strings.TrimPrefix(a, f+"="), true
			}
		}
	}
	return "", false
}

// configMounted checks that file is key configKey of f's ConfigMap, mounted
// in c from a volume of w.
func (f *fleet) configMounted(w *workload, c *container, file string) error {
	if path.Base(file) != configKey {
		return fmt.Errorf("config file %s is not %s, the ConfigMap's key", file, configKey)
	}
	vol, err := mountedVolume(w, c, path.Dir(file))
	if err != nil {
		return fmt.Errorf("config file %s: %w", file, err)
	}
	if vol.ConfigMap == nil || vol.ConfigMap.Name != f.configMap.Metadata.Name {
		return fmt.Errorf("config file %s: volume %s is not the ConfigMap %s", file, vol.Name, f.configMap.Metadata.Name)
	}
	return nil
}

// mountedVolume is the pod volume mounted at dir in c.
func mountedVolume(w *workload, c *container, dir string) (*volume, error) {
	for _, m := range c.VolumeMounts {
		if path.Clean(m.MountPath) != path.Clean(dir) {
			continue
		}
		for i, v := range w.Spec.Template.Spec.Volumes {
			if v.Name == m.Name {
				return &w.Spec.Template.Spec.Volumes[i], nil
			}
		}
		return nil, fmt.Errorf("mount %s names no volume %q of the pod", dir, m.Name)
	}
	return nil, fmt.Errorf("nothing is mounted at %s in container %s", dir, c.Name)
}

// checkTrogdorCommand checks that c runs `trogdor.sh ROLE -c CONFIG -n NODE`
// and returns NODE.
func (f *fleet) checkTrogdorCommand(w *workload, c *container, role string) (string, error) {
	argv := append(append([]string{}, c.Command...), c.Args...)
	i := 0
	for i < len(argv) && path.Base(argv[i]) != "trogdor.sh" {
		i++
	}
	if i+1 >= len(argv) || argv[i+1] != role {
		return "", fmt.Errorf("%s: command %q does not run `trogdor.sh %s`", w.Metadata.Name, argv, role)
	}
	var errs []error
	if cfg, ok := flagValue(argv, "-c", "--"+role+".config"); !ok {
		errs = append(errs, fmt.Errorf("%s: command %q has no -c", w.Metadata.Name, argv))
	} else if err := f.configMounted(w, c, cfg); err != nil {
		errs = append(errs, fmt.Errorf("%s: -c: %w", w.Metadata.Name, err))
	}
	name, ok := flagValue(argv, "-n", "--node-name")
	if !ok {
		errs = append(errs, fmt.Errorf("%s: command %q has no -n", w.Metadata.Name, argv))
	}
	return name, errors.Join(errs...)
}

// podNameVar matches a Kubernetes $(VAR) reference in a command.
var podNameVar = regexp.MustCompile(`^\$\(([A-Za-z_][A-Za-z0-9_]*)\)$`)

func checkCommands(f *fleet) error {
	var errs []error
	if c, err := mainContainer(&f.agents); err != nil {
		errs = append(errs, err)
	} else if name, err := f.checkTrogdorCommand(&f.agents, c, "agent"); err != nil {
		errs = append(errs, err)
	} else if m := podNameVar.FindStringSubmatch(name); m == nil || !envFromPodName(c, m[1]) {
		errs = append(errs, fmt.Errorf("%s: -n %q is not $(VAR) with VAR from the pod's metadata.name", f.agents.Metadata.Name, name))
	}
	coords := f.platform.coordinators()
	if c, err := mainContainer(&f.coordinator); err != nil {
		errs = append(errs, err)
	} else if name, err := f.checkTrogdorCommand(&f.coordinator, c, "coordinator"); err != nil {
		errs = append(errs, err)
	} else if len(coords) != 1 || name != coords[0].Name {
		errs = append(errs, fmt.Errorf("%s: -n %q is not the coordinator node of %s", f.coordinator.Metadata.Name, name, configKey))
	}
	return errors.Join(errs...)
}

// envFromPodName reports whether c's variable name is the pod's name.
func envFromPodName(c *container, name string) bool {
	for _, e := range c.Env {
		if e.Name == name && e.ValueFrom != nil && e.ValueFrom.FieldRef != nil {
			return e.ValueFrom.FieldRef.FieldPath == "metadata.name"
		}
	}
	return false
}

func checkClassPath(f *fleet) error {
	var errs []error
	for _, w := range []*workload{&f.agents, &f.coordinator} {
		c, err := mainContainer(w)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		var jar string
		for _, e := range c.Env {
			if e.Name != "CLASSPATH" {
				continue
			}
			for _, entry := range strings.Split(e.Value, ":") {
				if path.Base(entry) == workerJarName {
					jar = entry
				}
			}
		}
		if jar == "" {
			errs = append(errs, fmt.Errorf("%s: CLASSPATH holds no %s", w.Metadata.Name, workerJarName))
			continue
		}
		if _, err := mountedVolume(w, c, path.Dir(jar)); err != nil {
			errs = append(errs, fmt.Errorf("%s: %s: %w", w.Metadata.Name, jar, err))
		}
	}
	return errors.Join(errs...)
}

func checkContainers(f *fleet) error {
	var errs []error
	for _, w := range []*workload{&f.agents, &f.coordinator} {
		pod := w.Spec.Template.Spec
		for _, c := range append(append([]container{}, pod.InitContainers...), pod.Containers...) {
			for _, res := range []string{"cpu", "memory"} {
				if isEmpty(c.Resources.Requests[res]) || isEmpty(c.Resources.Limits[res]) {
					errs = append(errs, fmt.Errorf("%s/%s: %s request and limit must both be set", w.Metadata.Name, c.Name, res))
				}
			}
			if sc := c.SecurityContext; sc != nil {
				if sc.Privileged != nil && *sc.Privileged {
					errs = append(errs, fmt.Errorf("%s/%s: privileged", w.Metadata.Name, c.Name))
				}
				if sc.Capabilities != nil && len(sc.Capabilities.Add) > 0 {
					errs = append(errs, fmt.Errorf("%s/%s: adds capabilities %v", w.Metadata.Name, c.Name, sc.Capabilities.Add))
				}
			}
		}
	}
	return errors.Join(errs...)
}

func isEmpty(v any) bool { return v == nil || fmt.Sprint(v) == "" }

// checkJarFits checks that the worker jar at p fits in a ConfigMap, the way
// the Kubernetes manifests deliver it.
func checkJarFits(p string) error {
	st, err := os.Stat(p)
	if err != nil {
		return fmt.Errorf("worker jar: %w", err)
	}
	if st.Size() > configMapMaxBytes {
		return fmt.Errorf("worker jar %s is %d bytes, more than a ConfigMap holds (%d): deliver it another way (deploy/kubernetes/agents.yaml)",
			p, st.Size(), configMapMaxBytes)
	}
	return nil
}

// TestDeploy parses the manifests and the example config and applies every check.
func TestDeploy(t *testing.T) {
	f, err := loadFleet(readDeployFiles(t))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range checks {
		t.Run(c.name, func(t *testing.T) {
			if err := c.run(f); err != nil {
				t.Error(err)
			}
		})
	}
}

// TestWorkerJarFitsConfigMap checks the built jar (make build) when present.
func TestWorkerJarFitsConfigMap(t *testing.T) {
	jar := filepath.Join("..", "bin", workerJarName)
	if st, err := os.Stat(jar); err != nil || st.Size() == 0 {
		t.Skipf("no built %s (make build)", jar)
	}
	if err := checkJarFits(jar); err != nil {
		t.Error(err)
	}
}

// TestCheckJarFitsFails shows checkJarFits refusing a jar too big and a missing one.
func TestCheckJarFitsFails(t *testing.T) {
	dir := t.TempDir()
	big := filepath.Join(dir, "big.jar")
	if err := os.WriteFile(big, make([]byte, 1<<20), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{big, filepath.Join(dir, "absent.jar")} {
		if err := checkJarFits(p); err == nil {
			t.Errorf("checkJarFits(%s) = nil, want an error", p)
		}
	}
}

// TestChecksFail feeds broken copies of the files and expects the named
// check (or loading) to fail with a message holding want: each check can
// fail.
func TestChecksFail(t *testing.T) {
	const (
		cm    = kubeDir + "/configmap.yaml"
		svcs  = kubeDir + "/services.yaml"
		sts   = kubeDir + "/agents.yaml"
		coord = kubeDir + "/coordinator.yaml"
	)
	cases := []struct {
		name     string
		file     string
		old, new string
		check    string // "" = loading must fail
		want     string
	}{
		// A manifest that is not YAML.
		{"bad yaml", cm, "data:", "data: [", "", "configmap.yaml"},
		// An object without apiVersion.
		{"no apiVersion", svcs, "apiVersion: v1\nkind: Service\nmetadata:\n  name: prodlab-coordinator", "kind: Service\nmetadata:\n  name: prodlab-coordinator", "headers", "no apiVersion"},
		// An object without a name.
		{"no name", coord, "name: prodlab-coordinator\n  labels", "labels", "headers", "no metadata.name"},
		// A platform class Trogdor does not have.
		{"platform class", exampleConfig, "basic.BasicPlatform", "basic.Basic", "platform", "platform is"},
		// The coordinator node without its agent port 0: it polls itself.
		{"coordinator polls itself", cm, ",\n          \"trogdor.agent.port\": 0", "", "platform", "polls it as an agent"},
		// The example config without a coordinator.
		{"no coordinator", exampleConfig, "\"trogdor.coordinator.port\": 8889,", "", "platform", "want one coordinator"},
		// A node without a hostname.
		{"no hostname", exampleConfig, "\"hostname\": \"load-2.example.net\",", "", "platform", "no hostname"},
		// One pod more than agent nodes.
		{"replicas", sts, "replicas: 3", "replicas: 4", "replicas", "replicas 4"},
		// An agent node that is no pod's name.
		{"node name", cm, "\"prodlab-agent-2\": {", "\"agent-2\": {", "agent names", "not one of the StatefulSet's pod names"},
		// An agent host name outside the headless Service.
		{"agent hostname", cm, "prodlab-agent-1.prodlab-agent\"", "prodlab-agent-1.agents\"", "agent names", "is not the pod's DNS name"},
		// A bare pod name does not resolve.
		{"bare pod name", cm, "prodlab-agent-1.prodlab-agent\"", "prodlab-agent-1\"", "agent names", "is not the pod's DNS name"},
		// The StatefulSet's serviceName names no Service.
		{"serviceName", sts, "serviceName: prodlab-agent", "serviceName: agents", "agent names", "no Service \"agents\""},
		// The agents' Service is not headless.
		{"not headless", svcs, "clusterIP: None", "type: ClusterIP", "agent names", "not headless"},
		// One agent node on another port than the container's.
		{"agent port in config", cm, "\"trogdor.agent.port\": 8888", "\"trogdor.agent.port\": 8887", "agent ports", "port 8887"},
		// The container listens elsewhere than the config says.
		{"agent container port", sts, "containerPort: 8888", "containerPort: 9999", "agent ports", "does not serve port 8888"},
		// The Service exposes another port.
		{"agent service port", svcs, "port: 8888", "port: 8887", "agent ports", "does not serve port 8888"},
		// Two coordinators.
		{"coordinator replicas", coord, "replicas: 1", "replicas: 2", "coordinator", "want one coordinator"},
		// The coordinator node's host name is not its Service.
		{"coordinator hostname", cm, "\"hostname\": \"prodlab-coordinator\"", "\"hostname\": \"coordinator\"", "coordinator", "is not the Service"},
		// The coordinator Service selects other pods.
		{"coordinator selector", svcs, "app.kubernetes.io/name: prodlab-coordinator", "app.kubernetes.io/name: coordinator", "coordinator", "no Service selector"},
		// The coordinator container listens elsewhere.
		{"coordinator port", coord, "containerPort: 8889", "containerPort: 8890", "coordinator", "does not serve port 8889"},
		// The agents run the coordinator.
		{"agent role", sts, "- agent\n", "- coordinator\n", "commands", "does not run `trogdor.sh agent`"},
		// The agents' node name is fixed instead of the pod's name.
		{"agent -n literal", sts, "- $(POD_NAME)", "- prodlab-agent-0", "commands", "-n \"prodlab-agent-0\""},
		// POD_NAME comes from the namespace, not the pod name.
		{"agent -n fieldRef", sts, "fieldPath: metadata.name", "fieldPath: metadata.namespace", "commands", "from the pod's metadata.name"},
		// No -n at all.
		{"agent no -n", sts, "- -n\n", "- --name\n", "commands", "has no -n"},
		// A config file that is not the ConfigMap's key.
		{"agent -c file", sts, "- /etc/trogdor/trogdor.json", "- /etc/trogdor/other.json", "commands", "is not trogdor.json"},
		// The config mounted from another ConfigMap.
		{"config volume", coord, "name: prodlab-trogdor", "name: other", "commands", "is not the ConfigMap prodlab-trogdor"},
		// The coordinator's node name is not in the config.
		{"coordinator -n", coord, "- coordinator\n          env", "- boss\n          env", "commands", "-n \"boss\""},
		// The long form of -c is accepted (trogdor.sh's --agent.config).
		{"long -c still checked", sts, "- -c\n            - /etc/trogdor/trogdor.json", "- --agent.config=/etc/trogdor/x.json", "commands", "x.json is not trogdor.json"},
		// The worker jar missing from the class path.
		{"class path jar", sts, "value: /opt/prodlab/prodlab-worker.jar", "value: /opt/prodlab/worker.jar", "class path", "CLASSPATH holds no prodlab-worker.jar"},
		// The jar's directory mounted nowhere.
		{"class path mount", coord, "mountPath: /opt/prodlab", "mountPath: /opt/jars", "class path", "nothing is mounted at /opt/prodlab"},
		// A privileged agent.
		{"privileged", sts, "privileged: false", "privileged: true", "containers", "privileged"},
		// An added capability.
		{"capability", coord, "drop: [\"ALL\"]", "add: [\"NET_ADMIN\"]", "containers", "adds capabilities"},
		// A missing memory limit.
		{"memory limit", coord, "memory: 1Gi", "memory:", "containers", "memory request and limit"},
	}
	checkByName := map[string]check{}
	for _, c := range checks {
		checkByName[c.name] = c
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			files := readDeployFiles(t)
			if !bytes.Contains(files[tc.file], []byte(tc.old)) {
				t.Fatalf("%s does not contain %q: update the case", tc.file, tc.old)
			}
			files[tc.file] = bytes.Replace(files[tc.file], []byte(tc.old), []byte(tc.new), 1)
			f, err := loadFleet(files)
			if tc.check == "" {
				if err == nil || !strings.Contains(err.Error(), tc.want) {
					t.Fatalf("loadFleet: error %v, want one containing %q", err, tc.want)
				}
				t.Logf("loadFleet: %v", err)
				return
			}
			if err != nil {
				t.Fatalf("loadFleet: %v", err)
			}
			c, ok := checkByName[tc.check]
			if !ok {
				t.Fatalf("no check %q", tc.check)
			}
			err = c.run(f)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("check %s: error %v, want one containing %q", tc.check, err, tc.want)
			}
			t.Logf("check %s: %v", tc.check, err)
		})
	}
}
