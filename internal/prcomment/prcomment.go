// Package prcomment is the pull-request comment of 'qoscal comment',
// apart from the API that posts it (internal/github): its hidden marker
// (Marker), its body cut to GitHub's limit with the run that wrote it
// (Compose, RunFooter; RunLinks, the pages of runs' workflow runs, for
// the watch's issues too), the text of a body file (DecodeText), and where
// it goes and whether the token may write there, from the GitHub Actions
// event (FindTarget). It imports the run model and render only (for a
// file's kind and text from outside on one line), and knows no flags.
package prcomment

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"regexp"
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/qoscal/qoscal/data"
)

// Marker is the hidden first line that finds the comment again:
// an HTML comment, which GitHub does not show.
func Marker(id string) string {
	if id == "" {
		return "<!-- qoscal-gate -->"
	}
	return "<!-- qoscal-gate:" + id + " -->"
}

// Compose is the comment's body: the marker's line, the Markdown
// md with its line breaks as LF, and footer (when not ""), at most limit
// characters. A longer one keeps as many whole lines of md as fit, closes
// a code block left open, and says how many lines were left out (cut);
// more says that md was itself cut short of its file, which counts as a
// line left out.
func Compose(marker, md string, more bool, footer string, limit int) (body string, cut int) {
	md = strings.ReplaceAll(strings.ReplaceAll(md, "\r\n", "\n"), "\r", "\n")
	md = strings.TrimRight(md, "\n \t")
	tail := ""
	if footer != "" {
		tail = "\n\n" + footer
	}
	whole := marker + "\n" + md + tail + "\n"
	if !more && utf8.RuneCountInString(whole) <= limit {
		return whole, 0
	}
	lines := strings.Split(md, "\n")
	if more {
		// The last line read may be a part of a line.
		lines = lines[:len(lines)-1]
	}
	// size[k] is the length of the first k lines joined: the search
	// starts at the most lines that could fit, and builds a body only
	// for the few it tries from there (a text of 1 MiB has 100,000
	// lines).
	size := make([]int, len(lines)+1)
	for i, l := range lines {
		size[i+1] = size[i] + utf8.RuneCountInString(l) + 1
	}
	keep := len(lines)
	for keep > 0 && utf8.RuneCountInString(marker)+size[keep] > limit {
		keep--
	}
	for ; keep >= 0; keep-- {
		kept := strings.Join(lines[:keep], "\n")
		if openFence(lines[:keep]) {
			kept += "\n```"
		}
		left := len(lines) - keep
		if more {
			left++
		}
		note := fmt.Sprintf("*Cut to fit GitHub's limit of %d characters for a comment: %s of the gate's summary left out.*", limit, LinesLeft(left, more))
		b := marker + "\n" + kept + "\n\n" + note + tail + "\n"
		if utf8.RuneCountInString(b) <= limit {
			return b, left
		}
	}
	// Not even the marker and the note fit: a limit this small is a bug.
	return marker + "\n", len(lines)
}

// openFence reports whether lines leave a fenced code block (```) open.
func openFence(lines []string) bool {
	open := false
	for _, l := range lines {
		if strings.HasPrefix(strings.TrimLeft(l, " "), "```") {
			open = !open
		}
	}
	return open
}

// LinesLeft says how many lines were left out: n, or "n or more" when the
// file was not read to its end.
func LinesLeft(n int, more bool) string {
	switch {
	case more:
		return fmt.Sprintf("%d or more lines", n)
	case n == 1:
		return "1 more line"
	}
	return fmt.Sprintf("%d more lines", n)
}

// RunFooter is the comment's last line under Actions: which workflow run
// (and attempt) and job wrote it, linked, so that a reader of a comment
// edited in place knows how fresh it is. "" outside Actions, or when a
// variable does not look as the runner sets it (nothing from the
// environment goes into the Markdown unchecked).
func RunFooter(getenv func(string) string, id string) string {
	server := strings.TrimRight(getenv("GITHUB_SERVER_URL"), "/")
	if server == "" {
		server = "https://github.com"
	}
	repo, runID := getenv("GITHUB_REPOSITORY"), getenv("GITHUB_RUN_ID")
	if !safeURL.MatchString(server) || !repoPattern.MatchString(repo) || !digits.MatchString(runID) {
		return ""
	}
	s := fmt.Sprintf("<sub>qoscal · [workflow run %s](%s/%s/actions/runs/%s)", runID, server, repo, runID)
	if a := getenv("GITHUB_RUN_ATTEMPT"); digits.MatchString(a) && a != "1" {
		s += ", attempt " + a
	}
	if job := getenv("GITHUB_JOB"); safeWord.MatchString(job) {
		s += ", job " + job
	}
	if id != "" {
		s += ", comment " + id
	}
	return s + "</sub>"
}

// RunLinks are the runs' pages: the Actions run of each run's github_run
// label, under $GITHUB_SERVER_URL and $GITHUB_REPOSITORY when they look
// as the runner sets them.
func RunLinks(getenv func(string) string, runs []data.Run) map[string]string {
	server := strings.TrimRight(getenv("GITHUB_SERVER_URL"), "/")
	if server == "" {
		server = "https://github.com"
	}
	repo := getenv("GITHUB_REPOSITORY")
	out := map[string]string{}
	if !safeURL.MatchString(server) || !repoPattern.MatchString(repo) {
		return out
	}
	for _, r := range runs {
		if id := r.Labels["github_run"]; digits.MatchString(id) {
			out[r.ID] = fmt.Sprintf("%s/%s/actions/runs/%s", server, repo, id)
		}
	}
	return out
}

var (
	safeURL     = regexp.MustCompile(`^https?://[A-Za-z0-9.:-]+(/[A-Za-z0-9._~/-]*)?$`)
	repoPattern = regexp.MustCompile(`^[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+$`)
	digits      = regexp.MustCompile(`^[0-9]{1,20}$`)
	safeWord    = regexp.MustCompile(`^[A-Za-z0-9_-]{1,100}$`)
)

// DecodeText decodes b: UTF-16 (LE or BE) when it starts with that
// byte-order mark, else UTF-8, its mark dropped and invalid bytes shown
// as U+FFFD. A last odd byte of UTF-16 (a file cut short) is dropped.
func DecodeText(b []byte) string {
	if len(b) >= 2 && (b[0] == 0xFF && b[1] == 0xFE || b[0] == 0xFE && b[1] == 0xFF) {
		le := b[0] == 0xFF
		b = b[2:]
		u := make([]uint16, len(b)/2)
		for i := range u {
			if le {
				u[i] = uint16(b[2*i]) | uint16(b[2*i+1])<<8
			} else {
				u[i] = uint16(b[2*i])<<8 | uint16(b[2*i+1])
			}
		}
		return string(utf16.Decode(u))
	}
	b = bytes.TrimPrefix(b, []byte("\xEF\xBB\xBF"))
	return strings.ToValidUTF8(string(b), "\uFFFD")
}

// pathErr is the cause of a file error without the path (the message
// names the flag and its value), in qoscal's words for the usual two.
func PathErr(err error) error {
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return errors.New("no such file or folder")
	case errors.Is(err, fs.ErrPermission):
		return errors.New("permission denied")
	}
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
