package watchissue

import (
	"context"

	"github.com/qoscal/qoscal/internal/github"
)

// Label is the label of the watch's issues.
const Label = "qoscal-watch"

// Writer is the API that Apply writes through (*github.Client).
type Writer interface {
	CreateIssue(ctx context.Context, title, body string, labels []string) (*github.Issue, error)
	EditIssue(ctx context.Context, number int, title, body, state, reason string) (*github.Issue, error)
	CreateComment(ctx context.Context, issue int, body string) (*github.Comment, error)
}

// Plan is what the watch decided to write on a push: open an issue,
// update the current one, close it, or none of these (Action "open",
// "update", "close", else none), and close the issues of older
// calibrations still open.
type Plan struct {
	Action      string
	Title, Body string
	Current     *github.Issue // the issue of Update and Close
	Older       []github.Issue
	// CloseNote and SupersededNote are the comments (Markdown) left on an
	// issue closed because the score came back, or because a newer
	// calibration superseded its own.
	CloseNote, SupersededNote func() string
}

// Outcome is what Apply wrote: the issue it opened, or closed; Posted
// "opened", "updated", "unchanged" (an update that would change
// nothing is not sent), "closed", or "" for nothing; and the older
// issues closed.
type Outcome struct {
	Issue      int
	URL        string
	Posted     string
	Superseded []int
}

// Apply writes plan p through w: first each older issue closed as not
// planned with its note, then the plan's action. An error stops it; the
// outcome then says what was written before.
func Apply(ctx context.Context, w Writer, p Plan) (Outcome, error) {
	var out Outcome
	for _, is := range p.Older {
		if _, err := w.CreateComment(ctx, is.Number, p.SupersededNote()); err != nil {
			return out, err
		}
		if _, err := w.EditIssue(ctx, is.Number, "", "", "closed", "not_planned"); err != nil {
			return out, err
		}
		out.Superseded = append(out.Superseded, is.Number)
	}
	switch p.Action {
	case "open":
		is, err := w.CreateIssue(ctx, p.Title, p.Body, []string{Label})
		if err != nil {
			return out, err
		}
		out.Issue, out.URL, out.Posted = is.Number, is.HTMLURL, "opened"
	case "update":
		if p.Current.Body == p.Body && p.Current.Title == p.Title {
			out.Posted = "unchanged"
			break
		}
		if _, err := w.EditIssue(ctx, p.Current.Number, p.Title, p.Body, "", ""); err != nil {
			return out, err
		}
		out.Posted = "updated"
	case "close":
		if _, err := w.CreateComment(ctx, p.Current.Number, p.CloseNote()); err != nil {
			return out, err
		}
		if _, err := w.EditIssue(ctx, p.Current.Number, "", p.Body, "closed", "completed"); err != nil {
			return out, err
		}
		out.Posted = "closed"
	default:
		if len(out.Superseded) > 0 {
			out.Issue, out.Posted = out.Superseded[0], "closed"
		}
	}
	return out, nil
}
