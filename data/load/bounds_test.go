package load

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"runtime/metrics"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/qoscal/qoscal/data"
	"github.com/qoscal/qoscal/data/formats"
)

// TestMaxJSONBytes: a JSON result file larger than the limit is refused,
// naming the limit.
func TestMaxJSONBytes(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "ab.json")
	writeFile(t, path, `{"results": [{"command": "old", "times": [0.1, 0.2]}, {"command": "new", "times": [0.1, 0.3]}]}`)
	opt := Options{RunID: "r", Baseline: VariantSpec{"old", path}, Candidate: VariantSpec{"new", path}}
	if _, err := Files(opt); err != nil {
		t.Fatal(err)
	}
	opt.MaxJSONBytes = 64
	_, err := Files(opt)
	want := path + ": JSON result file larger than 64 bytes, the limit for JSON input\n" + path + ": JSON result file larger than 64 bytes, the limit for JSON input"
	if err == nil || err.Error() != want {
		t.Errorf("error %v\nwant  %s", err, want)
	}
}

// benchLoad loads a run whose baseline is the large file and whose
// candidate is a small one, and reports the peak heap per input byte.
func benchLoad(b *testing.B, name string, big []byte, small string) {
	dir := b.TempDir()
	base := filepath.Join(dir, name)
	cand := filepath.Join(dir, "cand"+filepath.Ext(name))
	if err := os.WriteFile(base, big, 0o644); err != nil {
		b.Fatal(err)
	}
	if err := os.WriteFile(cand, []byte(small), 0o644); err != nil {
		b.Fatal(err)
	}
	opt := Options{RunID: "r", Baseline: VariantSpec{"base", base}, Candidate: VariantSpec{"cand", cand}, MaxJSONBytes: 1 << 30}
	b.ReportAllocs()
	b.SetBytes(int64(len(big)))
	var peak uint64
	n := 0
	for b.Loop() {
		var run data.Run
		p := peakHeap(func() {
			var err error
			if run, err = Files(opt); err != nil {
				b.Fatal(err)
			}
		})
		peak = max(peak, p)
		n = len(run.Measurements)
	}
	b.ReportMetric(float64(peak)/float64(len(big)), "peak-heap-B/input-B")
	b.ReportMetric(float64(peak)/(1<<20), "peak-heap-MiB")
	b.ReportMetric(float64(n), "measurements")
}

// BenchmarkReadLargeText loads a 32 MiB ops result file (a 200 MiB one
// took 2.2 GB before issue 11).
func BenchmarkReadLargeText(b *testing.B) {
	var buf bytes.Buffer
	for i := 0; buf.Len() < 32<<20; i++ {
		fmt.Fprintf(&buf, "--- bench%d ---\nbench%d: threads=4 ops=400000 time=0.072 sec (%d ops/sec)\n", i%50, i%50, 5514093+i)
	}
	benchLoad(b, "base.txt", buf.Bytes(), "bench0: t=1 (1 ops/sec)\n")
}

// BenchmarkReadLargeJSON loads a 24 MiB hyperfine JSON file (a 200 MiB one
// took 7 GB and 50 s before issue 11). It was 32 MiB, 2.59 million times:
// more measurements than one result file may hold (MaxMeasurements).
func BenchmarkReadLargeJSON(b *testing.B) {
	var buf bytes.Buffer
	buf.WriteString(`{"results": [`)
	for c := 0; buf.Len() < 24<<20; c++ {
		if c > 0 {
			buf.WriteString(",\n")
		}
		fmt.Fprintf(&buf, `{"command": "cmd%d", "mean": 0.1, "times": [`, c)
		for i := 0; i < 10000; i++ {
			if i > 0 {
				buf.WriteString(", ")
			}
			fmt.Fprintf(&buf, "0.%09d", 100000000+i*7919%99999)
		}
		buf.WriteString("]}")
	}
	buf.WriteString("]}\n")
	benchLoad(b, "base.json", buf.Bytes(), `{"results": [{"command": "cmd0", "times": [0.1]}]}`)
}

// BenchmarkPeakHostile loads hostile result files of the kinds a sweep
// tried (a 100 MB CSV header line, 3,000,000 samples of one benchmark, a
// 64 MiB JSON file of "1," values, a 100 MB number), each as the
// baseline of a run (or as a CSV PATH), and reports the peak heap of the
// load and whether it was refused. The figures are in the commit that
// bounded them; go test -run '^$' -bench PeakHostile -benchtime 1x.
func BenchmarkPeakHostile(b *testing.B) {
	const mib = 1 << 20
	cases := []struct {
		name, file string
		format     string
		make       func(*bytes.Buffer)
	}{
		{"csv-100MB-header", "r.csv", "", func(w *bytes.Buffer) {
			w.WriteString("run,benchmark,variant,value,")
			w.Write(bytes.Repeat([]byte("x"), 100*mib))
			w.WriteString("\nr,a,b,1\n")
		}},
		{"ops-3M-samples", "base.txt", "", func(w *bytes.Buffer) {
			w.Write(bytes.Repeat([]byte("larson: x=1 (5514093 ops/sec)\n"), 3000000))
		}},
		{"gobench-3M-samples", "base.txt", "", func(w *bytes.Buffer) {
			w.Write(bytes.Repeat([]byte("BenchmarkA-2 1000 5 ns/op\n"), 3000000))
		}},
		{"hyperfine-64MiB-ones", "base.json", "", func(w *bytes.Buffer) {
			w.WriteString(`{"results": [{"command": "a", "times": [1`)
			for w.Len() < 63*mib {
				w.WriteString(",1")
			}
			w.WriteString("]}]}")
		}},
		{"gobench-100MB-number", "base.txt", "gobench", func(w *bytes.Buffer) {
			w.WriteString("BenchmarkA-2 1000 5 ns/op\nBenchmarkB-2 1000 ")
			w.Write(bytes.Repeat([]byte("1"), 100*mib))
			w.WriteString(" ns/op\n")
		}},
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			dir := b.TempDir()
			path := filepath.Join(dir, c.file)
			var buf bytes.Buffer
			c.make(&buf)
			if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
				b.Fatal(err)
			}
			buf = bytes.Buffer{}
			small := filepath.Join(dir, "cand"+filepath.Ext(c.file))
			if err := os.WriteFile(small, []byte("larson: x=1 (5514093 ops/sec)\n"), 0o644); err != nil {
				b.Fatal(err)
			}
			format, _ := formats.LookupFormat(c.format)
			var peak uint64
			refused := 0.0
			for b.Loop() {
				var err error
				peak = max(peak, peakHeap(func() {
					if filepath.Ext(c.file) == ".csv" {
						_, err = All([]string{path}, Options{Format: format})
					} else {
						_, err = Files(Options{RunID: "r", Baseline: VariantSpec{"base", path}, Candidate: VariantSpec{"cand", small}, Format: format, MaxJSONBytes: 64 * mib})
					}
				}))
				if err != nil {
					refused = 1
					b.Log(strings.SplitN(err.Error(), "\n", 2)[0][:min(200, len(strings.SplitN(err.Error(), "\n", 2)[0]))])
				}
			}
			b.ReportMetric(float64(peak)/mib, "peak-heap-MiB")
			b.ReportMetric(refused, "refused")
		})
	}
}

// peakHeap runs f and reports the largest heap (live and not yet swept
// objects, runtime/metrics /memory/classes/heap/objects:bytes) seen while
// it ran, sampled every millisecond, less the heap before it ran.
func peakHeap(f func()) uint64 {
	runtime.GC()
	sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	read := func() uint64 {
		metrics.Read(sample)
		return sample[0].Value.Uint64()
	}
	base := read()
	var peak atomic.Uint64
	stop := make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		tick := time.NewTicker(time.Millisecond)
		defer tick.Stop()
		for {
			if v := read(); v > peak.Load() {
				peak.Store(v)
			}
			select {
			case <-stop:
				return
			case <-tick.C:
			}
		}
	}()
	f()
	if v := read(); v > peak.Load() {
		peak.Store(v)
	}
	close(stop)
	<-done
	if p := peak.Load(); p > base {
		return p - base
	}
	return 0
}
