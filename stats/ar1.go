package stats

import "math"

// Calibration runs are often not independent: a CI machine's load drifts,
// so consecutive runs' scores are correlated (lag-1 autocorrelation +0.70
// on the bundled twelve Linux runs). Treated as independent, n correlated
// runs overstate what is known: the mean is less certain than σ²/n says,
// and the n−1 SD underestimates σ. For an AR(1) series with lag-1
// autocorrelation ρ (docs/STATS.md 5b):
//
//	Var(mean) ≈ σ²/n_eff,  n_eff = n (1 − ρ)/(1 + ρ)
//	E[s²]     ≈ σ² (n − n/n_eff)/(n − 1)
//	df_eff    ≈ n (1 − ρ²)/(1 + ρ²) − 1     (the variance's degrees of freedom)
//
// and a new run's log score is predicted by m + s_adj·sqrt(1 + 1/n_eff)·T_{df_eff}
// with s_adj² = s²·(n − 1)/(n − n/n_eff). With ρ = 0 these are n, s and
// n − 1: the independent model.

// Effective is the sample size and degrees of freedom a predictive figure
// uses, and the factor that corrects the SD for autocorrelation.
type Effective struct {
	// N is the effective sample size of the mean; DF the degrees of
	// freedom of the variance; SDScale multiplies the n−1 SD.
	N, DF, SDScale float64
	// Rho is the lag-1 autocorrelation the figures allow for (0: none).
	Rho float64
}

// Independent is the independent model for n runs.
func Independent(n int) Effective {
	return Effective{N: float64(n), DF: float64(n - 1), SDScale: 1}
}

// AR1 is the effective model for n runs with lag-1 autocorrelation rho,
// clamped to [0, 0.9] and so that n_eff ≥ 2 (n runs cannot count as fewer
// than two for a mean and a spread: ρ ≤ (n/2 − 1)/(n/2 + 1)); negative
// autocorrelation is not allowed for, which keeps the figures cautious.
func AR1(n int, rho float64) Effective {
	nf := float64(n)
	rho = math.Min(math.Max(rho, 0), math.Min(0.9, (nf/2-1)/(nf/2+1)))
	if rho <= 0 || n < 4 {
		return Independent(n)
	}
	nEff := nf * (1 - rho) / (1 + rho)
	df := math.Max(1, nf*(1-rho*rho)/(1+rho*rho)-1)
	bias := (nf - nf/nEff) / (nf - 1) // E[s²]/σ²
	return Effective{N: nEff, DF: df, SDScale: 1 / math.Sqrt(bias), Rho: rho}
}

// ShrinkRho is the autocorrelation allowed for, from the lag-1 estimate
// r of n values and its standard error: 0 unless r is significantly
// positive (above 1.645 standard errors, one-sided 5%), since ten runs
// estimate ρ poorly (SE 1/√10 = 0.32) and an estimate that could be noise
// should change nothing; otherwise r corrected for its downward bias with
// an estimated mean, E[r] ≈ ρ − (1 + 4ρ)/n (Kendall 1954; Marriott and
// Pope 1954), that is r + (1 + 4r)/n, at most 0.9.
func ShrinkRho(rho, se float64, n int) float64 {
	if math.IsNaN(rho) || math.IsNaN(se) || !(rho > 1.645*se) || n < 3 {
		return 0
	}
	return math.Min(0.9, rho+(1+4*rho)/float64(n))
}

// AR1Upper is the effective model for the upper confidence bound of a
// floor's true rate (FPRUpperEff): AR1 at the bias-corrected estimate
// r + (1 + 4r)/n plus one standard error when r is more than one standard
// error above 0, independent otherwise. A confidence bound must allow for
// how poorly a few runs estimate ρ: taking the predictive figures' ρ
// (ShrinkRho: 0 unless significant at 5%, then the corrected r) as known,
// the 95% bound missed the true rate 9.3% of the time at n = 30, ρ = 0.5
// (1,500 calibrations), mostly in the calibrations whose r fell short of
// significance (stats/claims_test.go has the check).
func AR1Upper(n int, r, se float64) Effective {
	if math.IsNaN(r) || math.IsNaN(se) || !(r > se) || n < 3 {
		return Independent(n)
	}
	return AR1(n, r+(1+4*r)/float64(n)+se)
}

// PredictionBoundEff is PredictionBound under an effective model:
// exp(m − t_{df,1−α}·s·scale·sqrt(1 + 1/n_eff)).
func PredictionBoundEff(m, s float64, e Effective, alpha float64) float64 {
	return math.Exp(m - TQuantile(1-alpha, e.DF)*s*e.SDScale*math.Sqrt(1+1/e.N))
}

// FPRPredictiveEff is FPRPredictive under an effective model:
// T_{df}( (ln F − m) / (s·scale·sqrt(1 + 1/n_eff)) ).
func FPRPredictiveEff(m, s float64, e Effective, floor float64) float64 {
	return TCDF((math.Log(floor)-m)/(s*e.SDScale*math.Sqrt(1+1/e.N)), e.DF)
}

// DetectPredictiveEff is DetectPredictive under an effective model.
func DetectPredictiveEff(m, s float64, e Effective, floor, pi float64) float64 {
	return math.Exp(math.Log(floor) - m - s*e.SDScale*math.Sqrt(1+1/e.N)*TQuantile(pi, e.DF))
}

// FPRPredictiveMean is the predictive rate at which the mean of the log
// scores of k new runs falls below ln F: the new mean has variance σ²/k,
// so T_{df}( (ln F − m) / (s·scale·sqrt(1/k + 1/n_eff)) ) (docs/STATS.md 2.13).
func FPRPredictiveMean(m, s float64, e Effective, floor float64, k int) float64 {
	return TCDF((math.Log(floor)-m)/(s*e.SDScale*math.Sqrt(1/float64(k)+1/e.N)), e.DF)
}

// DetectPredictiveMean is the mildest uniform regression that the mean of
// k runs takes below F with predictive probability π.
func DetectPredictiveMean(m, s float64, e Effective, floor, pi float64, k int) float64 {
	return math.Exp(math.Log(floor) - m - s*e.SDScale*math.Sqrt(1/float64(k)+1/e.N)*TQuantile(pi, e.DF))
}
