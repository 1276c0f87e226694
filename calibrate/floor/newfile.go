package floor

import (
	"math"
	"sort"
	"time"

	"github.com/qoscal/qoscal/calibrate"
	"github.com/qoscal/qoscal/calibrate/model"
	"github.com/qoscal/qoscal/calibrate/spread"
)

// NewFile builds the calibration file of a recommendation.
func NewFile(a *spread.Analysis, r *Recommendation, labels map[string]string, created time.Time, tool string) *model.File {
	f := &model.File{
		Schema: model.FileSchema, Version: model.MinFileVersion,
		Created: created.UTC().Format(time.RFC3339),
		Floor:   r.Floor, FloorText: r.FormatFloor(r.Floor), Method: r.Options.Method,
		Params:   model.FileParams{Margin: r.Options.Margin, Step: r.Options.Step, Seed: r.Options.Seed, FamilyAlpha: r.Options.FamilyAlpha},
		Baseline: a.Baseline, Candidate: a.Candidate,
		Suite: append([]string(nil), a.Suite...), Units: map[string]calibrate.Unit{},
		Runs: a.Score.N,
		Observed: model.FileObserved{Min: a.Score.Min, Median: a.Score.Median, Max: a.Score.Max,
			MeanLog: a.Score.MeanLog, SDLog: a.Score.SDLog},
		FPR:       model.FileFPR{Predictive: model.NullFloat(r.Cost.Predictive), Upper95: model.NullFloat(r.Cost.Upper95), DistributionFree: model.NullFloat(r.Cost.DistributionFree)},
		Detection: model.FileDetection{R50: model.NullFloat(r.Cost.R50), R90: model.NullFloat(r.Cost.R90)},
		Health:    map[string]model.Health{},
		Labels:    map[string]string{},
		Tool:      tool,
		Matrix:    model.MatrixOf(a),
	}
	if v := a.Variance; v != nil {
		f.Version = model.VarianceVersion
		f.Variance = &model.FileVariance{Between: v.Between, Within: v.Within, MeanLog: v.Mean, Runs: v.Groups, Repetitions: v.N, Rho: v.Rho}
		if v.Rho != 0 {
			f.Version = model.RhoVersion
		}
	}
	if r.Options.Method == model.MethodMargin && !math.IsNaN(r.Cost.RuleRate) {
		rule := model.NullFloat(r.Cost.RuleRate)
		f.FPR.Rule = &rule
		f.Version = max(f.Version, model.RuleVersion)
	}
	switch r.Options.Method {
	case model.MethodTargetFPR:
		f.Params.TargetFPR = r.Options.TargetFPR
	case model.MethodPrediction:
		f.Params.Alpha = r.Options.Alpha
	case model.MethodTolerance:
		f.Params.Coverage, f.Params.Confidence = r.Options.Coverage, r.Options.Confidence
	}
	for _, b := range a.Suite {
		f.Units[b] = calibrate.Unit{Unit: a.Units[b], Direction: a.Directions[b].Key()}
	}
	for _, h := range a.BaselineSpread {
		f.Health[h.Name] = model.Health{MedianLog: h.MedianLog, MADLog: h.MADLog}
	}
	for k, v := range labels {
		f.Labels[k] = v
	}
	sort.Strings(f.Suite)
	return f
}
