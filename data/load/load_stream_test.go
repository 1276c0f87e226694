package load

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/qoscal/qoscal/data"
	"github.com/qoscal/qoscal/data/formats"
)

// csvRows writes a CSV file of runs a, b and c (two benchmarks, two
// variants each) to dir/name, their rows grouped by run or interleaved;
// bad, if not empty, replaces the value of the last row.
func csvRows(t *testing.T, dir, name string, grouped bool, bad string) string {
	t.Helper()
	var rows [][]string
	for _, run := range []string{"a", "b", "c"} {
		var rr []string
		for _, b := range []string{"larson", "xmalloc"} {
			for i, v := range []string{"system", "hoard"} {
				rr = append(rr, fmt.Sprintf("%s,%s,%s,%d,ops/sec,%s,linux", run, b, v, 1000+len(rows)*10+i, map[int]string{0: "baseline", 1: "candidate"}[i]))
			}
		}
		rows = append(rows, rr)
	}
	var lines []string
	if grouped {
		for _, rr := range rows {
			lines = append(lines, rr...)
		}
	} else {
		for i := range rows[0] {
			for _, rr := range rows {
				lines = append(lines, rr[i])
			}
		}
	}
	if bad != "" {
		f := strings.Split(lines[len(lines)-1], ",")
		f[3] = bad
		lines[len(lines)-1] = strings.Join(f, ",")
	}
	p := filepath.Join(dir, name)
	text := "run,benchmark,variant,value,unit,role,label.os\n\n" + strings.Join(lines, "\n") + "\n"
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestCSVStreamsGroupedRuns: a CSV file whose runs' rows are adjacent is
// passed on run by run as it is read; any other is read whole first; both
// give the runs All gives, and the same errors.
func TestCSVStreamsGroupedRuns(t *testing.T) {
	dir := t.TempDir()
	grouped := csvRows(t, dir, "grouped.csv", true, "")
	mixed := csvRows(t, dir, "mixed.csv", false, "")
	for _, c := range []struct {
		path string
		want bool
	}{{grouped, true}, {mixed, false}} {
		if got := formats.RunsGrouped(c.path, nil); got != c.want {
			t.Errorf("RunsGrouped(%s) = %v, want %v", filepath.Base(c.path), got, c.want)
		}
	}
	want, err := All([]string{grouped}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(want) != 3 || len(want[2].Measurements) != 4 {
		t.Fatalf("All read %d runs, want 3 of 4 measurements", len(want))
	}
	fromMixed, err := All([]string{mixed}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, fromMixed, cmpopts.IgnoreFields(data.Run{}, "Source")); diff != "" {
		t.Errorf("grouped and interleaved rows read differently (-grouped +interleaved):\n%s", diff)
	}
	for _, p := range []string{grouped, mixed} {
		var got []data.Run
		if err := loadEach([]string{p}, Options{}, func(r data.Run) error { got = append(got, r); return nil }); err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(want, got, cmpopts.IgnoreFields(data.Run{}, "Source")); diff != "" {
			t.Errorf("%s: Runs (-All +Runs):\n%s", filepath.Base(p), diff)
		}
	}

	// A bad value in the last run: the grouped file has passed on the
	// runs before it, the interleaved one none; the error is All's.
	for _, c := range []struct {
		grouped bool
		seen    []string
	}{{true, []string{"a", "b"}}, {false, nil}} {
		p := csvRows(t, t.TempDir(), "bad.csv", c.grouped, "-1")
		_, loadErr := All([]string{p}, Options{})
		if loadErr == nil {
			t.Fatal("a negative value was read")
		}
		var seen []string
		err := loadEach([]string{p}, Options{}, func(r data.Run) error { seen = append(seen, r.ID); return nil })
		if err == nil || err.Error() != loadErr.Error() {
			t.Errorf("grouped %v: Runs error %v, want All's %v", c.grouped, err, loadErr)
		}
		if !cmp.Equal(seen, c.seen) {
			t.Errorf("grouped %v: runs passed on before the error %v, want %v", c.grouped, seen, c.seen)
		}
	}

	// A run id seen before names both places, found by reading again.
	other := csvRows(t, t.TempDir(), "other.csv", false, "")
	n := 0
	err = loadEach([]string{grouped, other}, Options{}, func(data.Run) error { n++; return nil })
	if want := fmt.Sprintf("run id %q appears twice: in %s and in %s", "a", grouped, other); err == nil || err.Error() != want || n != 3 {
		t.Errorf("a run id in two files: %v after %d runs, want %q after 3", err, n, want)
	}

	// The consumer stops the reading at the first run.
	stop := errors.New("stop")
	n = 0
	if err := loadEach([]string{grouped}, Options{}, func(data.Run) error { n++; return stop }); err != stop || n != 1 {
		t.Errorf("fn's error: %v after %d runs, want stop after 1", err, n)
	}
}

// FuzzCSVStream: for any CSV file, Runs (which streams a file whose
// runs are grouped) yields the runs All returns, or fails with All's
// error.
func FuzzCSVStream(f *testing.F) {
	f.Add("run,benchmark,variant,value\na,x,s,1\na,y,s,2\nb,x,s,3\n")
	f.Add("run,benchmark,variant,value\na,x,s,1\nb,x,s,3\na,y,s,2\n")
	f.Add("run,benchmark,variant,value,sample,role,label.os\na,x,s,1,,baseline,l\na,x,s,2,,baseline,l\nb,x,h,1,0,candidate,m\nb,x,h,1,0,candidate,m\n")
	f.Add("run,benchmark,variant,value,role\na,x,s,1,baseline\na,x,h,1,baseline\nb,x,s,-1,\nc,x,s,1,\n")
	f.Add("RUN , Benchmark,variant,value\n\n\"a\",\"x\ny\",s,1\n")
	f.Fuzz(func(t *testing.T, text string) {
		p := filepath.Join(t.TempDir(), "f.csv")
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		opt := Options{Format: csvFormat}
		want, wantErr := All([]string{p}, opt)
		var got []data.Run
		err := loadEach([]string{p}, opt, func(r data.Run) error { got = append(got, r); return nil })
		if (err == nil) != (wantErr == nil) || (err != nil && err.Error() != wantErr.Error()) {
			t.Fatalf("Runs error %v, All's %v", err, wantErr)
		}
		if err == nil {
			if diff := cmp.Diff(want, got, cmpopts.EquateEmpty()); diff != "" {
				t.Fatalf("Runs (-All +Runs):\n%s", diff)
			}
		}
	})
}
