package ci

// Annotations are few, so that the ones written are read:
//   - a warning that an earlier qoscal command of the same job already
//     annotated, word for word (recommend and report on the same runs
//     in one calibration job), is a plain line, not a second annotation;
//   - one step writes at most MaxStepWarnings warning annotations (GitHub
//     shows 10 a step); the rest are plain lines, and the step summary
//     lists them under a line saying how many more there were
//     (UnannotatedNote). The one annotation that ends a command (an
//     error, the gate's verdict) is always written, in the place kept
//     for it.
//
// The job's annotations are recorded in a file in $RUNNER_TEMP (which the
// runner empties at the start and end of every job), named for the run,
// attempt and job: a line per annotation, the step ($GITHUB_ACTION), the
// kind and a hash of the message. Without $RUNNER_TEMP (annotations asked
// for with --annotations github outside Actions) the count is the
// command's own.

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"regexp"
	"strings"
)

// MaxStepWarnings is how many warning annotations one step writes: GitHub
// shows 10 annotations of a kind a step, and one place is kept for the
// annotation that ends a command (an error, or the gate's verdict).
const MaxStepWarnings = 9

// Ledger is what the job's qoscal commands have annotated: the hashes of
// the warnings annotated in the job, and how many in this step.
type Ledger struct {
	path, step string // path "" keeps the count in memory
	seen       map[string]bool
	inStep     int
}

// OpenLedger opens the job's ledger, named by the environment getenv
// reads ($RUNNER_TEMP, $GITHUB_RUN_ID, $GITHUB_RUN_ATTEMPT, $GITHUB_JOB,
// $GITHUB_ACTION). A ledger that cannot be read starts empty.
func OpenLedger(getenv func(string) string) *Ledger {
	l := &Ledger{step: oneField(getenv("GITHUB_ACTION")), seen: map[string]bool{}}
	tmp := getenv("RUNNER_TEMP")
	if tmp == "" || !filepath.IsAbs(tmp) {
		return l
	}
	job := oneField(getenv("GITHUB_RUN_ID") + "-" + getenv("GITHUB_RUN_ATTEMPT") + "-" + getenv("GITHUB_JOB"))
	l.path = filepath.Join(tmp, "qoscal-annotations-"+jobFileName.ReplaceAllString(job, "_"))
	b, err := os.ReadFile(l.path)
	if err != nil {
		return l
	}
	for _, line := range strings.Split(string(b), "\n") {
		step, rest, ok := strings.Cut(line, "\t")
		if !ok {
			continue
		}
		l.seen[rest] = true
		if step == l.step {
			l.inStep++
		}
	}
	return l
}

// jobFileName matches what a ledger's file name leaves out of the job's
// name.
var jobFileName = regexp.MustCompile(`[^A-Za-z0-9._-]`)

// oneField puts text from the environment in one field of a ledger line.
func oneField(s string) string {
	return strings.NewReplacer("\t", " ", "\n", " ", "\r", " ").Replace(s)
}

// Place is where a warning goes: an annotation, or a plain line.
type Place int

const (
	// Annotate: the warning is an annotation, now in the ledger.
	Annotate Place = iota
	// Earlier: the job annotated it already; a plain line.
	Earlier
	// StepFull: the step wrote its MaxStepWarnings; a plain line, and
	// an entry in the step summary.
	StepFull
)

// Admit says where warning a goes, by the rules at the top of this file,
// and records it when it is to be an annotation: in memory, and in the
// job's file when there is one (a line appended whole, so that the
// commands of a step that run at once do not cut each other's lines; a
// file that cannot be written costs only the count).
func (l *Ledger) Admit(a Annotation) Place {
	h := sha256.Sum256([]byte(a.Kind + "\x00" + a.Msg))
	key := a.Kind + "\t" + hex.EncodeToString(h[:16])
	switch {
	case l.seen[key]:
		return Earlier
	case l.inStep >= MaxStepWarnings:
		return StepFull
	}
	l.seen[key] = true
	l.inStep++
	if l.path == "" {
		return Annotate
	}
	f, err := os.OpenFile(l.path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		return Annotate
	}
	f.WriteString(l.step + "\t" + key + "\n")
	f.Close()
	return Annotate
}
