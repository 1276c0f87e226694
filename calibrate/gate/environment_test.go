package gate

import (
	"maps"
	"testing"

	"github.com/qoscal/qoscal/data"
)

func TestRunEnvironment(t *testing.T) {
	machine := map[string]string{data.LabelCPU: "Machine CPU", "kernel": "6.1", "arch": "amd64"}
	cpu := map[string]string{data.LabelCPU: "Run CPU", "arch": "arm64"}
	noCPU := map[string]string{"arch": "arm64", "suite": "alloc"}
	merged := func(own map[string]string) map[string]string {
		m := maps.Clone(machine)
		maps.Copy(m, own)
		return m
	}
	for _, c := range []struct {
		name                 string
		labels               map[string]string
		measuredHere, stored bool
		want                 map[string]string
		from                 string
		askedMachine         bool
	}{
		{"gate, a CPU labelled: the run's own", cpu, false, false, cpu, EnvFromLabels, false},
		{"gate, no CPU: the machine's under the run's", noCPU, false, false, merged(noCPU), EnvFromMachine, true},
		{"gate, no labels: the machine's", nil, false, false, machine, EnvFromMachine, true},
		{"gate, a stored run: its own only", noCPU, false, true, noCPU, EnvFromLabels, false},
		{"measure, a CPU labelled: the machine's under the labels", cpu, true, false, merged(cpu), EnvFromLabels, true},
		{"measure, no CPU: the machine's", noCPU, true, false, merged(noCPU), EnvFromMachine, true},
	} {
		asked := false
		got, from := RunEnvironment(c.labels, func() map[string]string { asked = true; return maps.Clone(machine) }, c.measuredHere, c.stored)
		if !maps.Equal(got, c.want) || from != c.from || asked != c.askedMachine {
			t.Errorf("%s: %v from %s (machine asked: %v), want %v from %s (%v)", c.name, got, from, asked, c.want, c.from, c.askedMachine)
		}
	}
	// The run's labels are not changed.
	if len(noCPU) != 2 {
		t.Errorf("the run's labels changed: %v", noCPU)
	}
}
