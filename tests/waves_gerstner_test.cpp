// GerstnerSurface (waves.hpp) against an independent Gerstner particle
// (wave_reference.hpp), the trochoid's crest, trough and mean level, and the
// particle's own motion; the steepness that would fold the surface refused.
//
// Tolerances are error bounds worked out from the arithmetic (rounding of
// btScalar inputs and outputs, double rounding inside, finite-difference
// truncation), not numbers tuned until the tests pass.

#include "wave_reference.hpp"

#include <keel/waves.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>
#include <stdexcept>
#include <vector>

namespace {

using namespace keel::wave_reference;  // the wave oracle and its bounds
using keel::WaveComponent;

/// Bound on |height(fl(X)) - Z| for the particle at (X, Y, Z): the input's
/// rounding and Newton's residual, times the surface's largest slope
/// sum k a / (1 - Q sum k a); plus the height's own roundoff with phases up
/// to `phaseMax_rad`.
double gerstnerHeightBound_m(const std::vector<WaveComponent>& waves, double q, const Particle& p,
                             double phaseMax_rad) {
  const double ka = sums(waves).ka;
  const double slope = ka / (1 - q * ka);
  const double moved = std::hypot(inputRounding_m(p.x), inputRounding_m(p.y));
  return slope * (moved + 2 * kNewtonResidual_m) + heightRoundoff_m(waves, std::abs(p.z), phaseMax_rad);
}

TEST(WaveGerstner, HeightMatchesTheParametricSurface) {
  const auto waves = testWaves();
  const double q = 1;
  const keel::GerstnerSurface water(waves, {kMeanLevel_m, kCurrent, q});
  double worst_m = 0;
  for (double t : {0.0, 2.75, 61.5})
    for (double x0 = -30; x0 <= 30; x0 += 1.25)
      for (double y0 = -12; y0 <= 12; y0 += 3) {
        const Particle p = gerstnerParticle(waves, q, kMeanLevel_m, kCurrent, x0, y0, t);
        const double h = water.height(btScalar(p.x), btScalar(p.y), btScalar(t));
        // Phases: k |x0| + omega t + |phi| <= 0.79 * 42 + 2.8 * 61.5 + 2 < 210 rad.
        const double bound = gerstnerHeightBound_m(waves, q, p, 210);
        ASSERT_LE(bound, kGerstnerHeightRequirement_m);
        EXPECT_NEAR(h, p.z, bound) << "rest point " << x0 << ", " << y0 << ", t " << t;
        worst_m = std::max(worst_m, std::abs(h - p.z));
      }
  RecordProperty("worst_height_error_m", scientific(worst_m));
}

TEST(WaveGerstner, TrochoidHasItsCrestTroughAndMeanLevel) {
  // One wave with Q = 1 is Gerstner's trochoid: crest a at x = 0, trough -a
  // at half a wavelength, and the Eulerian mean height over a wavelength is
  // -k a^2 / 2 (x = x0 - a sin(k x0) gives dx = (1 - k a cos) dx0, so the
  // mean of a cos over x is -k a^2 / 2). The trapezoid rule on a periodic
  // analytic function is exact to roundoff.
  const double a = 1, wavelength = 20, k = 2 * kPi / wavelength;
  const std::vector<WaveComponent> waves = {keel::deepWaterWave(a, wavelength, 0)};
  const keel::GerstnerSurface water(waves);
  const double slope = k * a / (1 - k * a);
  const double bound = slope * (kRoundS * wavelength + kNewtonResidual_m) + kRoundS * a + kRoundD * 100;
  EXPECT_NEAR(water.height(0, 3, 0), a, bound);
  EXPECT_NEAR(water.height(btScalar(wavelength / 2), 3, 0), -a, bound);
  const int n = 256;
  std::vector<btScalar> u(n), v(n, 0), h(n);
  for (int i = 0; i < n; ++i) u[i] = btScalar(wavelength * i / n);
  water.heights(u.data(), v.data(), n, 0, h.data());
  double mean = 0;
  for (btScalar x : h) mean += x / n;
  EXPECT_NEAR(mean, -k * a * a / 2, bound);
}

TEST(WaveGerstner, SurfaceVelocityIsTheParticleVelocity) {
  // The velocity at the surface point occupied by a particle is the time
  // derivative of the particle's position (central difference in double).
  // Bound: the input's rounding moves the solved rest point by at most
  // rounding / (1 - Q sum k a), which changes the velocity by sum a omega k
  // per metre; plus the height's rounding through the depth decay, plus the
  // difference's truncation h^2 / 6 sum a omega^3.
  const auto waves = testWaves();
  const WaveSums s = sums(waves);
  const double q = 0.875;
  const keel::GerstnerSurface water(waves, {kMeanLevel_m, kCurrent, q});
  const double h = 1e-4;
  for (double t : {0.5, 7.25})
    for (double x0 = -25; x0 <= 25; x0 += 2.5)
      for (double y0 = -10; y0 <= 10; y0 += 5) {
        auto at = [&](double dt) { return gerstnerParticle(waves, q, kMeanLevel_m, kCurrent, x0, y0, t + dt); };
        const Particle p = at(0), plus = at(h), minus = at(-h);
        const keel::WaterVelocity v = water.velocity(btScalar(p.x), btScalar(p.y), btScalar(p.z), btScalar(t));
        const double moved = inputRounding_m(p.x) + inputRounding_m(p.y);
        const double restError = (moved + kNewtonResidual_m) / (1 - q * s.ka);
        const double depthError = inputRounding_m(p.z) + s.ka * restError + kRoundS * std::abs(p.z);
        const double tol = s.awk * (restError + depthError) + h * h / 6 * s.aw3 + kRoundD * 100 / h +
                           kRoundS * (s.aw + 1);
        EXPECT_NEAR(v.east_mps, (plus.x - minus.x) / (2 * h), tol);
        EXPECT_NEAR(v.north_mps, (plus.y - minus.y) / (2 * h), tol);
        EXPECT_NEAR(v.up_mps, (plus.z - minus.z) / (2 * h), tol);
      }
}

TEST(WaveGerstner, OrbitalSpeedDecaysWithDepth) {
  // Q = 1: circular orbits of speed a omega e^{k z}.
  const std::vector<WaveComponent> waves = {keel::deepWaterWave(0.75, 30, 0.6, 0.4)};
  const keel::GerstnerSurface water(waves);
  const double aw = waves[0].amplitude_m * waves[0].angularFrequency_radps;
  const btScalar x = 3, y = -4, t = 2;
  const btScalar eta = water.height(x, y, t);
  for (double depth : {0.0, 1.0, 5.0, 15.0, 300.0}) {
    const keel::WaterVelocity v = water.velocity(x, y, btScalar(eta - depth), t);
    const double speed = std::hypot(double(v.east_mps), double(v.north_mps), double(v.up_mps));
    EXPECT_NEAR(speed, aw * std::exp(-waves[0].wavenumber_radpm * depth), kRoundS * 4 * (aw + 1));
  }
}

TEST(WaveGerstner, ZeroSteepnessIsTheSineSum) {
  const auto waves = testWaves();
  const keel::GerstnerSurface gerstner(waves, {kMeanLevel_m, kCurrent, 0});
  const keel::SineSumSurface sines(waves, {kMeanLevel_m, kCurrent});
  const double tol = 2 * heightRoundoff_m(waves, kMeanLevel_m + sums(waves).a, 40);
  for (double x = -20; x <= 20; x += 2.5) {
    const btScalar u = btScalar(x), v = 1.5, t = 3;
    EXPECT_NEAR(gerstner.height(u, v, t), sines.height(u, v, t), tol);
    const btScalar w = sines.height(u, v, t) - btScalar(0.5);
    const keel::WaterVelocity a = gerstner.velocity(u, v, w, t), b = sines.velocity(u, v, w, t);
    EXPECT_NEAR(a.east_mps - kCurrent.east_mps, 0, kRoundS * 2);  // no horizontal orbit at Q = 0
    EXPECT_NEAR(a.up_mps, b.up_mps, 4 * kRoundS * (sums(waves).aw + 1));
  }
}

TEST(WaveGerstner, BatchesMatchSinglePoints) {
  // Batches run Newton in vector lanes with Highway's sin and cos, single
  // points with libm's: both stop within the Newton tolerance of the same
  // root.
  const auto waves = testWaves();
  const WaveSums s = sums(waves);
  const keel::GerstnerSurface water(waves, {kMeanLevel_m, kCurrent, 1});
  std::vector<btScalar> u, v, w;
  for (int i = 0; i < 100; ++i) {
    u.push_back(btScalar(-30 + 0.6 * i));
    v.push_back(btScalar(5 - 0.2 * i));
    w.push_back(btScalar(0.5 - 0.03 * i));
  }
  std::vector<btScalar> h(u.size());
  std::vector<keel::WaterVelocity> vel(u.size());
  const btScalar t = 4.5;
  water.heights(u.data(), v.data(), u.size(), t, h.data());
  water.velocities(u.data(), v.data(), w.data(), u.size(), t, vel.data());
  const double rest = 2 * kNewtonResidual_m / (1 - s.ka);
  const double htol = s.ka * rest + 2 * kRoundS * (kMeanLevel_m + s.a) + kRoundD * 1e3;
  const double vtol = s.awk * (rest + htol) + 2 * kRoundS * (s.aw + 1);
  for (std::size_t i = 0; i < u.size(); ++i) {
    EXPECT_NEAR(h[i], water.height(u[i], v[i], t), htol);
    const keel::WaterVelocity one = water.velocity(u[i], v[i], w[i], t);
    EXPECT_NEAR(vel[i].east_mps, one.east_mps, vtol);
    EXPECT_NEAR(vel[i].north_mps, one.north_mps, vtol);
    EXPECT_NEAR(vel[i].up_mps, one.up_mps, vtol);
  }
}

TEST(WaveGerstner, RefusesASurfaceThatFolds) {
  // sum k a = 1.25: the steepness limit is 0.8.
  const double k = 0.5;
  const std::vector<WaveComponent> waves = {{1.5, k, std::sqrt(kG * k), 1, 0, 0}, {1.0, k, std::sqrt(kG * k), 0, 1, 0}};
  EXPECT_DOUBLE_EQ(keel::gerstnerSteepnessLimit(waves), 0.8);
  EXPECT_THROW(keel::GerstnerSurface(waves, {.steepness = 0.8}), std::invalid_argument);
  EXPECT_NO_THROW(keel::GerstnerSurface(waves, {.steepness = 0.79}));
  EXPECT_THROW(keel::GerstnerSurface({}, {.steepness = 1.5}), std::invalid_argument);
  EXPECT_THROW(keel::GerstnerSurface({}, {.steepness = -0.1}), std::invalid_argument);
  EXPECT_EQ(keel::gerstnerSteepnessLimit({}), std::numeric_limits<double>::infinity());
}

}  // namespace
