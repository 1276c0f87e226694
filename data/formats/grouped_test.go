package formats

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRunsGroupedAnswersFalseWhenUnsure: the first pass says a file is
// grouped only when it is sure; otherwise the file is read whole, which
// says what is wrong with it.
func TestRunsGroupedAnswersFalseWhenUnsure(t *testing.T) {
	dir := t.TempDir()
	for name, text := range map[string]string{
		"a run comes back":    "run,benchmark,variant,value\na,x,s,1\nb,x,s,1\na,y,s,1\n",
		"no run column":       "benchmark,variant,value\nx,s,1\n",
		"broken quote":        "run,benchmark,variant,value\n\"a,x,s,1\n",
		"short row":           "benchmark,run,variant,value\nx\n",
		"not a csv (gobench)": "BenchmarkX-8 100 5 ns/op\n",
	} {
		p := filepath.Join(dir, strings.ReplaceAll(name, " ", "-")+".csv")
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		if RunsGrouped(p, nil) {
			t.Errorf("%s: RunsGrouped = true, want false", name)
		}
	}
}
