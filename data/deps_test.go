package data_test

import (
	"io/fs"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// isDriver reports whether a package is (part of) a database driver: the
// SQLite engine and its C runtime, the SQLite binding, pgx.
func isDriver(pkg string) bool {
	for _, p := range []string{"modernc.org/sqlite", "modernc.org/libc", "zombiezen.com/go/sqlite", "github.com/jackc/pgx"} {
		if pkg == p || strings.HasPrefix(pkg, p+"/") {
			return true
		}
	}
	return false
}

// goList runs `go list` with a template that prints a package's path and
// then the packages of field (Deps or Imports), and returns them by
// package, for every package of the module.
func goList(t *testing.T, field string) map[string][]string {
	t.Helper()
	tool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go tool on PATH to list the packages' dependencies")
	}
	seeSources(t)
	out, err := exec.Command(tool, "list", "-f", "{{.ImportPath}}{{range ."+field+"}} {{.}}{{end}}", "github.com/qoscal/qoscal/...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	pkgs := map[string][]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.Fields(line)
		pkgs[f[0]] = f[1:]
	}
	return pkgs
}

// seeSources stats every Go file of the module and go.mod, so that go
// test's cache, which keys a test's result on the files it looks at (not
// on what a command it runs reads), runs the test again when one changes.
func seeSources(t *testing.T) {
	t.Helper()
	root := ".."
	if _, err := os.Stat(filepath.Join(root, "go.mod")); err != nil {
		t.Fatalf("the module's go.mod is not at %s: %v", root, err)
	}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".")) && p != root {
			return filepath.SkipDir
		}
		if !d.IsDir() && (strings.HasSuffix(p, ".go") || d.Name() == "go.mod") {
			_, err = os.Stat(p)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestDriversStayInTheStores: only the command and the store packages
// link a database driver (go list -deps, as anyone can run it: `go list
// -deps ./render | grep -E 'sqlite|pgx'` prints nothing). The packages
// that read or show runs (stats, calibrate, present, render, chartdata,
// plots) link none, and neither do the run model, the parsers and the
// loader; the backends do, which shows that the check sees a driver.
func TestDriversStayInTheStores(t *testing.T) {
	deps := goList(t, "Deps")
	links := map[string]bool{
		"github.com/qoscal/qoscal/cmd/qoscal":           true,
		"github.com/qoscal/qoscal/data/source":          true, // opens a store by its location
		"github.com/qoscal/qoscal/data/store/sqlite":    true,
		"github.com/qoscal/qoscal/data/store/postgres":  true,
		"github.com/qoscal/qoscal/data/store/storetest": true, // makes PostgreSQL schemas for the tests
	}
	for _, pkg := range []string{"stats", "calibrate", "present", "render", "chartdata", "plots", "data", "data/formats", "data/load", "data/store", "data/samples"} {
		if _, ok := deps["github.com/qoscal/qoscal/"+pkg]; !ok {
			t.Errorf("go list does not list qoscal/%s: a package this test names has moved", pkg)
		}
	}
	for _, pkg := range slices.Sorted(maps.Keys(deps)) {
		ds := deps[pkg]
		var drivers []string
		for _, d := range ds {
			if isDriver(d) {
				drivers = append(drivers, d)
			}
		}
		switch {
		case len(drivers) > 0 && !links[pkg]:
			t.Errorf("%s links a database driver (%s): only the command and the store packages may", pkg, strings.Join(drivers, ", "))
		case len(drivers) == 0 && (pkg == "github.com/qoscal/qoscal/data/store/sqlite" || pkg == "github.com/qoscal/qoscal/data/store/postgres"):
			t.Errorf("%s links no database driver: the check cannot see one", pkg)
		}
	}
}

// TestModelAndFormatsImports: the run model imports the standard library
// only, and the result formats the standard library, golang.org/x/text,
// golang.org/x/perf and the model: what a program that only reads result
// files needs.
func TestModelAndFormatsImports(t *testing.T) {
	imports := goList(t, "Imports")
	std := func(p string) bool {
		return !strings.Contains(strings.Split(p, "/")[0], ".") && !strings.HasPrefix(p, "github.com/qoscal/qoscal")
	}
	for pkg, allowed := range map[string]func(string) bool{
		"github.com/qoscal/qoscal/data": std,
		"github.com/qoscal/qoscal/data/formats": func(p string) bool {
			return std(p) || p == "github.com/qoscal/qoscal/data" || strings.HasPrefix(p, "golang.org/x/text/") || strings.HasPrefix(p, "golang.org/x/perf/")
		},
	} {
		is, ok := imports[pkg]
		if !ok {
			t.Errorf("go list does not list %s", pkg)
			continue
		}
		for _, p := range is {
			if !allowed(p) {
				t.Errorf("%s imports %s", pkg, p)
			}
		}
		if pkg == "github.com/qoscal/qoscal/data/formats" && !slices.Contains(is, "github.com/qoscal/qoscal/data") {
			t.Errorf("%s does not import qoscal/data: the check is not of the package it means", pkg)
		}
	}
}
