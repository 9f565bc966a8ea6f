// Wave spectra (Pierson-Moskowitz, JONSWAP) and random seas sampled from
// them. Formulas and sources: docs/waves.md.

#include <keel/waves.hpp>

#include "math/det_math.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <numbers>
#include <numeric>
#include <random>
#include <stdexcept>
#include <vector>

namespace keel::KEEL_ABI {

namespace {

namespace det = detail::det;
constexpr double kPi = std::numbers::pi;

// Pierson & Moskowitz (1964), as given by Stewart (2008), eqs. 16.29-16.33.
constexpr double kPmAlpha = 8.1e-3;
constexpr double kPmBeta = 0.74;
constexpr double kU195PerU10 = 1.026;  // neutral boundary layer, drag coefficient 1.3e-3

// The spectrum is sampled from 0.4 omega_p up: below it a Pierson-Moskowitz
// spectrum holds exp(-5/4 / 0.4^4) = 6e-22 of its energy.
constexpr double kMinFrequencyRatio = 0.4;
// Cells of the tabulated distributions: JONSWAP's peak (width 0.07 omega_p)
// spans about 100 frequency cells, the narrowest spreading about 30 angle cells.
constexpr std::size_t kFrequencyCells = 4096;
constexpr std::size_t kDirectionCells = 2048;
// Up to gamma = 7 the factor 1 - 0.287 ln(gamma) keeps the spectrum's Hs
// within 1% of the nominal one (tested); beyond, it drifts (-3.5% at 10,
// -11% at 15). The mean JONSWAP sea has 3.3.
constexpr double kMaxPeakEnhancement = 7;

/// A uniform double in [0, 1) from 53 bits of two mt19937 draws. The standard
/// fixes mt19937's output but not uniform_real_distribution's algorithm, so
/// this keeps a seed's sea identical across standard libraries.
[[nodiscard]] double uniform01(std::mt19937& rng) {
  const std::uint64_t high = rng() >> 5;  // 27 bits
  const std::uint64_t low = rng() >> 6;   // 26 bits
  return static_cast<double>((high << 26) | low) * 0x1p-53;
}

/// Fisher-Yates shuffle of 0..n-1 drawing from uniform01 (std::shuffle's
/// use of the generator is not fixed by the standard either).
[[nodiscard]] std::vector<std::size_t> permutation(std::size_t n, std::mt19937& rng) {
  std::vector<std::size_t> p(n);
  std::iota(p.begin(), p.end(), std::size_t{0});
  for (std::size_t i = n; i > 1; --i) {
    const auto j = std::min(static_cast<std::size_t>(uniform01(rng) * static_cast<double>(i)), i - 1);
    std::swap(p[i - 1], p[j]);
  }
  return p;
}

/// A probability distribution on [lo, hi] given by a density on a uniform
/// grid: its integral (trapezoid rule) and its quantiles (inverse of the
/// piecewise-linear cumulative integral).
class TabulatedDistribution {
 public:
  template <class Density>
  TabulatedDistribution(double lo, double hi, std::size_t cells, Density density)
      : lo_(lo), step_((hi - lo) / static_cast<double>(cells)), cumulative_(cells + 1, 0.0) {
    double previous = density(lo);
    for (std::size_t i = 1; i <= cells; ++i) {
      const double next = density(lo + step_ * static_cast<double>(i));
      cumulative_[i] = cumulative_[i - 1] + step_ * (previous + next) / 2;
      previous = next;
    }
  }

  /// Integral of the density over [lo, hi].
  [[nodiscard]] double total() const { return cumulative_.back(); }

  /// The x with cumulative(x) = p total, p in [0, 1).
  [[nodiscard]] double quantile(double p) const {
    const double target = p * total();
    // First node whose cumulative exceeds the target: cell i - 1 holds it and
    // rises (a flat cell cannot hold a strictly exceeded value at its end).
    const auto it = std::upper_bound(cumulative_.begin(), cumulative_.end(), target);
    if (it == cumulative_.end()) return lo_ + step_ * static_cast<double>(cumulative_.size() - 1);
    const auto i = static_cast<std::size_t>(it - cumulative_.begin());
    if (i == 0) return lo_;
    const double within = (target - cumulative_[i - 1]) / (cumulative_[i] - cumulative_[i - 1]);
    return lo_ + step_ * (static_cast<double>(i - 1) + within);
  }

 private:
  double lo_;
  double step_;
  std::vector<double> cumulative_;
};

void checkSpectrum(const WaveSpectrum& s) {
  const double hs = s.significantWaveHeight_m, tp = s.peakPeriod_s, gamma = s.peakEnhancement;
  if (!(hs > 0 && std::isfinite(hs) && tp > 0 && std::isfinite(tp))) {
    throw std::invalid_argument("keel::WaveSpectrum: Hs and Tp must be positive and finite");
  }
  if (!(gamma >= 1 && gamma <= kMaxPeakEnhancement)) {
    throw std::invalid_argument("keel::WaveSpectrum: peak enhancement gamma must lie in [1, 7]");
  }
}

void checkSettings(const SeaStateSettings& s) {
  const bool ok = std::isfinite(s.meanDirection_rad) && s.spreadingExponent >= 0 && s.componentCount >= 1 &&
                  s.maxFrequencyRatio > 1 && std::isfinite(s.maxFrequencyRatio) && s.gravity_mps2 > 0 &&
                  std::isfinite(s.gravity_mps2);
  if (!ok) {
    throw std::invalid_argument(
        "keel::sampleSeaState: needs a finite direction, spreading exponent >= 0, at least one "
        "component, a finite max frequency ratio > 1 and a positive finite gravity");
  }
}

}  // namespace

WaveSpectrum WaveSpectrum::piersonMoskowitz(double hs_m, double tp_s) { return {hs_m, tp_s, 1}; }

WaveSpectrum WaveSpectrum::jonswap(double hs_m, double tp_s, double gamma) { return {hs_m, tp_s, gamma}; }

WaveSpectrum WaveSpectrum::fullyDevelopedSea(double windSpeed10m_mps, double gravity_mps2) {
  if (!(windSpeed10m_mps > 0 && std::isfinite(windSpeed10m_mps) && gravity_mps2 > 0 && std::isfinite(gravity_mps2))) {
    throw std::invalid_argument(
        "keel::WaveSpectrum::fullyDevelopedSea: wind speed and gravity must be positive and "
        "finite");
  }
  const double u195_mps = kU195PerU10 * windSpeed10m_mps;
  // m0 = integral of alpha g^2 w^-5 exp(-beta (g / (U w))^4) = alpha U^4 / (4 beta g^2).
  const double hs_m = 2 * std::sqrt(kPmAlpha / kPmBeta) * u195_mps * u195_mps / gravity_mps2;
  // dS/dw = 0 at w^4 = 4 beta / 5 (g / U)^4.
  const double peak_radps = std::sqrt(std::sqrt(4 * kPmBeta / 5)) * gravity_mps2 / u195_mps;
  return piersonMoskowitz(hs_m, 2 * kPi / peak_radps);
}

double WaveSpectrum::peakAngularFrequency_radps() const { return 2 * kPi / peakPeriod_s; }

double WaveSpectrum::density_m2sprad(double angularFrequency_radps) const {
  const double w = angularFrequency_radps;
  if (!(w > 0)) return 0;
  const double wp = peakAngularFrequency_radps();
  const double r = wp / w, r2 = r * r, r4 = r2 * r2;
  // Below ~0.2 wp the exponential underflows; stop before w^-5 overflows.
  const double exponent = 1.25 * r4;
  if (exponent > 700) return 0;
  const double hs = significantWaveHeight_m;
  const double pm = 5.0 / 16.0 * hs * hs * r4 / w * det::exp(-exponent);
  const double sigma = w <= wp ? 0.07 : 0.09;
  const double offset = (w - wp) / (sigma * wp);
  const double logGamma = det::log(peakEnhancement);
  return (1 - 0.287 * logGamma) * pm * det::exp(logGamma * det::exp(-offset * offset / 2));
}

std::vector<WaveComponent> sampleSeaState(const WaveSpectrum& spectrum, const SeaStateSettings& settings) {
  checkSpectrum(spectrum);
  checkSettings(settings);
  const std::size_t n = settings.componentCount;
  const double wp = spectrum.peakAngularFrequency_radps();
  const TabulatedDistribution frequency(kMinFrequencyRatio * wp, settings.maxFrequencyRatio * wp, kFrequencyCells,
                                        [&](double w) { return spectrum.density_m2sprad(w); });
  const bool longCrested = std::isinf(settings.spreadingExponent);
  // DNV-RP-C205's cos^n spreading; its normalising Gamma factor cancels in
  // the quantiles. (A long-crested sea does not use it; a flat density keeps
  // the table well defined.)
  const TabulatedDistribution spreading(-kPi / 2, kPi / 2, kDirectionCells, [&](double a) {
    return longCrested ? 1.0 : det::pow(std::max(det::cos(a), 0.0), settings.spreadingExponent);
  });
  // Each component carries m0 / n of the band's variance m0 = sum a^2 / 2.
  const double amplitude_m = std::sqrt(2 * frequency.total() / static_cast<double>(n));

  std::mt19937 rng(settings.seed);
  const std::vector<std::size_t> sector = permutation(n, rng);
  std::vector<WaveComponent> out(n);
  const auto count = static_cast<double>(n);
  for (std::size_t i = 0; i < n; ++i) {
    const double w = frequency.quantile((static_cast<double>(i) + uniform01(rng)) / count);
    // Drawn for long-crested seas too, so that spreading changes only the
    // directions of a seed's waves.
    const double spread = spreading.quantile((static_cast<double>(sector[i]) + uniform01(rng)) / count);
    const double direction = settings.meanDirection_rad + (longCrested ? 0.0 : spread);
    const det::SinCos d = det::sinCos(direction);
    out[i] = {amplitude_m, deepWaterWavenumber_radpm(w, settings.gravity_mps2),
              w,           d.cosine,
              d.sine,      2 * kPi * uniform01(rng)};
  }
  return out;
}

}  // namespace keel::KEEL_ABI
