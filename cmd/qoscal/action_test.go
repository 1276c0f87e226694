package main

// The GitHub Action (action.yml at the top of the repository) run here,
// without GitHub: the file is parsed, and each of its run steps is run in
// order with bash, as the runner would, with a fake GITHUB_OUTPUT,
// GITHUB_STEP_SUMMARY, GITHUB_ACTION_PATH and RUNNER_TEMP; the ${{ }}
// expressions the action uses are evaluated here (inputs, github.*,
// runner.*, steps.*.outputs.*), and any other makes the test fail, so the
// action cannot grow an expression this test does not understand. The
// uses: steps are not run: the machine's Go stands for setup-go, and
// actionCache for actions/cache. With QOSCAL_SLOW_TESTS=1 the first job
// on each runner system misses the cache, so the build step builds qoscal
// as a runner would, and the later jobs restore it; in the quick run
// every job restores this test binary, which runs as qoscal (TestMain),
// so that the test does not build the module again.
//
// The Windows runner: every run step must say shell: bash (checked here),
// which the Windows runner has (Git Bash), so the scripts that run here are
// the ones that run there; the runner.os=Windows branch (qoscal.exe) is run
// here too. No step runs with PowerShell (the Windows runner's default for
// a step without a shell), so there is no PowerShell script to run; pwsh
// is not on Debian anyway.

import (
	"bufio"
	"bytes"
	"fmt"
	"maps"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/qoscal/qoscal/internal/testenv"
)

type actionFile struct {
	Name        string `yaml:"name"`
	Description string `yaml:"description"`
	Author      string `yaml:"author"`
	Branding    struct {
		Icon  string `yaml:"icon"`
		Color string `yaml:"color"`
	} `yaml:"branding"`
	Inputs map[string]struct {
		Description string  `yaml:"description"`
		Required    bool    `yaml:"required"`
		Default     *string `yaml:"default"`
	} `yaml:"inputs"`
	Outputs map[string]struct {
		Description string `yaml:"description"`
		Value       string `yaml:"value"`
	} `yaml:"outputs"`
	Runs struct {
		Using string       `yaml:"using"`
		Steps []actionStep `yaml:"steps"`
	} `yaml:"runs"`
}

type actionStep struct {
	Name  string            `yaml:"name"`
	ID    string            `yaml:"id"`
	If    string            `yaml:"if"`
	Uses  string            `yaml:"uses"`
	With  map[string]string `yaml:"with"`
	Shell string            `yaml:"shell"`
	Env   map[string]string `yaml:"env"`
	Run   string            `yaml:"run"`
}

func readAction(t *testing.T) (*actionFile, string) {
	t.Helper()
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(root, "action.yml"))
	if err != nil {
		t.Fatal(err)
	}
	var a actionFile
	dec := yaml.NewDecoder(strings.NewReader(string(b)))
	dec.KnownFields(true)
	if err := dec.Decode(&a); err != nil {
		t.Fatalf("action.yml: %v", err)
	}
	return &a, root
}

// TestActionFile checks the action's interface: the inputs and outputs
// issue 16 names, a composite action whose run steps all say shell: bash,
// and actions pinned to a major version.
func TestActionFile(t *testing.T) {
	a, _ := readAction(t)
	if a.Runs.Using != "composite" {
		t.Errorf("runs.using is %q, want composite", a.Runs.Using)
	}
	for _, in := range []string{"command", "baseline", "candidate", "variants", "out", "floor", "calibration", "report-only", "per-benchmark", "args", "rerun-command", "go-version", "comment", "comment-id", "token"} {
		if _, ok := a.Inputs[in]; !ok {
			t.Errorf("input %s is missing", in)
		}
	}
	for name, in := range a.Inputs {
		if in.Description == "" {
			t.Errorf("input %s has no description", name)
		}
		if !in.Required && in.Default == nil {
			t.Errorf("optional input %s has no default", name)
		}
	}
	for _, out := range []string{"verdict", "verdict-detail", "score", "floor"} {
		o, ok := a.Outputs[out]
		if !ok {
			t.Errorf("output %s is missing", out)
			continue
		}
		if want := "${{ steps.gate.outputs." + out + " }}"; o.Value != want {
			t.Errorf("output %s is %q, want %q", out, o.Value, want)
		}
	}
	pinned := regexp.MustCompile(`^actions/[a-z-]+@v[0-9]+$`)
	for i, s := range a.Runs.Steps {
		switch {
		case s.Run != "" && s.Shell != "bash":
			t.Errorf("step %d (%s) runs with shell %q: every run step must say shell: bash, or the caller's default shell (PowerShell on Windows) runs it", i, s.Name, s.Shell)
		case s.Run == "" && !pinned.MatchString(s.Uses):
			t.Errorf("step %d (%s) uses %q: want an actions/ action pinned to a major version", i, s.Name, s.Uses)
		}
		if strings.Contains(s.Run, "${{") {
			t.Errorf("step %d (%s) pastes an expression into its script: pass it through env (script injection)", i, s.Name)
		}
	}
}

// actionRun is one run of the action here: its inputs, what the fake
// runner saw, and the step outputs.
type actionRun struct {
	t       *testing.T
	a       *actionFile
	root    string
	cache   *actionCache
	inputs  map[string]string
	runner  map[string]string // runner.os, runner.arch, runner.temp
	steps   map[string]map[string]string
	dir     string // the workspace
	summary string
	logs    strings.Builder
	exit    int
	// github is the environment GitHub gives every step (the event, the
	// repository, the API's URL), over githubDefaults; token is what
	// ${{ github.token }} is.
	github map[string]string
	token  string
	// actionRef is github.action_ref, the ref after @ in uses: (empty
	// unless set); stepTime is each run step's wall time, by its id.
	actionRef string
	stepTime  map[string]time.Duration
	// env is added to every step's environment, after the rest.
	env []string
}

// githubDefaults is the environment of a push to main on octo/hoard, as
// the runner sets it, with no API to reach: every run of the action here
// sets these, so that none comes from the machine's own CI (whose event
// may be a pull request), and the comment step never reaches GitHub.
func githubDefaults(t *testing.T) map[string]string {
	return map[string]string{
		"GITHUB_EVENT_NAME": "push",
		"GITHUB_EVENT_PATH": writeJSONFile(t, map[string]any{"ref": "refs/heads/main"}),
		"GITHUB_REPOSITORY": "octo/hoard",
		"GITHUB_API_URL":    "http://127.0.0.1:1",
		"GITHUB_SERVER_URL": "https://github.com",
		"GITHUB_JOB":        "bench",
		"GITHUB_ACTOR":      "someone",
		"GITHUB_TOKEN":      "",
	}
}

var expr = regexp.MustCompile(`\$\{\{\s*(.*?)\s*\}\}`)

// eval evaluates the expressions the action uses; any other fails the test.
func (r *actionRun) eval(s string) string {
	return expr.ReplaceAllStringFunc(s, func(m string) string {
		e := expr.FindStringSubmatch(m)[1]
		parts := strings.Split(e, ".")
		switch {
		case len(parts) == 2 && parts[0] == "inputs":
			v, ok := r.inputs[parts[1]]
			if !ok {
				in, known := r.a.Inputs[parts[1]]
				if !known {
					r.t.Fatalf("expression %s: no such input", e)
				}
				if in.Default != nil {
					// A default may be an expression (${{ github.token }}).
					v = r.eval(*in.Default)
				}
			}
			return v
		case e == "github.action_path":
			return r.root
		case e == "github.action_ref":
			return r.actionRef
		case e == "github.token":
			return r.token
		case len(parts) == 2 && parts[0] == "runner":
			v, ok := r.runner[parts[1]]
			if !ok {
				r.t.Fatalf("expression %s: not known to this test", e)
			}
			return v
		case len(parts) == 4 && parts[0] == "steps" && parts[2] == "outputs":
			return r.steps[parts[1]][parts[3]]
		}
		r.t.Fatalf("expression %q is not one this test evaluates: teach action_test.go or simplify action.yml", e)
		return ""
	})
}

// cond evaluates a step's if: the action uses only terms joined by &&,
// each "steps.X.outputs.Y != 'V'" (or ==) or "!cancelled()" (true: no job
// here is cancelled), optionally inside ${{ }}. Without a status function
// (!cancelled(), always()), a step runs only while no step has failed, as
// the runner's implied success() has it.
func (r *actionRun) cond(s string, failed bool) bool {
	s = strings.TrimSpace(s)
	if m := regexp.MustCompile(`^\$\{\{\s*(.*?)\s*\}\}$`).FindStringSubmatch(s); m != nil {
		s = m[1]
	}
	status := false
	ok := true
	for _, term := range strings.Split(s, "&&") {
		term = strings.TrimSpace(term)
		if term == "" && s == "" {
			continue
		}
		if term == "!cancelled()" {
			status = true
			continue
		}
		m := regexp.MustCompile(`^steps\.([a-z-]+)\.outputs\.([a-z-]+) (!=|==) '([^']*)'$`).FindStringSubmatch(term)
		if m == nil {
			r.t.Fatalf("if: %q is not one this test evaluates", s)
		}
		if (r.steps[m[1]][m[2]] == m[4]) != (m[3] == "==") {
			ok = false
		}
	}
	return ok && (status || !failed)
}

// readOutputs parses a GITHUB_OUTPUT file: name=value lines (the action
// and qoscal write no multi-line values).
func readOutputs(t *testing.T, path string) map[string]string {
	t.Helper()
	out := map[string]string{}
	f, err := os.Open(path)
	if os.IsNotExist(err) {
		return out
	}
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		k, v, ok := strings.Cut(sc.Text(), "=")
		if !ok || strings.Contains(k, "<<") {
			t.Fatalf("GITHUB_OUTPUT line %q is not name=value", sc.Text())
		}
		out[k] = v
	}
	return out
}

// runAction runs the action's steps in order, stopping at the first that
// fails (as the runner does), and returns the action's outputs.
func (r *actionRun) runAction(shell string) map[string]string {
	t := r.t
	r.steps = map[string]map[string]string{}
	failed := false
	for i, s := range r.a.Runs.Steps {
		if strings.HasPrefix(s.Uses, "actions/cache@") {
			if !r.cond(s.If, failed) {
				continue
			}
			hit := r.cache.restore(t, r.eval(s.With["key"]), r.eval(s.With["path"]))
			r.steps[s.ID] = map[string]string{"cache-hit": strconv.FormatBool(hit)}
			if !hit {
				// The post step saves the path when the job succeeds.
				defer func(key string) {
					if r.exit == 0 {
						r.cache.saved[key] = true
					}
				}(r.eval(s.With["key"]))
			}
			continue
		}
		if s.Run == "" || !r.cond(s.If, failed) {
			continue
		}
		var memo string
		if s.ID == "key" {
			var b strings.Builder
			b.WriteString(s.Run)
			for _, k := range slices.Sorted(maps.Keys(s.Env)) {
				fmt.Fprintf(&b, "\x00%s=%s", k, r.eval(s.Env[k]))
			}
			memo = b.String()
			if k, ok := r.cache.keySteps[memo]; ok {
				fmt.Fprintf(&r.logs, "== step %d: %s\n%s", i, s.Name, k.log)
				r.steps[s.ID] = maps.Clone(k.outputs)
				continue
			}
		}
		outFile := filepath.Join(t.TempDir(), "output")
		env := append(os.Environ(),
			"GITHUB_ACTIONS=true",
			"GITHUB_OUTPUT="+outFile,
			"GITHUB_STEP_SUMMARY="+r.summary,
			"GITHUB_ACTION_PATH="+r.root,
			"GITHUB_WORKSPACE="+r.dir,
			"GITHUB_RUN_ID=987654321",
			"GITHUB_RUN_ATTEMPT=1",
			"RUNNER_OS="+r.runner["os"],
			"RUNNER_TEMP="+r.runner["temp"],
			"QOSCAL_DB=",
		)
		gh := githubDefaults(t)
		for k, v := range r.github {
			gh[k] = v
		}
		for k, v := range gh {
			env = append(env, k+"="+v)
		}
		for k, v := range s.Env {
			env = append(env, k+"="+r.eval(v))
		}
		env = append(env, r.env...)
		// The runner writes the script to a file and runs "bash --noprofile
		// --norc -eo pipefail {0}" for shell: bash.
		script := filepath.Join(t.TempDir(), "step.sh")
		if err := os.WriteFile(script, []byte(r.eval(s.Run)), 0o644); err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command(shell, "--noprofile", "--norc", "-eo", "pipefail", script)
		cmd.Dir = r.dir
		cmd.Env = env
		start := time.Now()
		out, err := cmd.CombinedOutput()
		if r.stepTime == nil {
			r.stepTime = map[string]time.Duration{}
		}
		r.stepTime[s.ID] = time.Since(start)
		fmt.Fprintf(&r.logs, "== step %d: %s\n%s", i, s.Name, out)
		if s.ID != "" {
			r.steps[s.ID] = readOutputs(t, outFile)
		}
		if memo != "" && err == nil {
			if r.cache.keySteps == nil {
				r.cache.keySteps = map[string]keyStep{}
			}
			r.cache.keySteps[memo] = keyStep{outputs: maps.Clone(r.steps[s.ID]), log: out}
		}
		if err != nil {
			ee, ok := err.(*exec.ExitError)
			if !ok {
				t.Fatalf("step %d: %v", i, err)
			}
			// The job's exit is its first failed step's; later steps
			// run only if their if: asks to (cond).
			if !failed {
				r.exit = ee.ExitCode()
			}
			failed = true
		}
	}
	outs := map[string]string{}
	for name, o := range r.a.Outputs {
		outs[name] = r.eval(o.Value)
	}
	return outs
}

// actionCache stands for actions/cache across the jobs of one test: a key
// hits once a job that missed it has succeeded (the path stays where that
// job built it: the jobs share RUNNER_TEMP). With standIn, every key hits
// and restores this test binary as qoscal instead.
//
// keySteps holds what the action's cache-key step (id: key) gave, by its
// script and environment: that step reads only its own env and the
// action's source files, which no job of a test changes, and hashing
// every source file took most of this test's CPU time (0.4 s a job), so
// it runs once for each environment (each runner OS) of a test.
type actionCache struct {
	saved    map[string]bool
	standIn  bool
	keySteps map[string]keyStep
}

// keyStep is what the cache-key step gave: its outputs and its log.
type keyStep struct {
	outputs map[string]string
	log     []byte
}

// restore reports whether key hits; with standIn it puts this test binary
// into dir as qoscal, and as qoscal.exe for the Windows runner's branch
// (a script, here, since TestMain runs the binary as qoscal by its name).
func (c *actionCache) restore(t *testing.T, key, dir string) bool {
	t.Helper()
	if !c.standIn {
		return c.saved[key]
	}
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(dir, "qoscal")
	if _, err := os.Stat(bin); err != nil {
		if err := os.Link(self, bin); err != nil {
			b, err := os.ReadFile(self)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(bin, b, 0o755); err != nil {
				t.Fatal(err)
			}
		}
	}
	script := "#!/bin/sh\nexec \"$(dirname \"$0\")/qoscal\" \"$@\"\n"
	if err := os.WriteFile(bin+".exe", []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return true
}

// TestActionSteps runs the action on the worked example's files: PASS
// against a floor, FAIL (the job fails, the outputs and the summary are
// still written), report-only, and the Windows runner's branch.
func TestActionSteps(t *testing.T) {
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Fatalf("bash: %v (the action's steps are bash scripts)", err)
	}
	a, root := readAction(t)
	sample := filepath.Join(root, "data", "samples", "windows-hoard-first-measurement")
	temp := t.TempDir() // shared by the cases: the build is made once
	cache := &actionCache{saved: map[string]bool{}, standIn: !testenv.Slow()}
	cases := []struct {
		name    string
		inputs  map[string]string
		os      string
		exit    int
		outputs map[string]string
		summary []string // lines the step summary must hold
		log     []string // regexps the log must match
		// rerun, when set, puts rerun/baseline.txt and rerun/hoard.txt
		// in the workspace: the sample's with the candidate's figures
		// times it, for a rerun command to copy over the run's files.
		rerun float64
	}{
		{
			name:    "pass",
			inputs:  map[string]string{"floor": "1.25"},
			os:      "Linux",
			outputs: map[string]string{"verdict": "pass", "score": "1.5462", "floor": "1.25", "exit-code": "0"},
			summary: []string{"### qoscal gate: PASS", "Floor 1.25x from --floor."},
			log:     []string{`(?m)^PASS: hoard is 1.55x system \(geomean\), >= 1.25x floor.$`},
		},
		{
			name:    "fail",
			inputs:  map[string]string{"floor": "1.6", "args": "--run pr-42  --tag-threshold 0.05"},
			os:      "Linux",
			exit:    1,
			outputs: map[string]string{"verdict": "fail", "score": "1.5462", "floor": "1.6", "exit-code": "1"},
			summary: []string{"### qoscal gate: FAIL: 1.55x below the 1.6x floor"},
			log:     []string{`(?m)^::error title=qoscal gate%3A FAIL::FAIL: hoard is 1.55x system`, `(?m), run pr-42: ops/sec`},
		},
		{
			// A YAML block scalar (args: |) gives the args input with line
			// breaks: the flags of every line count, not the first line's.
			name:    "args on several lines",
			inputs:  map[string]string{"floor": "1.6", "args": "--tag-threshold 0.05\n--run pr-43\n"},
			os:      "Linux",
			exit:    1,
			outputs: map[string]string{"verdict": "fail", "exit-code": "1"},
			log:     []string{`(?m), run pr-43: ops/sec`},
		},
		{
			name:    "report-only, on the Windows runner's branch",
			inputs:  map[string]string{"floor": "1.6", "report-only": "true"},
			os:      "Windows",
			outputs: map[string]string{"verdict": "warn", "floor": "1.6", "exit-code": "0"},
			summary: []string{"### qoscal gate: below the floor (report-only): 1.55x below the 1.6x floor"},
			log:     []string{`(?m)^::warning title=qoscal gate%3A below the floor \(report-only\)::`, `(?m)^report-only: not gating.$`},
		},
		{
			// 1.55 is within a 5% band below the 1.6 floor: the rerun
			// command measures again (here: copies the candidate 10%
			// faster), and the pair's mean, 1.62, passes.
			name:    "a rerun verdict, a healthy rerun: pass",
			inputs:  map[string]string{"floor": "1.6", "args": "--rerun-band 0.05", "rerun-command": "cp rerun/baseline.txt rerun/hoard.txt ."},
			os:      "Linux",
			rerun:   1.10,
			outputs: map[string]string{"verdict": "pass", "score": "1.6217", "exit-code": "0"},
			summary: []string{"### qoscal gate: PASS"},
			log:     []string{`(?m)^qoscal: rerun: running cp rerun/baseline.txt rerun/hoard.txt \.$`, `(?m)^PASS: hoard is 1.62x system \(geomean, the mean of two runs: 987654321-1 1.55x, 987654321-1-rerun 1.70x\)`},
		},
		{
			// The rerun 3% slower: the pair's mean, 1.52, fails the job.
			name:    "a rerun verdict, a regressed rerun, on the Windows runner's branch: fail",
			inputs:  map[string]string{"floor": "1.6", "args": "--rerun-band 0.05", "rerun-command": "cp rerun/baseline.txt rerun/hoard.txt ."},
			os:      "Windows",
			rerun:   0.97,
			exit:    1,
			outputs: map[string]string{"verdict": "fail", "score": "1.5229", "exit-code": "1"},
			summary: []string{"### qoscal gate: FAIL: 1.52x below the 1.6x floor"},
			log:     []string{`(?m)^::error title=qoscal gate%3A FAIL::FAIL: hoard is 1.52x system \(geomean, the mean of two runs: 987654321-1 1.55x, 987654321-1-rerun 1.50x\)`},
		},
		{
			name:    "a rerun command that fails: exit 2, naming it",
			inputs:  map[string]string{"floor": "1.6", "args": "--rerun-band 0.05", "rerun-command": "echo out of disk >&2; exit 4"},
			os:      "Linux",
			exit:    2,
			outputs: map[string]string{"exit-code": "2"},
			summary: []string{"### qoscal gate: error (exit 2)"},
			log:     []string{`(?m)^::error title=qoscal gate%3A error::--rerun-command "echo out of disk >&2; exit 4" failed \(exit status 4; its stderr ended: out of disk\)`},
		},
		{
			name:    "bad input: exit 2, one annotation",
			inputs:  map[string]string{"floor": "1.25", "candidate": "hoard=missing.txt"},
			os:      "Linux",
			exit:    2,
			outputs: map[string]string{"verdict": "", "exit-code": "2"},
			summary: []string{"### qoscal gate: error (exit 2)"},
			log:     []string{`(?m)^::error title=qoscal gate%3A error::missing.txt: no such file or folder`},
		},
		{
			// command: measure runs the variants' commands, one a line of
			// the variants input, whole (blanks inside a command kept).
			name:    "measure",
			inputs:  map[string]string{"command": "measure", "baseline": "", "candidate": "", "variants": "system=cat baseline.txt\r\nhoard=cat hoard.txt\n\n", "args": "--repetitions 2 --warmup 0"},
			os:      "Linux",
			outputs: map[string]string{"verdict": ""},
			log:     []string{`(?m)^score: hoard is 1.55x system \(geomean of the 2 repetitions' scores\)$`},
		},
		{
			name:   "a bad command is refused",
			inputs: map[string]string{"command": "bench"},
			os:     "Linux",
			exit:   2,
			log:    []string{`(?m)^::error title=qoscal action::command must be gate or measure, got 'bench'$`},
		},
		{
			name:    "a bad report-only value is refused",
			inputs:  map[string]string{"floor": "1.25", "report-only": "yes%0A::add-mask::x"},
			os:      "Linux",
			exit:    2,
			outputs: map[string]string{"verdict": ""},
			log:     []string{`(?m)^::error title=qoscal action::report-only must be true or false, got 'yes_0A__add-mask__x'$`},
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := copySample(t, sample)
			if c.rerun != 0 {
				writeRerun(t, dir, c.rerun)
			}
			inputs := map[string]string{"baseline": "system=baseline.txt", "candidate": "hoard=hoard.txt"}
			for k, v := range c.inputs {
				inputs[k] = v
			}
			r := &actionRun{t: t, a: a, root: root, cache: cache, inputs: inputs, dir: dir,
				runner:  map[string]string{"os": c.os, "arch": runtime.GOARCH, "temp": temp},
				summary: filepath.Join(dir, "summary.md")}
			outs := r.runAction(bash)
			log := r.logs.String()
			if r.exit != c.exit {
				t.Fatalf("exit %d, want %d; log:\n%s", r.exit, c.exit, log)
			}
			for k, want := range c.outputs {
				if outs[k] != want {
					t.Errorf("output %s = %q, want %q; log:\n%s", k, outs[k], want, log)
				}
			}
			if c.inputs["command"] == "measure" {
				if _, err := os.Stat(filepath.Join(outs["run-folder"], "results.csv")); err != nil {
					t.Errorf("the run folder of output run-folder %q: %v", outs["run-folder"], err)
				}
			}
			if c.os == "Windows" && !strings.HasSuffix(r.steps["where"]["bin"], "qoscal.exe") {
				t.Errorf("on Windows the binary is %q, want qoscal.exe", r.steps["where"]["bin"])
			}
			sum, _ := os.ReadFile(r.summary)
			for _, l := range c.summary {
				if !strings.Contains("\n"+string(sum), "\n"+l+"\n") {
					t.Errorf("the step summary lacks the line %q:\n%s", l, sum)
				}
			}
			for _, re := range c.log {
				if !regexp.MustCompile(re).MatchString(log) {
					t.Errorf("the log does not match %s:\n%s", re, log)
				}
			}
			if n := strings.Count(log, "\n::error "); n > 1 {
				t.Errorf("%d ::error annotations, want at most one:\n%s", n, log)
			}
		})
	}
}

// copySample copies the worked example's baseline.txt and hoard.txt
// into a new workspace.
func copySample(t *testing.T, sample string) string {
	t.Helper()
	dir := t.TempDir()
	for _, f := range []string{"baseline.txt", "hoard.txt"} {
		b, err := os.ReadFile(filepath.Join(sample, f))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, f), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// writeRerun puts a rerun's result files into dir/rerun: the workspace's
// baseline.txt under a header of its own (a rerun rewrites both files),
// and hoard.txt with every ops/sec figure times factor.
func writeRerun(t *testing.T, dir string, factor float64) {
	t.Helper()
	if err := os.MkdirAll(filepath.Join(dir, "rerun"), 0o755); err != nil {
		t.Fatal(err)
	}
	base, err := os.ReadFile(filepath.Join(dir, "baseline.txt"))
	if err != nil {
		t.Fatal(err)
	}
	cand, err := os.ReadFile(filepath.Join(dir, "hoard.txt"))
	if err != nil {
		t.Fatal(err)
	}
	ops := regexp.MustCompile(`\((\d+) ops/sec\)`)
	n := 0
	cand = ops.ReplaceAllFunc(cand, func(m []byte) []byte {
		v, err := strconv.ParseFloat(string(ops.FindSubmatch(m)[1]), 64)
		if err != nil {
			t.Fatal(err)
		}
		n++
		return []byte(fmt.Sprintf("(%.0f ops/sec)", v*factor))
	})
	if n == 0 {
		t.Fatal("hoard.txt: no ops/sec figure to scale")
	}
	for name, b := range map[string][]byte{"baseline.txt": append([]byte("=== rerun ===\n"), base...), "hoard.txt": cand} {
		if err := os.WriteFile(filepath.Join(dir, "rerun", name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// TestActionComment runs the action's comment step against a local
// server playing GitHub's API (fakeGitHub), job after job as a pull
// request would see them: the first gate creates the comment, the next
// (a FAIL, exit 1) edits the same one, the Windows runner's job keeps a
// comment of its own (the default comment-id is the job's id and the
// runner's system); a fork's pull request is left alone under comment:
// auto, and with comment: true its read-only token's 403 is a warning,
// the job's exit the gate's; comment: false posts nothing. The token is
// in no log. The cases run in order, each on the comments the last left
// (run one alone with -run and the next ones' checks fail).
func TestActionComment(t *testing.T) {
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Fatalf("bash: %v (the action's steps are bash scripts)", err)
	}
	a, root := readAction(t)
	sample := filepath.Join(root, "data", "samples", "windows-hoard-first-measurement")
	temp := t.TempDir()
	cache := &actionCache{saved: map[string]bool{}, standIn: !testenv.Slow()}
	g := newFakeGitHub(t)
	g.add(7, 2)
	g.add(8, 0)
	own := prEventFile(t, 7, g.repo, g.repo, "someone")
	fork := prEventFile(t, 8, "fork/hoard", g.repo, "someone")
	const (
		linux   = "<!-- qoscal-gate:bench-Linux -->"
		windows = "<!-- qoscal-gate:bench-Windows -->"
	)
	cases := []struct {
		name     string
		inputs   map[string]string
		os       string
		event    string
		readOnly bool
		exit     int
		log      []string // regexps the log must match
		// check runs after the job, on what the server holds.
		check func(t *testing.T)
	}{
		{
			name:   "a pull request's first gate creates the comment",
			inputs: map[string]string{"floor": "1.25"},
			os:     "Linux", event: own,
			log: []string{`(?m)^comment: created https://github.com/octo/hoard/pull/7#issuecomment-\d+$`},
			check: func(t *testing.T) {
				c := g.ours(7, linux)
				if len(c) != 1 || !strings.Contains(c[0].Body, "\n### qoscal gate: PASS\n") || !strings.Contains(c[0].Body, "Floor 1.25x from --floor.") {
					t.Errorf("comments with %s: %+v; want one, the gate's PASS", linux, c)
				}
			},
		},
		{
			name:   "the next gate, a FAIL, edits it and fails the job",
			inputs: map[string]string{"floor": "1.6"},
			os:     "Linux", event: own, exit: 1,
			log: []string{`(?m)^::error title=qoscal gate%3A FAIL::`, `(?m)^comment: updated https://github.com/octo/hoard/pull/7#issuecomment-\d+$`},
			check: func(t *testing.T) {
				c := g.ours(7, linux)
				if len(c) != 1 || !strings.Contains(c[0].Body, "\n### qoscal gate: FAIL: 1.55x below the 1.6x floor\n") {
					t.Errorf("comments with %s: %+v; want the one, now FAIL", linux, c)
				}
				if post, patch := g.writes("POST"), g.writes("PATCH"); post != 0 || patch != 1 {
					t.Errorf("%d comments posted, %d edited; want 0 and 1", post, patch)
				}
			},
		},
		{
			name:   "the Windows runner's job keeps its own comment",
			inputs: map[string]string{"floor": "1.25"},
			os:     "Windows", event: own,
			log: []string{`(?m)^comment: created `},
			check: func(t *testing.T) {
				if len(g.ours(7, windows)) != 1 || len(g.ours(7, linux)) != 1 || len(g.comments[7]) != 4 {
					t.Errorf("pull request 7's comments: %+v; want the 2 there were, Linux's and Windows'", g.comments[7])
				}
			},
		},
		{
			name:   "comment: auto leaves a fork's pull request alone",
			inputs: map[string]string{"floor": "1.25"},
			os:     "Linux", event: fork,
			log: []string{`(?m)^qoscal: comment: not posted: a pull request from a fork gets a read-only token$`},
			check: func(t *testing.T) {
				if len(g.requests) != 0 {
					t.Errorf("requests %q, want none", g.requests)
				}
			},
		},
		{
			name:   "comment: true on a fork's read-only token: a warning, the gate's exit",
			inputs: map[string]string{"floor": "1.25", "comment": "true"},
			os:     "Linux", event: fork, readOnly: true,
			log: []string{`(?m)^::warning title=qoscal comment%3A not posted::comment not posted: POST /repos/octo/hoard/issues/8/comments: 403 Forbidden: Resource not accessible by integration \(Bearer \*\*\*\)%0Ahint: `},
			check: func(t *testing.T) {
				if len(g.comments[8]) != 0 {
					t.Errorf("pull request 8's comments: %+v; want none", g.comments[8])
				}
			},
		},
		{
			name:   "comment: false posts nothing",
			inputs: map[string]string{"floor": "1.25", "comment": "false"},
			os:     "Linux", event: own,
			check: func(t *testing.T) {
				if len(g.requests) != 0 {
					t.Errorf("requests %q, want none", g.requests)
				}
			},
		},
		{
			name:   "a bad comment value is refused before the gate",
			inputs: map[string]string{"floor": "1.25", "comment": "yes"},
			os:     "Linux", event: own, exit: 2,
			log: []string{`(?m)^::error title=qoscal action::comment must be auto, true or false, got 'yes'$`},
			check: func(t *testing.T) {
				if len(g.requests) != 0 {
					t.Errorf("requests %q, want none", g.requests)
				}
			},
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			g.mu.Lock()
			g.requests, g.readOnly = nil, c.readOnly
			g.mu.Unlock()
			inputs := map[string]string{"baseline": "system=baseline.txt", "candidate": "hoard=hoard.txt"}
			for k, v := range c.inputs {
				inputs[k] = v
			}
			dir := copySample(t, sample)
			r := &actionRun{t: t, a: a, root: root, cache: cache, inputs: inputs, dir: dir,
				runner:  map[string]string{"os": c.os, "arch": runtime.GOARCH, "temp": temp},
				summary: filepath.Join(dir, "summary.md"), token: g.token,
				github: map[string]string{"GITHUB_EVENT_NAME": "pull_request", "GITHUB_EVENT_PATH": c.event, "GITHUB_API_URL": g.srv.URL}}
			r.runAction(bash)
			log := r.logs.String()
			if r.exit != c.exit {
				t.Fatalf("exit %d, want %d; log:\n%s", r.exit, c.exit, log)
			}
			for _, re := range c.log {
				if !regexp.MustCompile(re).MatchString(log) {
					t.Errorf("the log does not match %s:\n%s", re, log)
				}
			}
			if strings.Contains(log, g.token) {
				t.Errorf("the log shows the token:\n%s", log)
			}
			c.check(t)
		})
	}
}

// TestWorkflow checks .github/workflows/ci.yml against what it calls: the
// steps that use this repository's action (uses: ./) give only inputs the
// action has, and every required one; the scripts its run steps start
// exist and are the ones scripts/bench-selftest.sh runs here.
func TestWorkflow(t *testing.T) {
	a, root := readAction(t)
	b, err := os.ReadFile(filepath.Join(root, ".github", "workflows", "ci.yml"))
	if err != nil {
		t.Fatal(err)
	}
	var wf struct {
		Jobs map[string]struct {
			Steps []actionStep `yaml:"steps"`
		} `yaml:"jobs"`
	}
	if err := yaml.Unmarshal(b, &wf); err != nil {
		t.Fatalf("ci.yml: %v", err)
	}
	usesAction, runsBench := false, false
	for job, j := range wf.Jobs {
		for _, s := range j.Steps {
			if s.Uses == "./" {
				usesAction = true
				for k := range s.With {
					if _, ok := a.Inputs[k]; !ok {
						t.Errorf("job %s gives the action input %q, which action.yml does not have", job, k)
					}
				}
				for k, in := range a.Inputs {
					if _, ok := s.With[k]; in.Required && !ok {
						t.Errorf("job %s does not give the required input %q", job, k)
					}
				}
			}
			for _, f := range regexp.MustCompile(`(?:^|\s)((?:scripts|\.ci)/[\w.-]+)`).FindAllStringSubmatch(s.Run, -1) {
				if _, err := os.Stat(filepath.Join(root, f[1])); err != nil {
					t.Errorf("job %s runs %s: %v", job, f[1], err)
				}
				runsBench = runsBench || f[1] == "scripts/bench-compare.sh"
			}
		}
	}
	if !usesAction || !runsBench {
		t.Errorf("ci.yml: want a job that runs scripts/bench-compare.sh and gates with uses: ./ (uses ./: %v, bench-compare: %v)", usesAction, runsBench)
	}
}

// TestDocWorkflows checks the workflows the documents show (docFiles):
// every yaml block parses, and every step that uses the action gives only
// inputs it has and every required one; docs/github-actions.md holds the
// complete workflows (collect and calibrate, the gate shown as the step
// that changes) and the before/after of a gate script.
func TestDocWorkflows(t *testing.T) {
	a, root := readAction(t)
	var complete, actionSteps int
	for _, rel := range docFiles(t, root) {
		b, err := os.ReadFile(filepath.Join(root, rel))
		if err != nil {
			t.Fatal(err)
		}
		blocks := regexp.MustCompile("(?ms)^```yaml\n(.*?)^```$").FindAllStringSubmatch(string(b), -1)
		for i, blk := range blocks {
			var doc any
			if err := yaml.Unmarshal([]byte(blk[1]), &doc); err != nil {
				t.Errorf("%s: yaml block %d does not parse: %v\n%s", rel, i+1, err, blk[1])
				continue
			}
			if m, ok := doc.(map[string]any); ok && m["jobs"] != nil && m["on"] != nil && rel == "docs/github-actions.md" {
				complete++
			}
			var walk func(v any)
			walk = func(v any) {
				switch v := v.(type) {
				case map[string]any:
					if u, _ := v["uses"].(string); strings.HasPrefix(u, "qoscal/qoscal@") || strings.HasPrefix(u, "OWNER/") {
						// The repository's name, at a release's tag, as
						// copied into a workflow.
						if u != "qoscal/qoscal@vX.Y.Z" {
							t.Errorf("%s: yaml block %d uses %q, want qoscal/qoscal@vX.Y.Z", rel, i+1, u)
						}
						if rel == "docs/github-actions.md" {
							actionSteps++
						}
						with, _ := v["with"].(map[string]any)
						for k := range with {
							if _, ok := a.Inputs[k]; !ok {
								t.Errorf("%s: yaml block %d gives the action input %q, which action.yml does not have", rel, i+1, k)
							}
						}
						for k, in := range a.Inputs {
							if _, ok := with[k]; in.Required && !ok {
								t.Errorf("%s: yaml block %d does not give the required input %q", rel, i+1, k)
							}
						}
					}
					for _, x := range v {
						walk(x)
					}
				case []any:
					for _, x := range v {
						walk(x)
					}
				}
			}
			walk(doc)
		}
		if strings.Contains(string(b), "in a checkout of qoscal") {
			t.Errorf("%s still tells a workflow to go install qoscal from a checkout", rel)
		}
	}
	if complete < 2 || actionSteps < 3 {
		t.Errorf("docs/github-actions.md: %d complete workflows and %d steps using the action; want the collect and calibrate workflows and the gate step", complete, actionSteps)
	}
	b, err := os.ReadFile(filepath.Join(root, "docs", "github-actions.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"# Use qoscal in GitHub Actions", "python qos_windows.py --baseline baseline.txt --hoard hoard-results.txt --min-ratio 1.25"} {
		if !strings.Contains(string(b), want) {
			t.Errorf("docs/github-actions.md lacks %q", want)
		}
	}
}

// TestWorkflowWindowsJob: ci.yml's action-windows job runs the Action on
// windows-latest (PowerShell the default shell) and asserts a pass and a
// fail; here its two action steps run with the same inputs on the
// Windows branch of the action (bash), on the same calibration and the
// same doctored measurement (hoard's ops/sec at 60%, as the job's
// PowerShell step makes it), and give the verdicts the job asserts.
func TestWorkflowWindowsJob(t *testing.T) {
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Fatalf("bash: %v", err)
	}
	a, root := readAction(t)
	b, err := os.ReadFile(filepath.Join(root, ".github", "workflows", "ci.yml"))
	if err != nil {
		t.Fatal(err)
	}
	var wf struct {
		Jobs map[string]struct {
			RunsOn   string `yaml:"runs-on"`
			Defaults struct {
				Run struct {
					Shell string `yaml:"shell"`
				} `yaml:"run"`
			} `yaml:"defaults"`
			Steps []actionStep `yaml:"steps"`
		} `yaml:"jobs"`
	}
	if err := yaml.Unmarshal(b, &wf); err != nil {
		t.Fatal(err)
	}
	job, ok := wf.Jobs["action-windows"]
	if !ok || job.RunsOn != "windows-latest" || job.Defaults.Run.Shell != "pwsh" {
		t.Fatalf("ci.yml: want a job action-windows on windows-latest with PowerShell as its shell, got %+v", job)
	}
	var uses []actionStep
	for _, s := range job.Steps {
		if s.Uses == "./" {
			uses = append(uses, s)
		}
	}
	if len(uses) != 2 {
		t.Fatalf("action-windows uses the action %d times, want 2 (a pass and a fail)", len(uses))
	}

	dir := t.TempDir()
	sample := filepath.Join(root, "data", "samples", "windows-hoard-first-measurement")
	var stdout, stderr bytes.Buffer
	if code := run([]string{"recommend", "--margin", "0.13", "--step", "0.05", "--write", filepath.Join(dir, "gate.json"),
		filepath.Join(root, "data", "samples", "windows-hoard-worked-example", "five-runs.csv")}, nil, &stdout, &stderr); code != 0 {
		t.Fatalf("recommend: %s", stderr.String())
	}
	for _, d := range []string{"data/samples/windows-hoard-first-measurement", "regressed"} {
		if err := os.MkdirAll(filepath.Join(dir, filepath.FromSlash(d)), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range []string{"baseline.txt", "hoard.txt"} {
		raw, err := os.ReadFile(filepath.Join(sample, f))
		if err != nil {
			t.Fatal(err)
		}
		os.WriteFile(filepath.Join(dir, "data/samples/windows-hoard-first-measurement", f), raw, 0o644)
		if f == "hoard.txt" {
			// The job's PowerShell: '^(.*\()(\d+)( ops/sec\).*)$' with the
			// figure times 0.6, rounded down.
			re := regexp.MustCompile(`(?m)^(.*\()(\d+)( ops/sec\).*)$`)
			raw = re.ReplaceAllFunc(raw, func(m []byte) []byte {
				p := re.FindSubmatch(m)
				v, _ := strconv.ParseFloat(string(p[2]), 64)
				return []byte(string(p[1]) + strconv.FormatFloat(math.Floor(v*0.6), 'f', 0, 64) + string(p[3]))
			})
		}
		os.WriteFile(filepath.Join(dir, "regressed", f), raw, 0o644)
	}
	cache := &actionCache{saved: map[string]bool{}, standIn: !testenv.Slow()}
	temp := t.TempDir()
	want := []struct {
		verdict, code string
		exit          int
	}{{"pass", "0", 0}, {"fail", "1", 1}}
	for i, s := range uses {
		inputs := map[string]string{}
		for k, v := range s.With {
			inputs[k] = v
		}
		r := &actionRun{t: t, a: a, root: root, cache: cache, inputs: inputs, dir: dir,
			runner:  map[string]string{"os": "Windows", "arch": runtime.GOARCH, "temp": temp},
			summary: filepath.Join(dir, fmt.Sprintf("summary-%d.md", i))}
		outs := r.runAction(bash)
		if outs["verdict"] != want[i].verdict || outs["exit-code"] != want[i].code || r.exit != want[i].exit {
			t.Errorf("step %q: verdict %q, exit-code %q, exit %d; want %s, %s, %d; log:\n%s", s.Name, outs["verdict"], outs["exit-code"], r.exit, want[i].verdict, want[i].code, want[i].exit, r.logs.String())
		}
	}
}
