package present

import (
	"errors"
	"fmt"
	"strings"

	"github.com/qoscal/qoscal/calibrate"
	calfloor "github.com/qoscal/qoscal/calibrate/floor"
	"github.com/qoscal/qoscal/calibrate/gate"
	"github.com/qoscal/qoscal/calibrate/model"
	calspread "github.com/qoscal/qoscal/calibrate/spread"
)

// Error returns err in the command line's words. The errors of package
// calibrate that the user puts right by changing what the command was
// asked (an option out of its range, a variant or a metric to name, a
// suite to gate on in part, a calibration file to write again) say what
// is wrong as values; here each is worded with the flag or the command
// that puts it right, in place, within whatever wraps it ("calibration
// file gate.json: ..."). Any other error is returned as it is; the error
// returned wraps err, so errors.Is and errors.As see what they saw.
func Error(err error) error {
	if err == nil {
		return nil
	}
	words, leaf := errorWords(err)
	if leaf == nil {
		return err
	}
	full, lib := err.Error(), leaf.Error()
	i := strings.LastIndex(full, lib)
	if i < 0 {
		return err
	}
	return &worded{err: err, text: full[:i] + words + full[i+len(lib):]}
}

// worded is an error with the command line's words (Error).
type worded struct {
	err  error
	text string
}

func (w *worded) Error() string { return w.text }
func (w *worded) Unwrap() error { return w.err }

// optionFlags are the flags of the recommendation's options.
var optionFlags = map[model.Option]string{
	model.OptMethod:      "--method",
	model.OptRerunBand:   "--rerun-band",
	model.OptTargetFPR:   "--target-fpr",
	model.OptMargin:      "--margin",
	model.OptStep:        "--step",
	model.OptAlpha:       "--alpha",
	model.OptCoverage:    "--coverage",
	model.OptConfidence:  "--confidence",
	model.OptFamilyAlpha: "--family-alpha",
	model.OptBootstrap:   "--bootstrap",
}

// errorWords finds the first error in err's chain that is worded here,
// and returns its words and it; nil when there is none.
func errorWords(err error) (string, error) {
	var (
		opt     *model.OptionError
		role    *calspread.RoleError
		dir     *calibrate.DirectionError
		metrics *calibrate.MetricsError
		nometr  *calibrate.NoMetricError
		vars    *gate.VariantsError
		unit    *gate.UnitError
		part    *gate.PartialError
		nofloor *calfloor.NoFloorError
		floor   *model.FloorMismatchError
		field   *model.UnknownFieldError
		low     *model.FloorTooLowError
	)
	switch {
	case errors.As(err, &opt):
		return optionText(opt), opt
	case errors.As(err, &role):
		return role.Error() + ": name it with --" + role.Role + " NAME", role
	case errors.As(err, &dir):
		return dir.Error() + ": use --higher-is-better or --lower-is-better", dir
	case errors.As(err, &metrics):
		return metrics.Error() + ": choose one with --metric", metrics
	case errors.As(err, &nometr):
		return fmt.Sprintf("run %s has no %s measurements (--metric %s); it has %s", nometr.Run, nometr.Unit, nometr.Metric, strings.Join(nometr.Has, ", ")), nometr
	case errors.As(err, &vars):
		return fmt.Sprintf("%s: name the variants as the calibration does (--baseline %s=FILE --candidate %s=FILE)", vars.Error(), vars.CalBaseline, vars.CalCandidate), vars
	case errors.As(err, &unit):
		return unit.Msg + ": gate the metric the floor was calibrated on (--metric " + unit.Unit + ")", unit
	case errors.As(err, &part):
		return part.Msg + "; rerun, or gate on " + part.Part + " with --allow-partial", part
	case errors.As(err, &nofloor):
		return fmt.Sprintf("the %s method gives a floor of %.4g, which rounds to %s at step %v: nothing to gate on; with so few or so spread runs, calibrate on more runs, or put the floor a margin below the lowest run instead",
			nofloor.Method, nofloor.Raw, model.FormatOnStep(nofloor.Floor, nofloor.Step), nofloor.Step), nofloor
	case errors.As(err, &low):
		why := fmt.Sprintf("%d runs are too few for the method to place the floor near them: calibrate on more runs (%d or more)", low.Runs, calspread.FewRuns)
		if low.Runs >= calspread.FewRuns {
			why = fmt.Sprintf("%d runs this spread or this correlated carry too little information for the method to place the floor near them: calibrate on more runs, interleaved or in random order", low.Runs)
		}
		return fmt.Sprintf("the %s method puts the floor at %s, below half the lowest calibration score (%s): the gate would pass a candidate more than twice as slow as every calibration run; %s, or choose how far below the lowest run the floor goes with --margin FRACTION (--margin 0.1: 10%% below)",
			low.Method, model.FormatOnStep(low.Floor, low.Step), ratio(low.Lowest), why), low
	case errors.As(err, &floor):
		return floor.Error() + ": write the file again with qoscal recommend --write, or give the floor to the gate with --floor", floor
	case errors.As(err, &field):
		return "field " + field.Field + " is unknown: expected only the fields qoscal recommend --write writes (docs/json.md)", field
	case errors.Is(err, model.ErrVersion1):
		return model.ErrVersion1.Error() + ": write it again with qoscal recommend --write on the same runs", model.ErrVersion1
	}
	return "", nil
}

// optionText words an option out of its range as the command line spells
// it: "--margin must be in [0, 1), got 1.3".
func optionText(e *model.OptionError) string {
	flag := optionFlags[e.Option]
	if e.Option == model.OptMethod {
		names := make([]string, len(model.Methods))
		for i, m := range model.Methods {
			names[i] = string(m)
		}
		return fmt.Sprintf("%s must be %s, got %q", flag, orList(names), e.Got)
	}
	r := model.OptionRanges[e.Option]
	in := fmt.Sprintf("%s%v, %v%s", map[bool]string{false: "[", true: "("}[r.OpenLo], r.Lo, r.Hi, map[bool]string{false: "]", true: ")"}[r.OpenHi])
	switch e.Option {
	case model.OptStep:
		return fmt.Sprintf("%s must be in %s, got %v: a floor is shown to the step's decimals", flag, in, e.Got)
	case model.OptBootstrap:
		return fmt.Sprintf("%s must be in %s (0: no bootstrap), got %v: its time grows with the resamples times the runs", flag, in, e.Got)
	}
	return fmt.Sprintf("%s must be in %s, got %v", flag, in, e.Got)
}

// orList joins words as "a, b, c or d".
func orList(words []string) string {
	if len(words) < 2 {
		return strings.Join(words, "")
	}
	return strings.Join(words[:len(words)-1], ", ") + " or " + words[len(words)-1]
}
