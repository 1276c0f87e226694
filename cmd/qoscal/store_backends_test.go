package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"html"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/qoscal/qoscal/data/source"
	"github.com/qoscal/qoscal/data/store"
	"github.com/qoscal/qoscal/data/store/storetest"
	"github.com/qoscal/qoscal/render"
)

// backendRun is what one command printed, with the store's and the work
// folder's names replaced by STORE and DIR, so that two backends' outputs
// compare.
type backendRun struct {
	code           int
	stdout, stderr string
}

// runOn runs qoscal with args, in which {db} stands for the store and
// {dir} for the work folder.
func runOn(t *testing.T, store, location, dir string, args []string) backendRun {
	t.Helper()
	var argv []string
	for _, a := range args {
		argv = append(argv, strings.NewReplacer("{db}", store, "{dir}", dir).Replace(a))
	}
	var stdout, stderr bytes.Buffer
	code := run(argv, strings.NewReader(""), &stdout, &stderr)
	clean := strings.NewReplacer(location, "STORE", dir, "DIR")
	return backendRun{code, clean.Replace(stdout.String()), clean.Replace(stderr.String())}
}

// TestStoreBackendsAgree runs every command that takes --db on a SQLite
// store and on a PostgreSQL store (the test server of $QOSCAL_TEST_PG;
// skipped without one) and wants the same exit codes, the same output and
// the same files from both, and never the password on PostgreSQL.
func TestStoreBackendsAgree(t *testing.T) {
	pg := storetest.PostgresURL(t)
	password := "no password in the URL"
	if u, err := url.Parse(pg); err == nil {
		if p, ok := u.User.Password(); ok {
			password = p
		}
	}
	t.Setenv("SOURCE_DATE_EPOCH", "1796112000")
	t.Setenv("QOSCAL_DB", "")
	t.Setenv("GITHUB_ACTIONS", "")
	t.Setenv("GITHUB_STEP_SUMMARY", "")
	samples, err := filepath.Abs("../../data/samples/linux-glibc-vs-mimalloc")
	if err != nil {
		t.Fatal(err)
	}
	healthy, regressed := filepath.Join(samples, "healthy"), filepath.Join(samples, "regressed")
	files := []string{"--baseline", "glibc=baseline.txt", "--candidate", "mimalloc=mimalloc.txt"}
	one := []string{"--baseline", "glibc=" + filepath.Join(regressed, "run-01", "baseline.txt"), "--candidate", "mimalloc=" + filepath.Join(regressed, "run-01", "mimalloc.txt")}
	cat := func(parts ...[]string) []string {
		var out []string
		for _, p := range parts {
			out = append(out, p...)
		}
		return out
	}
	steps := []struct {
		name string
		args []string
		code int
	}{
		{"ingest", cat([]string{"ingest", "--db", "{db}", "--label", "os=linux"}, files, []string{healthy}), 0},
		{"ingest again", cat([]string{"ingest", "--db", "{db}", "--label", "os=linux"}, files, []string{healthy}), 0},
		{"ingest other runs", cat([]string{"ingest", "--db", "{db}", "--label", "os=linux", "--id-prefix", "reg-"}, files, []string{regressed}), 0},
		{"ingest a conflict", cat([]string{"ingest", "--db", "{db}", "--label", "os=linux"}, files, []string{regressed}), 2},
		{"ingest replace", cat([]string{"ingest", "--db", "{db}", "--label", "os=mac", "--id-prefix", "reg-", "--replace"}, files, []string{regressed}), 0},
		{"runs", []string{"runs", "--db", "{db}"}, 0},
		{"runs json", []string{"runs", "--db", "{db}", "--label", "os=linux", "--format", "json"}, 0},
		{"runs none", []string{"runs", "--db", "{db}", "--label", "os=bsd"}, 0},
		{"spread", []string{"spread", "--db", "{db}", "--label", "os=linux"}, 0},
		{"recommend", []string{"recommend", "--db", "{db}", "--label", "os=linux", "--write", "{dir}/cal.json"}, 0},
		{"recommend none", []string{"recommend", "--db", "{db}", "--label", "os=bsd"}, 2},
		{"plot", []string{"plot", "--db", "{db}", "--label", "os=linux", "--out", "{dir}/charts"}, 0},
		{"report", []string{"report", "--db", "{db}", "--label", "os=linux", "--out", "{dir}/report.html", "--markdown", "{dir}/report.md"}, 0},
		{"gate record", cat([]string{"gate", "--calibration", "{dir}/cal.json", "--record", "--db", "{db}", "--run", "job-1", "--label", "os=linux"}, one), 1},
		{"gate record again", cat([]string{"gate", "--calibration", "{dir}/cal.json", "--record", "--db", "{db}", "--run", "job-1", "--label", "os=linux"}, one), 1},
		{"gate stored run", []string{"gate", "--calibration", "{dir}/cal.json", "--db", "{db}", "--run", "job-1", "--format", "json"}, 1},
		{"gate missing run", []string{"gate", "--calibration", "{dir}/cal.json", "--db", "{db}", "--run", "job-9"}, 2},
		{"drift", []string{"drift", "--calibration", "{dir}/cal.json", "--db", "{db}", "--label", "os=mac"}, 0},
		{"mark", []string{"mark", "--db", "{db}", "--regressed", "--note", "mimalloc pinned to one CPU", "job-1"}, 0},
		{"mark again", []string{"mark", "--db", "{db}", "--regressed", "--note", "mimalloc pinned to one CPU", "job-1"}, 0},
		{"mark a missing run", []string{"mark", "--db", "{db}", "--healthy", "job-9"}, 2},
		{"audit", []string{"audit", "--calibration", "{dir}/cal.json", "--db", "{db}"}, 0},
		{"audit none", []string{"audit", "--calibration", "{dir}/cal.json", "--db", "{db}", "--label", "os=bsd"}, 0},
		{"runs after", []string{"runs", "--db", "{db}", "--format", "json"}, 0},
	}
	type backend struct{ name, store, location, dir string }
	sqliteDir, pgDir := t.TempDir(), t.TempDir()
	backends := []backend{
		{"SQLite", filepath.Join(sqliteDir, "q.db"), filepath.Join(sqliteDir, "q.db"), sqliteDir},
		{"PostgreSQL", pg, store.RedactLocation(pg), pgDir},
	}
	for _, s := range steps {
		var got [2]backendRun
		for i, b := range backends {
			got[i] = runOn(t, b.store, b.location, b.dir, s.args)
			if got[i].code != s.code {
				t.Errorf("%s on %s: exit %d, want %d\nstderr: %s", s.name, b.name, got[i].code, s.code, got[i].stderr)
			}
			if strings.Contains(got[i].stdout+got[i].stderr, password) {
				t.Errorf("%s on %s: the output shows the password", s.name, b.name)
			}
		}
		if diff := cmp.Diff(got[0], got[1], cmp.AllowUnexported(backendRun{})); diff != "" {
			t.Errorf("%s: the backends differ (-SQLite +PostgreSQL):\n%s", s.name, diff)
		}
	}
	for _, f := range []string{"cal.json", "report.md", "report.html", "charts"} {
		a, b := readTree(t, filepath.Join(sqliteDir, f)), readTree(t, filepath.Join(pgDir, f))
		// The reports show the store's name escaped for Markdown and HTML.
		var names []string
		for _, b := range backends {
			for _, l := range []string{b.location, render.MDEscape(b.location), html.EscapeString(b.location)} {
				names = append(names, l, "STORE")
			}
		}
		clean := strings.NewReplacer(append(names, sqliteDir, "DIR", pgDir, "DIR")...)
		for name := range a {
			a[name] = clean.Replace(a[name])
		}
		for name := range b {
			b[name] = clean.Replace(b[name])
		}
		if len(a) == 0 {
			t.Errorf("%s: nothing written", f)
		}
		if diff := cmp.Diff(a, b); diff != "" {
			t.Errorf("%s differs between the backends (-SQLite +PostgreSQL):\n%s", f, diff)
		}
	}
}

// readTree reads a file, or every file under a folder, by relative name.
func readTree(t *testing.T, root string) map[string]string {
	t.Helper()
	out := map[string]string{}
	filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		rel, _ := filepath.Rel(root, path)
		out[rel] = string(b)
		return nil
	})
	return out
}

// TestStoreCopyRoundTrip: SQLite -> PostgreSQL -> SQLite keeps every run
// as it was (runs --format json is the same on all three) and the ledger
// as it was (the verdicts gate --record kept, a pair's among them, and
// the marks, a run's history of two among them, and a verdict judged by
// a calibration's profile, with it: read back the same from
// all three, bit for bit, and audit --format json the same), and copying
// again changes nothing.
func TestStoreCopyRoundTrip(t *testing.T) {
	pg := storetest.PostgresURL(t)
	t.Setenv("SOURCE_DATE_EPOCH", "1796112000")
	t.Setenv("QOSCAL_DB", "")
	dir := t.TempDir()
	samples, err := filepath.Abs("../../data/samples/linux-glibc-vs-mimalloc")
	if err != nil {
		t.Fatal(err)
	}
	first, back := filepath.Join(dir, "first.db"), filepath.Join(dir, "back.db")
	must := func(args ...string) string {
		t.Helper()
		var stdout, stderr bytes.Buffer
		if code := run(args, strings.NewReader(""), &stdout, &stderr); code != 0 {
			t.Fatalf("qoscal %s: exit %d\n%s", strings.Join(args, " "), code, stderr.String())
		}
		return stdout.String()
	}
	must("ingest", "--db", first, "--label", "os=linux", "--baseline", "glibc=baseline.txt", "--candidate", "mimalloc=mimalloc.txt", filepath.Join(samples, "healthy"))
	// A second ingest an hour later, so that the runs' ingest times differ.
	t.Setenv("SOURCE_DATE_EPOCH", "1796115600")
	must("ingest", "--db", first, "--label", "os=mac", "--id-prefix", "reg-", "--baseline", "glibc=baseline.txt", "--candidate", "mimalloc=mimalloc.txt", filepath.Join(samples, "regressed"))
	// The ledger: a calibration of the healthy runs; a regressed run and a
	// healthy one gated against it and recorded, and a pair of regressed
	// runs; marks, one run marked twice.
	cal := filepath.Join(dir, "cal.json")
	must("recommend", "--db", first, "--label", "os=linux", "--write", cal)
	files := func(folder string) []string {
		return []string{"--baseline", "glibc=" + filepath.Join(folder, "baseline.txt"), "--candidate", "mimalloc=" + filepath.Join(folder, "mimalloc.txt")}
	}
	gate := func(code int, args ...string) {
		t.Helper()
		var stdout, stderr bytes.Buffer
		if got := run(append([]string{"gate", "--calibration", cal, "--record", "--db", first, "--label", "os=linux"}, args...), strings.NewReader(""), &stdout, &stderr); got != code {
			t.Fatalf("gate %v: exit %d, want %d\n%s", args, got, code, stderr.String())
		}
	}
	gate(1, append([]string{"--run", "job-1"}, files(filepath.Join(samples, "regressed", "run-01"))...)...)
	gate(0, append([]string{"--run", "job-2"}, files(filepath.Join(samples, "healthy", "run-10"))...)...)
	for _, p := range [][2]string{{"run-02", "pair-a"}, {"run-03", "pair-b"}} {
		if err := os.CopyFS(filepath.Join(dir, p[1]), os.DirFS(filepath.Join(samples, "regressed", p[0]))); err != nil {
			t.Fatal(err)
		}
	}
	gate(1, "--baseline", "glibc=baseline.txt", "--candidate", "mimalloc=mimalloc.txt", filepath.Join(dir, "pair-a"), filepath.Join(dir, "pair-b"))
	must("mark", "--db", first, "--regressed", "--note", "rptest slowed: mimalloc pinned to one CPU", "job-1")
	must("mark", "--db", first, "--healthy", "job-2")
	t.Setenv("SOURCE_DATE_EPOCH", "1796112060")
	must("mark", "--db", first, "--regressed", "--note", "it was not", "job-2")
	// A verdict judged by a calibration's profile (recommend --by cpu),
	// against another calibration, so that the audit of cal is as it was.
	profiled := storetest.NewVerdict("job-1", strings.Repeat("b", 64), 0)
	profiled.Profile = "AMD EPYC 7763 64-Core Processor"
	if st, err := source.OpenStore(context.Background(), first, store.ReadWrite); err != nil {
		t.Fatal(err)
	} else {
		_, err := st.Ingest(context.Background(), nil, store.IngestOptions{Ledger: &store.Ledger{Verdicts: []store.Verdict{profiled}}})
		st.Close()
		if err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv("SOURCE_DATE_EPOCH", "1796200000")
	to := first + " -> " + store.RedactLocation(pg)
	if got, want := must("store", "copy", "--from", first, "--to", pg), to+": 19 runs copied, 0 already stored\n"+to+": ledger: 4 verdicts and 3 marks copied, 0 already stored\n"; got != want {
		t.Errorf("first copy printed %q, want %q", got, want)
	}
	if got, want := must("store", "copy", "--from", first, "--to", pg), to+": 0 runs copied, 19 already stored\n"+to+": ledger: 0 verdicts and 0 marks copied, 7 already stored\n"; got != want {
		t.Errorf("copying again printed %q, want %q", got, want)
	}
	must("store", "copy", "--from", pg, "--to", back)
	wantLedger := readLedger(t, first)
	if len(wantLedger.Verdicts) != 4 || len(wantLedger.Marks) != 3 || wantLedger.Verdicts[2].Kind != store.KindPair || wantLedger.Verdicts[3].Profile != profiled.Profile {
		t.Fatalf("the ledger of the first store: %+v", wantLedger)
	}
	// The audit's document, but for the store it names.
	audit := func(db string) map[string]any {
		var doc map[string]any
		if err := json.Unmarshal([]byte(must("audit", "--calibration", cal, "--db", db, "--format", "json")), &doc); err != nil {
			t.Fatal(err)
		}
		delete(doc, "store")
		return doc
	}
	wantAudit := audit(first)
	if wantAudit["gated"] != 3.0 {
		t.Fatalf("the first store's audit: %v", wantAudit)
	}
	for _, db := range []string{pg, back} {
		if diff := cmp.Diff(wantLedger, readLedger(t, db), cmpopts.EquateNaNs()); diff != "" {
			t.Errorf("the ledger of %s (-first.db +copy):\n%s", store.RedactLocation(db), diff)
		}
		if diff := cmp.Diff(wantAudit, audit(db)); diff != "" {
			t.Errorf("audit --format json of %s (-first.db +copy):\n%s", store.RedactLocation(db), diff)
		}
	}
	want := must("runs", "--db", first, "--format", "json")
	if !strings.Contains(want, `"ingested": "2026-12-01T09:00:00Z"`) {
		t.Fatalf("the runs of the second ingest are not there:\n%s", want)
	}
	for _, db := range []string{pg, back} {
		if diff := cmp.Diff(want, must("runs", "--db", db, "--format", "json")); diff != "" {
			t.Errorf("runs --format json of %s (-first.db +copy):\n%s", store.RedactLocation(db), diff)
		}
	}
}

// readLedger reads the whole ledger of the store at location.
func readLedger(t *testing.T, location string) store.Ledger {
	t.Helper()
	st, err := source.OpenStore(context.Background(), location, store.ReadOnly)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	l, err := st.Ledger(context.Background(), store.LedgerQuery{})
	if err != nil {
		t.Fatal(err)
	}
	return l
}

// TestStoreRepetitionsBackends: runs measured in repetitions (a CSV
// file's repetition column, as 'qoscal measure' writes one) are scored
// the same from the file as from a SQLite and a PostgreSQL store they
// were ingested into: spread's and recommend's documents are the same,
// byte for byte, and runs counts each run's 3 repetitions; and likewise
// from a PostgreSQL store the SQLite one was copied into (issue 35 item 3; testdata/store_repetitions_one_score.txt
// checks measure's folders on SQLite). Skipped without a PostgreSQL
// server, as the backends' other checks are.
func TestStoreRepetitionsBackends(t *testing.T) {
	pg := storetest.PostgresURL(t)
	t.Setenv("SOURCE_DATE_EPOCH", "1796112000")
	t.Setenv("QOSCAL_DB", "")
	dir := t.TempDir()
	// Six runs of three repetitions, one sample of each benchmark and
	// variant in each; the candidate's repetitions swing by up to 30%,
	// so that medians pooled across repetitions score a run otherwise.
	var b strings.Builder
	b.WriteString("run,benchmark,variant,role,repetition,sample,value,unit\n")
	for run := 1; run <= 6; run++ {
		for rep := 1; rep <= 3; rep++ {
			swing := 1 + 0.1*float64((run*7+rep*5)%7-3)
			for i, bench := range []string{"alloc", "free"} {
				base := 100 * float64(i+1) * (1 + 0.01*float64(rep))
				fmt.Fprintf(&b, "job%d,%s,system,baseline,%d,%d,%g,ns/op\n", run, bench, rep, rep-1, base)
				fmt.Fprintf(&b, "job%d,%s,hoard,candidate,%d,%d,%g,ns/op\n", run, bench, rep, rep-1, 0.8*base*swing)
			}
		}
	}
	csv := filepath.Join(dir, "runs.csv")
	if err := os.WriteFile(csv, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	qoscal := func(args ...string) string {
		t.Helper()
		var stdout, stderr bytes.Buffer
		if code := run(args, strings.NewReader(""), &stdout, &stderr); code != 0 {
			t.Fatalf("qoscal %s: exit %d\n%s", strings.Join(args, " "), code, stderr.String())
		}
		return stdout.String()
	}
	spread, recommend := qoscal("spread", "--format", "json", csv), qoscal("recommend", "--format", "json", csv)
	var doc struct {
		Scores []struct {
			Run   string  `json:"run"`
			Score float64 `json:"score"`
		} `json:"scores"`
	}
	if err := json.Unmarshal([]byte(spread), &doc); err != nil || len(doc.Scores) != 6 {
		t.Fatalf("spread of the CSV file: %v, %d scores:\n%s", err, len(doc.Scores), spread)
	}
	sqliteDB, copied := filepath.Join(dir, "q.db"), storetest.PostgresURL(t)
	for _, db := range []string{sqliteDB, pg, copied} {
		if db == copied {
			qoscal("store", "copy", "--from", sqliteDB, "--to", copied)
		} else {
			qoscal("ingest", "--db", db, csv)
		}
		if got := qoscal("spread", "--format", "json", "--db", db); got != spread {
			t.Errorf("spread --db %s differs from spread of the file:\n%s\n---\n%s", store.RedactLocation(db), got, spread)
		}
		if got := qoscal("recommend", "--format", "json", "--db", db); got != recommend {
			t.Errorf("recommend --db %s differs from recommend of the file:\n%s\n---\n%s", store.RedactLocation(db), got, recommend)
		}
		var listed []struct {
			ID          string `json:"id"`
			Repetitions int    `json:"repetitions"`
		}
		if err := json.Unmarshal([]byte(qoscal("runs", "--format", "json", "--db", db)), &listed); err != nil || len(listed) != 6 {
			t.Fatalf("runs --db %s: %v, %d runs", store.RedactLocation(db), err, len(listed))
		}
		for _, r := range listed {
			if r.Repetitions != 3 {
				t.Errorf("runs --db %s: run %s has %d repetitions, want 3", store.RedactLocation(db), r.ID, r.Repetitions)
			}
		}
	}
}
