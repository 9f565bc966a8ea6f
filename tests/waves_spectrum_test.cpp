// Wave spectra (Pierson-Moskowitz, JONSWAP) against their published forms
// and their own moments, and seas sampled from them (sampleSeaState): Hs,
// frequencies, directions, seeds, bad settings, and a storm as Gerstner
// waves against the parametric surface (wave_reference.hpp).
//
// Tolerances are error bounds worked out from the arithmetic (rounding of
// btScalar inputs and outputs, double rounding inside, finite-difference
// truncation), not numbers tuned until the tests pass.

#include "wave_reference.hpp"

#include <keel/waves.hpp>

#include "math/det_math.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <stdexcept>
#include <vector>

namespace {

using namespace keel::wave_reference;  // the wave oracle and its bounds
using keel::WaveComponent;

/// Composite Simpson rule of f over [a, b] with `intervals` (even) intervals.
template <class F>
double simpson(F f, double a, double b, int intervals) {
  const double h = (b - a) / intervals;
  double s = f(a) + f(b);
  for (int i = 1; i < intervals; ++i) s += (i % 2 ? 4 : 2) * f(a + i * h);
  return s * h / 3;
}

// --- Spectra ----------------------------------------------------------------------

/// Zeroth and first spectral moments over [lo, hi] (Simpson).
double moment(const keel::WaveSpectrum& s, int order, double lo, double hi) {
  return simpson([&](double w) { return std::pow(w, order) * s.density_m2sprad(w); }, lo, hi, 200000);
}

TEST(WaveSpectrum, FullyDevelopedSeaIsPiersonMoskowitz) {
  // Stewart (2008) eqs. 16.29-16.33: U19.5 = 1.026 U10, wp = 0.877 g/U19.5,
  // Hs = 0.21 U19.5^2 / g (both constants rounded there).
  const double u10 = 15, u195 = 1.026 * u10;
  const keel::WaveSpectrum s = keel::WaveSpectrum::fullyDevelopedSea(u10);
  EXPECT_EQ(s.peakEnhancement, 1);
  EXPECT_NEAR(s.significantWaveHeight_m, 0.21 * u195 * u195 / kG, 0.005 * s.significantWaveHeight_m);
  EXPECT_NEAR(s.peakAngularFrequency_radps(), 0.877 * kG / u195, 0.0005 * s.peakAngularFrequency_radps());
  // Its Hs is the one of its own density: m0 = (Hs / 4)^2. Beyond [0.2, 60] wp
  // the spectrum holds less than 1e-6 of its energy.
  const double wp = s.peakAngularFrequency_radps();
  const double m0 = moment(s, 0, 0.2 * wp, 60 * wp);
  EXPECT_NEAR(4 * std::sqrt(m0), s.significantWaveHeight_m, 1e-6 * s.significantWaveHeight_m);
  // Pierson and Moskowitz's own form: alpha g^2 w^-5 exp(-beta (g / (U19.5 w))^4).
  for (double w : {0.5 * wp, wp, 2 * wp}) {
    const double pm = 8.1e-3 * kG * kG / std::pow(w, 5) * std::exp(-0.74 * std::pow(kG / (u195 * w), 4));
    EXPECT_NEAR(s.density_m2sprad(w), pm, 1e-12 * pm);
  }
  EXPECT_THROW((void)keel::WaveSpectrum::fullyDevelopedSea(0), std::invalid_argument);
}

TEST(WaveSpectrum, JonswapPeaksAtTpAndKeepsHs) {
  for (double gamma : {1.0, 2.0, 3.3, 5.0, 7.0}) {
    const keel::WaveSpectrum s = keel::WaveSpectrum::jonswap(8, 12, gamma);
    const double wp = s.peakAngularFrequency_radps();
    // 1 - 0.287 ln(gamma) holds Hs within 1% over gamma in [1, 7] (DNV-RP-C205 gives no bound;
    // measured).
    const double hs = 4 * std::sqrt(moment(s, 0, 0.2 * wp, 60 * wp));
    EXPECT_NEAR(hs, 8, 0.08) << "gamma " << gamma;
    EXPECT_GT(s.density_m2sprad(wp), s.density_m2sprad(wp * 0.999));
    EXPECT_GT(s.density_m2sprad(wp), s.density_m2sprad(wp * 1.001));
  }
  EXPECT_EQ(keel::WaveSpectrum::jonswap(8, 12, 1).density_m2sprad(0.6),
            keel::WaveSpectrum::piersonMoskowitz(8, 12).density_m2sprad(0.6));
  EXPECT_EQ(keel::WaveSpectrum::jonswap(8, 12).density_m2sprad(0), 0);
  EXPECT_EQ(keel::WaveSpectrum::jonswap(8, 12).density_m2sprad(1e-9), 0);
}

// --- Seas sampled from a spectrum ----------------------------------------------------------------

TEST(SeaState, SampledHsMatchesTheSpectrum) {
  // Pierson-Moskowitz from wind: the components hold exactly the energy
  // between 0.4 wp and 3 wp, exp(-5/4 / 3^4) - exp(-5/4 / 0.4^4) of the whole
  // (1.5% less: Hs 0.8% lower).
  const keel::WaveSpectrum pm = keel::WaveSpectrum::fullyDevelopedSea(15);
  const auto waves = keel::sampleSeaState(pm, {.meanDirection_rad = 1, .componentCount = 48, .seed = 7});
  ASSERT_EQ(waves.size(), 48u);
  const double band = std::exp(-1.25 / 81) - std::exp(-1.25 / std::pow(0.4, 4));
  EXPECT_NEAR(keel::significantWaveHeight_m(waves), pm.significantWaveHeight_m * std::sqrt(band),
              1e-6 * pm.significantWaveHeight_m);
  EXPECT_NEAR(keel::significantWaveHeight_m(waves), pm.significantWaveHeight_m, 0.01 * pm.significantWaveHeight_m);
  // A JONSWAP storm of Hs 8 m.
  const auto storm = keel::sampleSeaState(keel::WaveSpectrum::jonswap(8, 12), {.componentCount = 64});
  EXPECT_NEAR(keel::significantWaveHeight_m(storm), 8, 0.03 * 8);
}

TEST(SeaState, FrequenciesFollowTheSpectrum) {
  // Component i's frequency lies in the i-th of N equal-energy bands, so the
  // mean frequency differs from the band's m1 / m0 by at most the bands'
  // total width / N. Deep-water dispersion gives each k.
  const keel::WaveSpectrum s = keel::WaveSpectrum::jonswap(3, 8);
  const std::size_t n = 64;
  const auto waves = keel::sampleSeaState(s, {.componentCount = n, .seed = 3});
  const double wp = s.peakAngularFrequency_radps(), lo = 0.4 * wp, hi = 3 * wp;
  double mean = 0;
  for (const WaveComponent& c : waves) {
    mean += c.angularFrequency_radps / n;
    EXPECT_GE(c.angularFrequency_radps, lo);
    EXPECT_LE(c.angularFrequency_radps, hi);
    EXPECT_DOUBLE_EQ(c.wavenumber_radpm, c.angularFrequency_radps * c.angularFrequency_radps / kG);
    EXPECT_EQ(c.amplitude_m, waves[0].amplitude_m);
  }
  EXPECT_NEAR(mean, moment(s, 1, lo, hi) / moment(s, 0, lo, hi), (hi - lo) / n);
}

TEST(SeaState, DirectionsFollowTheSpreading) {
  // D ~ cos^2(theta - mean): E[cos] = (4/3) / (pi/2) = 8 / (3 pi), E[sin] = 0.
  // Each direction lies in its own one of N equal-probability sectors, so a
  // mean of f differs from E[f] by at most (total variation of f) / N = 2 / N.
  const std::size_t n = 64;
  const double mean = 2.5;
  const auto waves = keel::sampleSeaState(keel::WaveSpectrum::jonswap(3, 8),
                                          {.meanDirection_rad = mean, .componentCount = n, .seed = 11});
  double meanCos = 0, meanSin = 0;
  for (const WaveComponent& c : waves) {
    EXPECT_NEAR(std::hypot(c.directionEast, c.directionNorth), 1, 1e-15);
    const double relative = std::atan2(c.directionNorth, c.directionEast) - mean;
    meanCos += std::cos(relative) / n;
    meanSin += std::sin(relative) / n;
    EXPECT_GE(std::cos(relative), -1e-12);  // within +-90 degrees of the wind
  }
  EXPECT_NEAR(meanCos, 8 / (3 * kPi), 2.0 / n);
  EXPECT_NEAR(meanSin, 0, 2.0 / n);
  // Long-crested: every wave travels with the wind.
  const auto crested = keel::sampleSeaState(
      keel::WaveSpectrum::jonswap(3, 8),
      {.meanDirection_rad = mean, .spreadingExponent = INFINITY, .componentCount = n, .seed = 11});
  // Exactly the mean direction: its cos and sin as Keel computes them
  // (math/det_math.hpp, the same bits on every machine).
  for (std::size_t i = 0; i < n; ++i) {
    EXPECT_EQ(crested[i].directionEast, keel::detail::det::cos(mean));
    EXPECT_EQ(crested[i].directionNorth, keel::detail::det::sin(mean));
    EXPECT_EQ(crested[i].angularFrequency_radps, waves[i].angularFrequency_radps);
  }
}

TEST(SeaState, SeedDecidesTheSea) {
  const keel::WaveSpectrum s = keel::WaveSpectrum::fullyDevelopedSea(10);
  const auto a = keel::sampleSeaState(s, {.seed = 42});
  const auto b = keel::sampleSeaState(s, {.seed = 42});
  const auto c = keel::sampleSeaState(s, {.seed = 43});
  ASSERT_EQ(a.size(), 64u);
  std::size_t samePhase = 0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    EXPECT_EQ(a[i].angularFrequency_radps, b[i].angularFrequency_radps);
    EXPECT_EQ(a[i].directionEast, b[i].directionEast);
    EXPECT_EQ(a[i].phase_rad, b[i].phase_rad);
    samePhase += a[i].phase_rad == c[i].phase_rad;
  }
  EXPECT_EQ(samePhase, 0u);
  EXPECT_NE(a[0].angularFrequency_radps, c[0].angularFrequency_radps);
  // mt19937 is fixed by the standard and Keel turns its output into numbers
  // with its own integer code: a seed's phases (2 pi times a dyadic number)
  // are the same bits with every compiler and library.
  EXPECT_EQ(a[0].phase_rad, 3.4098600559638177);
  EXPECT_EQ(a[63].phase_rad, 1.0649543356515678);
}

TEST(SeaState, RejectsBadSettings) {
  const keel::WaveSpectrum s = keel::WaveSpectrum::jonswap(2, 7);
  EXPECT_THROW((void)keel::sampleSeaState(s, {.componentCount = 0}), std::invalid_argument);
  EXPECT_THROW((void)keel::sampleSeaState(s, {.spreadingExponent = -1}), std::invalid_argument);
  EXPECT_THROW((void)keel::sampleSeaState(s, {.maxFrequencyRatio = 1}), std::invalid_argument);
  EXPECT_THROW((void)keel::sampleSeaState(keel::WaveSpectrum::jonswap(2, 7, 0.5)), std::invalid_argument);
  EXPECT_THROW((void)keel::sampleSeaState(keel::WaveSpectrum::jonswap(0, 7)), std::invalid_argument);
}

TEST(SeaState, StormOfHs8FloatsAsGerstnerWaves) {
  // The storm sea (Hs 8 m) as Gerstner waves at 90% of the fold limit:
  // heights still match the parametric surface, well within 1e-4 m.
  const auto waves = keel::sampleSeaState(keel::WaveSpectrum::jonswap(8, 12), {.componentCount = 64, .seed = 5});
  const double q = std::min(1.0, 0.9 * keel::gerstnerSteepnessLimit(waves));
  const keel::GerstnerSurface water(waves, {.steepness = q});
  double worst_m = 0;
  for (double t : {0.0, 30.5})
    for (double x0 = -300; x0 <= 300; x0 += 12.5)
      for (double y0 = -300; y0 <= 300; y0 += 50) {
        const Particle p = gerstnerParticle(waves, q, 0, {}, x0, y0, t);
        const double h = water.height(btScalar(p.x), btScalar(p.y), btScalar(t));
        EXPECT_NEAR(h, p.z, kGerstnerHeightRequirement_m) << x0 << ", " << y0;
        worst_m = std::max(worst_m, std::abs(h - p.z));
      }
  RecordProperty("steepness", scientific(q));
  RecordProperty("worst_height_error_m", scientific(worst_m));
}

}  // namespace
