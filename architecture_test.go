package qoscal_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"os"
	"os/exec"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// The import rules of ARCHITECTURE.md, as a table: for each package of
// the module, the module's packages it may import. A path ending in
// "/..." stands for the package and every package under it; the first
// rule whose pkg matches applies. A package no rule matches fails the
// test, so that a new package is placed on purpose, here and in
// ARCHITECTURE.md.
var rules = []struct {
	pkg string
	may []string
}{
	{"qoscal/stats", nil},
	{"qoscal/data/...", []string{"qoscal/data/..."}},
	{"qoscal/calibrate", []string{"qoscal/stats", runModel}},
	{"qoscal/chartdata", []string{"qoscal/calibrate", "qoscal/stats", runModel}},
	{"qoscal/plots", []string{"qoscal/chartdata"}},
	{"qoscal/mermaid", []string{"qoscal/chartdata"}},
	{"qoscal/render", nil},
	{"qoscal/present", []string{"qoscal/calibrate", "qoscal/chartdata", "qoscal/mermaid", "qoscal/render", "qoscal/stats", runModel, storeAPI}},
	{"qoscal/cmd/qoscal", []string{"qoscal/..."}},
	{"qoscal/internal/...", nil},
	{"qoscal/scripts/...", []string{"qoscal/data/..."}},
}

// The packages of data that the rules name by their job. Package data
// holds all of them today; when it is split by job, each becomes the
// package that does that job (the run model's for runModel; the store
// interface's, without a backend, for storeAPI).
const (
	runModel = "qoscal/data" // Run, Measurement, labels
	storeAPI = "qoscal/data" // the Store interface and StoredRun
)

// drivers are the database drivers: a package links one when one of
// these is among its dependencies.
var drivers = []string{"zombiezen.com/go/sqlite", "modernc.org/sqlite", "modernc.org/libc", "github.com/jackc/pgx/v5", "database/sql"}

// mayLinkDriver are the packages that may link a driver: the command and
// the store's backends (with the conformance suite, which opens both).
var mayLinkDriver = []string{"qoscal/cmd/qoscal", "qoscal/data", "qoscal/data/storetest"}

// stillLinkDriver are packages that link a driver today only because
// they import package data, which holds the store's backends with the run
// model until it is split by job. The test fails when one of them no
// longer links a driver: take it out, so that the list only shrinks and
// is empty once data is split.
var stillLinkDriver = []string{"qoscal/calibrate", "qoscal/chartdata", "qoscal/plots", "qoscal/mermaid", "qoscal/present"}

// goPackage is what go list says of a package.
type goPackage struct {
	ImportPath string
	GoFiles    []string
	Imports    []string
	Deps       []string
}

// TestArchitecture checks the import rules ARCHITECTURE.md states, on
// what `go list -json ./...` says the module's packages import (their
// code, not their tests): each package imports only the module packages
// its rule allows, nothing imports the command, only the command and the
// store link a database driver, and every package is named in
// ARCHITECTURE.md.
func TestArchitecture(t *testing.T) {
	pkgs := listPackages(t)
	if len(pkgs) < 10 {
		t.Fatalf("go list found %d packages; the test would check little", len(pkgs))
	}
	for _, p := range pkgs {
		may, ok := ruleFor(p.ImportPath)
		if !ok {
			t.Errorf("%s: no import rule: add it to the rules of architecture_test.go and to ARCHITECTURE.md", p.ImportPath)
			continue
		}
		for _, imp := range p.Imports {
			if !inModule(imp) {
				continue
			}
			if matchesAny(imp, []string{"qoscal/cmd/..."}) {
				t.Errorf("%s imports %s: nothing imports the command", p.ImportPath, imp)
			} else if !matchesAny(imp, may) {
				t.Errorf("%s imports %s, which its rule does not allow (it may import %s)", p.ImportPath, imp, allowed(may))
			}
		}
		var linked []string // the drivers linked
		for _, drv := range drivers {
			if slices.ContainsFunc(p.Deps, func(d string) bool { return matchesAny(d, []string{drv}) }) {
				linked = append(linked, drv)
			}
		}
		switch {
		case slices.Contains(mayLinkDriver, p.ImportPath):
		case slices.Contains(stillLinkDriver, p.ImportPath):
			if len(linked) == 0 {
				t.Errorf("%s no longer links a database driver: take it out of stillLinkDriver, so that the test holds it to that", p.ImportPath)
			}
		case len(linked) > 0:
			t.Errorf("%s links a database driver (%s): only the command and the store's backends may", p.ImportPath, strings.Join(linked, ", "))
		}
	}
	checkNamed(t, pkgs)
}

// checkNamed checks ARCHITECTURE.md against the packages: each package's
// folder is named in it (as `folder`), and each package its table has a
// row for is one.
func checkNamed(t *testing.T, pkgs []goPackage) {
	b, err := os.ReadFile("ARCHITECTURE.md")
	if err != nil {
		t.Fatal(err)
	}
	doc := string(b)
	dirs := map[string]bool{}
	for _, p := range pkgs {
		dir := strings.TrimPrefix(p.ImportPath, "qoscal/")
		dirs[dir] = true
		if !strings.Contains(doc, "`"+dir+"`") {
			t.Errorf("ARCHITECTURE.md does not name %s (as `%s`)", p.ImportPath, dir)
		}
	}
	rows := regexp.MustCompile("(?m)^\\| `([a-z/]+)` \\|").FindAllStringSubmatch(doc, -1)
	if len(rows) < 8 {
		t.Fatalf("ARCHITECTURE.md's table has %d package rows; the test would check little", len(rows))
	}
	for _, r := range rows {
		if !dirs[r[1]] {
			t.Errorf("ARCHITECTURE.md's table has a row for %s, which is no package", r[1])
		}
	}
}

// TestRuleMatching: the table's patterns match what they say.
func TestRuleMatching(t *testing.T) {
	for _, c := range []struct {
		path, pattern string
		want          bool
	}{
		{"qoscal/data", "qoscal/data/...", true},
		{"qoscal/data/storetest", "qoscal/data/...", true},
		{"qoscal/database", "qoscal/data/...", false},
		{"qoscal/data", "qoscal/data", true},
		{"qoscal/data/sqlite", "qoscal/data", false},
		{"zombiezen.com/go/sqlite/sqlitex", "zombiezen.com/go/sqlite", true},
		{"github.com/jackc/pgx/v5/pgxpool", "github.com/jackc/pgx/v5", true},
		{"github.com/jackc/pgx/v50", "github.com/jackc/pgx/v5", false},
	} {
		if got := matchesAny(c.path, []string{c.pattern}); got != c.want {
			t.Errorf("%s against %s: %v, want %v", c.path, c.pattern, got, c.want)
		}
	}
	if may, ok := ruleFor("qoscal/data/sqlite"); !ok || !matchesAny("qoscal/data", may) || matchesAny("qoscal/calibrate", may) {
		t.Errorf("a package under data/ may import data's packages and no other: %v %v", may, ok)
	}
	if _, ok := ruleFor("qoscal/newthing"); ok {
		t.Error("a package no rule names has a rule")
	}
}

// ruleFor returns the rule of a package.
func ruleFor(pkg string) ([]string, bool) {
	for _, r := range rules {
		if matchesAny(pkg, []string{r.pkg}) {
			return r.may, true
		}
	}
	return nil, false
}

// matchesAny reports whether path is one of the patterns: a package
// path, or a path ending in "/..." for it and every package under it; a
// driver's module path matches its packages too.
func matchesAny(path string, patterns []string) bool {
	for _, p := range patterns {
		base, tree := strings.CutSuffix(p, "/...")
		if path == base || ((tree || !inModule(base)) && strings.HasPrefix(path, base+"/")) {
			return true
		}
	}
	return false
}

func inModule(path string) bool { return path == "qoscal" || strings.HasPrefix(path, "qoscal/") }

// allowed says what a rule allows.
func allowed(may []string) string {
	if len(may) == 0 {
		return "no package of the module"
	}
	return strings.Join(may, ", ")
}

// listPackages runs go list on the module.
func listPackages(t *testing.T) []goPackage {
	t.Helper()
	// go test puts its own go first on the PATH of the tests it runs.
	goCmd, err := exec.LookPath("go")
	if err != nil {
		t.Fatalf("no go command on the PATH: %v", err)
	}
	cmd := exec.Command(goCmd, "list", "-json", "./...")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, stderr.String())
	}
	var pkgs []goPackage
	dec := json.NewDecoder(bytes.NewReader(out))
	for {
		var p goPackage
		if err := dec.Decode(&p); errors.Is(err, io.EOF) {
			break
		} else if err != nil {
			t.Fatal(err)
		}
		if len(p.GoFiles) > 0 { // not the tests of this folder alone
			pkgs = append(pkgs, p)
		}
	}
	return pkgs
}
