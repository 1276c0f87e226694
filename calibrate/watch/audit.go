package watch

import (
	"github.com/qoscal/qoscal/calibrate"
	"github.com/qoscal/qoscal/calibrate/model"
	"github.com/qoscal/qoscal/data"
	"github.com/qoscal/qoscal/stats"
)

// Episode is an issue the watch opened: the run whose push opened it,
// and what that run was later marked (qoscal mark), "" when unmarked.
type Episode struct {
	Opened, Truth string
}

// EpisodeAudit is the watch's issues counted against its stated rate:
// the episodes it opened over the pushes judged against the calibration,
// found again by replaying its decision on them (the decision is a
// function of the runs and the seed, so the replay opens the issues the
// watch opened, push after push), and those whose opening run was later
// marked healthy: false issues.
type EpisodeAudit struct {
	// Pushes are the runs replayed, Episodes the issues opened.
	Pushes   int
	Episodes []Episode
	// False and Unknown count the episodes whose opening run is marked
	// healthy, and those not marked at all (not counted as false).
	False, Unknown int
	// Realised is False per 100 pushes, Lo and Hi its exact 95%
	// interval (Clopper–Pearson on False of Pushes pushes, per 100).
	Realised, Lo, Hi float64
	// Stated is the false issues per 100 pushes the watch states for the
	// calibration (Simulate), SE its Monte Carlo error.
	Stated, SE float64
	// Verdict is AuditMore, AuditConsistent or AuditTooFew.
	Verdict string
}

// Verdicts of an EpisodeAudit.
const (
	// AuditMore: the interval lies above the stated rate.
	AuditMore = "more false issues than stated"
	// AuditConsistent: the stated rate is inside the interval.
	AuditConsistent = "consistent with the stated rate"
	// AuditFewer: the interval lies below the stated rate (it is
	// conservative).
	AuditFewer = "fewer false issues than stated"
)

// AuditEpisodes replays the watch on runs (in push order) against cal and
// counts its episodes; marks are the runs' latest marks (their truth, by
// run id).
func AuditEpisodes(cal *model.File, runs []data.Run, dir calibrate.Direction, marks map[string]string, opt Options) (*EpisodeAudit, error) {
	ids, actions, rates, err := Replay(cal, runs, dir, opt)
	if err != nil {
		return nil, err
	}
	a := &EpisodeAudit{Pushes: len(ids), Stated: rates.FalseIssuesPer100, SE: rates.SE}
	for i, act := range actions {
		if act != Open {
			continue
		}
		e := Episode{Opened: ids[i], Truth: marks[ids[i]]}
		a.Episodes = append(a.Episodes, e)
		switch e.Truth {
		case "healthy":
			a.False++
		case "":
			a.Unknown++
		}
	}
	a.Realised = 100 * float64(a.False) / float64(a.Pushes)
	lo, hi := stats.ClopperPearson(a.False, a.Pushes, 0.95)
	a.Lo, a.Hi = 100*lo, 100*hi
	switch {
	case a.Lo > a.Stated:
		a.Verdict = AuditMore
	case a.Hi < a.Stated:
		a.Verdict = AuditFewer
	default:
		a.Verdict = AuditConsistent
	}
	return a, nil
}
