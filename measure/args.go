package measure

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
)

// RecordedArgs are the arguments of 'qoscal measure' that repeat the
// measurement recorded in the qoscal.json of the run folder src (""
// when it has none, or it records no measurement of two variants or
// more), each quoted for a POSIX shell: --variant NAME=COMMAND for each
// variant, --baseline and --candidate when not the first two, --shell,
// --benchmark, --order, --max-repetitions and --warmup.
func RecordedArgs(src string) string {
	if src == "" {
		return ""
	}
	b, err := readSmall(filepath.Join(src, "qoscal.json"), 1<<20)
	if err != nil {
		return ""
	}
	var meta struct {
		Measure *struct {
			Baseline    string `json:"baseline"`
			Candidate   string `json:"candidate"`
			Variants    []struct{ Name, Command string }
			Shell       bool     `json:"shell"`
			Order       string   `json:"order"`
			Repetitions int      `json:"repetitions"`
			Warmup      int      `json:"warmup"`
			Benchmarks  []string `json:"benchmarks"`
		} `json:"measure"`
	}
	if json.Unmarshal(b, &meta) != nil || meta.Measure == nil || len(meta.Measure.Variants) < 2 {
		return ""
	}
	m := meta.Measure
	var parts []string
	for _, v := range m.Variants {
		parts = append(parts, "--variant", ShellQuote(v.Name+"="+v.Command))
	}
	if m.Baseline != "" && m.Baseline != m.Variants[0].Name {
		parts = append(parts, "--baseline", ShellQuote(m.Baseline))
	}
	if m.Candidate != "" && m.Candidate != m.Variants[1].Name {
		parts = append(parts, "--candidate", ShellQuote(m.Candidate))
	}
	if m.Shell {
		parts = append(parts, "--shell")
	}
	for _, b := range m.Benchmarks {
		parts = append(parts, "--benchmark", ShellQuote(b))
	}
	if m.Order != "" {
		parts = append(parts, "--order", ShellQuote(m.Order))
	}
	if m.Repetitions > 0 {
		parts = append(parts, "--max-repetitions", strconv.Itoa(m.Repetitions))
	}
	parts = append(parts, "--warmup", strconv.Itoa(m.Warmup))
	return strings.Join(parts, " ")
}

// readSmall reads a regular file of at most limit bytes.
func readSmall(path string, limit int64) ([]byte, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() || st.Size() > limit {
		return nil, errors.New("not a small regular file")
	}
	return os.ReadFile(path)
}

// ShellQuote quotes s for a POSIX shell: as it is when it holds only
// safe characters, else in single quotes.
func ShellQuote(s string) string {
	if s != "" && shellSafe.MatchString(s) {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// shellSafe is a word a POSIX shell reads as it is.
var shellSafe = regexp.MustCompile(`^[A-Za-z0-9_./=:,+@%-]+$`)
