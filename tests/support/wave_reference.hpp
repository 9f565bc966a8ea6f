#pragma once
// THE WAVE TESTS' ORACLE: independent re-implementations of the surfaces'
// forms (an Airy sum of cosines, a Gerstner particle), the test sea and its
// sums, and the error bounds the wave tests share (rounding of btScalar
// inputs and outputs, double rounding inside), for waves_sine_sum_test.cpp,
// waves_gerstner_test.cpp, waves_batch_test.cpp and waves_spectrum_test.cpp.

#include <keel/waves.hpp>

#include <cmath>
#include <cstdio>
#include <limits>
#include <numbers>
#include <string>
#include <type_traits>
#include <vector>

namespace keel::wave_reference {

inline constexpr double kPi = std::numbers::pi;
inline constexpr double kG = keel::kStandardGravity_mps2;
inline constexpr bool kFloat = std::is_same_v<btScalar, float>;
/// Unit roundoff of btScalar (inputs, outputs) and of double (inside).
inline constexpr double kRoundS = std::numeric_limits<btScalar>::epsilon() / 2;
inline constexpr double kRoundD = std::numeric_limits<double>::epsilon() / 2;
/// The accuracy Gerstner heights must reach [m] (docs/waves.md, "Gerstner
/// (trochoidal) waves": against the parametric surface).
inline constexpr double kGerstnerHeightRequirement_m = 1e-4;
/// GerstnerSurface's Newton tolerance on the horizontal residual [m].
inline constexpr double kNewtonResidual_m = 1e-9;

/// Three crossing waves of different lengths.
inline std::vector<WaveComponent> testWaves() {
  return {keel::deepWaterWave(1.0, 40.0, 0.3, 0.1), keel::deepWaterWave(0.5, 17.0, -0.9, 2.0),
          keel::deepWaterWave(0.25, 8.0, 2.2, -1.0)};
}

/// Mean level and a current of dyadic values, so that x + current h is exact
/// in float for the dyadic x and h of the finite differences.
inline constexpr double kMeanLevel_m = 1.5;
inline constexpr keel::UniformCurrent kCurrent{0.5, -0.25};

/// Sums over the components: of a, k a, a omega, a omega k, a omega^3.
struct WaveSums {
  double a = 0, ka = 0, aw = 0, awk = 0, aw3 = 0;
};
inline WaveSums sums(const std::vector<WaveComponent>& waves) {
  WaveSums s;
  for (const WaveComponent& c : waves) {
    const double w = c.angularFrequency_radps;
    s.a += c.amplitude_m;
    s.ka += c.wavenumber_radpm * c.amplitude_m;
    s.aw += c.amplitude_m * w;
    s.awk += c.amplitude_m * w * c.wavenumber_radpm;
    s.aw3 += c.amplitude_m * w * w * w;
  }
  return s;
}

/// Bound on the error of a height a surface returns: rounding to btScalar,
/// plus double rounding of phases up to `phaseMax_rad` and of the sum.
inline double heightRoundoff_m(const std::vector<WaveComponent>& waves, double etaMax_m, double phaseMax_rad) {
  const double n = static_cast<double>(waves.size());
  return kRoundS * etaMax_m + kRoundD * sums(waves).a * (phaseMax_rad + 2 + n);
}

/// Independent Airy surface: mean + sum a cos(k d.(x - U t) - omega t + phi).
inline double airyHeight(const std::vector<WaveComponent>& waves, double x, double y, double t) {
  double eta = kMeanLevel_m;
  for (const WaveComponent& c : waves) {
    const double theta = c.wavenumber_radpm * (c.directionEast * (x - kCurrent.east_mps * t) +
                                               c.directionNorth * (y - kCurrent.north_mps * t)) -
                         c.angularFrequency_radps * t + c.phase_rad;
    eta += c.amplitude_m * std::cos(theta);
  }
  return eta;
}

/// Independent Gerstner particle: rest position (x0, y0) in the drifting frame.
struct Particle {
  double x, y, z;
};
inline Particle gerstnerParticle(const std::vector<WaveComponent>& waves, double q, double meanLevel_m,
                                 keel::UniformCurrent current, double x0, double y0, double t) {
  Particle p{x0 + current.east_mps * t, y0 + current.north_mps * t, meanLevel_m};
  for (const WaveComponent& c : waves) {
    const double theta = c.wavenumber_radpm * (c.directionEast * x0 + c.directionNorth * y0) -
                         c.angularFrequency_radps * t + c.phase_rad;
    p.x -= c.directionEast * q * c.amplitude_m * std::sin(theta);
    p.y -= c.directionNorth * q * c.amplitude_m * std::sin(theta);
    p.z += c.amplitude_m * std::cos(theta);
  }
  return p;
}

/// |x - btScalar(x)|: how far a query point moves when it becomes a btScalar.
inline double inputRounding_m(double x) { return std::abs(x - static_cast<double>(static_cast<btScalar>(x))); }

/// For RecordProperty: 3 significant digits, any magnitude.
inline std::string scientific(double x) {
  char text[32];
  std::snprintf(text, sizeof text, "%.3g", x);
  return text;
}

}  // namespace keel::wave_reference
