// The wave surfaces shipped with Keel (waves.hpp), against analytic formulas,
// independent re-implementations of their parametric forms, and finite
// differences of the surfaces' own motion.
//
// Tolerances are error bounds worked out from the arithmetic (rounding of
// btScalar inputs and outputs, double rounding inside, finite-difference
// truncation), not numbers tuned until the tests pass.

#include <keel/waves.hpp>

#include "math/det_math.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <numbers>
#include <random>
#include <stdexcept>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

namespace {

using keel::WaveComponent;

constexpr double kPi = std::numbers::pi;
constexpr double kG = keel::kStandardGravity_mps2;
constexpr bool kFloat = std::is_same_v<btScalar, float>;
/// Unit roundoff of btScalar (inputs, outputs) and of double (inside).
constexpr double kRoundS = std::numeric_limits<btScalar>::epsilon() / 2;
constexpr double kRoundD = std::numeric_limits<double>::epsilon() / 2;
/// The accuracy Gerstner heights must reach [m] (docs/waves.md, "Gerstner
/// (trochoidal) waves": against the parametric surface).
constexpr double kGerstnerHeightRequirement_m = 1e-4;
/// GerstnerSurface's Newton tolerance on the horizontal residual [m].
constexpr double kNewtonResidual_m = 1e-9;

/// Three crossing waves of different lengths.
std::vector<WaveComponent> testWaves() {
  return {keel::deepWaterWave(1.0, 40.0, 0.3, 0.1), keel::deepWaterWave(0.5, 17.0, -0.9, 2.0),
          keel::deepWaterWave(0.25, 8.0, 2.2, -1.0)};
}

/// Mean level and a current of dyadic values, so that x + current h is exact
/// in float for the dyadic x and h of the finite differences.
constexpr double kMeanLevel_m = 1.5;
constexpr keel::UniformCurrent kCurrent{0.5, -0.25};

/// Sums over the components: of a, k a, a omega, a omega k, a omega^3.
struct WaveSums {
  double a = 0, ka = 0, aw = 0, awk = 0, aw3 = 0;
};
WaveSums sums(const std::vector<WaveComponent>& waves) {
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
double heightRoundoff_m(const std::vector<WaveComponent>& waves, double etaMax_m, double phaseMax_rad) {
  const double n = static_cast<double>(waves.size());
  return kRoundS * etaMax_m + kRoundD * sums(waves).a * (phaseMax_rad + 2 + n);
}

/// Independent Airy surface: mean + sum a cos(k d.(x - U t) - omega t + phi).
double airyHeight(const std::vector<WaveComponent>& waves, double x, double y, double t) {
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
Particle gerstnerParticle(const std::vector<WaveComponent>& waves, double q, double meanLevel_m,
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
double inputRounding_m(double x) { return std::abs(x - static_cast<double>(static_cast<btScalar>(x))); }

/// For RecordProperty: 3 significant digits, any magnitude.
std::string scientific(double x) {
  char text[32];
  std::snprintf(text, sizeof text, "%.3g", x);
  return text;
}

/// Composite Simpson rule of f over [a, b] with `intervals` (even) intervals.
template <class F>
double simpson(F f, double a, double b, int intervals) {
  const double h = (b - a) / intervals;
  double s = f(a) + f(b);
  for (int i = 1; i < intervals; ++i) s += (i % 2 ? 4 : 2) * f(a + i * h);
  return s * h / 3;
}

// --- Planes -------------------------------------------------------------------

TEST(WaveFlat, HeightIsConstantAndVelocityIsTheCurrent) {
  const keel::FlatSurface water(2.5, {0.75, -0.5});
  const btScalar u[3] = {0, -1e4, 123.5}, v[3] = {0, 3e3, -7.25}, w[3] = {2.5, -40, 3};
  btScalar h[3];
  keel::WaterVelocity vel[3];
  water.heights(u, v, 3, btScalar(12), h);
  water.velocities(u, v, w, 3, btScalar(12), vel);
  for (int i = 0; i < 3; ++i) {
    EXPECT_EQ(water.height(u[i], v[i], btScalar(3)), btScalar(2.5));
    EXPECT_EQ(h[i], btScalar(2.5));
    EXPECT_EQ(vel[i].east_mps, btScalar(0.75));
    EXPECT_EQ(vel[i].north_mps, btScalar(-0.5));
    EXPECT_EQ(vel[i].up_mps, btScalar(0));
  }
  EXPECT_THROW(keel::FlatSurface(std::nan("")), std::invalid_argument);
}

TEST(WaveTiltedPlane, HeightIsThePlane) {
  const double h0 = -1.5, se = 0.125, sn = -0.0625;
  const keel::TiltedPlaneSurface water(h0, se, sn);
  const btScalar u[4] = {0, 8, -100, 1000}, v[4] = {0, -16, 64, 2000};
  btScalar h[4];
  water.heights(u, v, 4, btScalar(1), h);
  for (int i = 0; i < 4; ++i) {
    const double expected = h0 + se * u[i] + sn * v[i];  // dyadic: exact in double
    EXPECT_NEAR(water.height(u[i], v[i], btScalar(1)), expected, kRoundS * std::abs(expected));
    EXPECT_EQ(h[i], water.height(u[i], v[i], btScalar(1)));
  }
  EXPECT_THROW(keel::TiltedPlaneSurface(0, INFINITY, 0), std::invalid_argument);
}

TEST(WaveTiltedPlane, CurrentFlowsAlongThePlane) {
  // Water at the surface carried by the returned velocity for a time dt stays
  // on the surface: the finite difference of the height along its path is
  // its vertical velocity. All values are dyadic, so exact in float.
  const keel::TiltedPlaneSurface water(0.5, 0.25, -0.125, {2.0, 1.0});
  const btScalar u = 4, v = -2, dt = 0.5;
  const btScalar w = water.height(u, v, 0);
  const keel::WaterVelocity vel = water.velocity(u, v, w, 0);
  EXPECT_EQ(vel.east_mps, btScalar(2));
  EXPECT_EQ(vel.north_mps, btScalar(1));
  const btScalar later = water.height(u + vel.east_mps * dt, v + vel.north_mps * dt, dt);
  EXPECT_EQ(later, w + vel.up_mps * dt);
  EXPECT_EQ(vel.up_mps, btScalar(0.25 * 2 - 0.125 * 1));
}

// --- Components and dispersion --------------------------------------------------

TEST(WaveDispersion, DeepWaterOmegaSquaredIsGk) {
  // A 10 s deep-water wave is g T^2 / (2 pi) = 156.08 m long.
  const double wavelength_m = kG * 100 / (2 * kPi);
  const WaveComponent c = keel::deepWaterWave(0.5, wavelength_m, kPi / 2, 0.25);
  EXPECT_NEAR(c.angularFrequency_radps, 2 * kPi / 10, 1e-15);
  EXPECT_NEAR(c.wavenumber_radpm, 2 * kPi / wavelength_m, 1e-17);
  EXPECT_NEAR(c.directionEast, 0, 1e-16);
  EXPECT_EQ(c.directionNorth, 1);
  EXPECT_EQ(c.amplitude_m, 0.5);
  EXPECT_EQ(c.phase_rad, 0.25);
  EXPECT_DOUBLE_EQ(keel::deepWaterAngularFrequency_radps(0.25, 9.81), std::sqrt(9.81 * 0.25));
  EXPECT_DOUBLE_EQ(keel::deepWaterWavenumber_radpm(std::sqrt(9.81 * 0.25), 9.81), 0.25);
}

TEST(WaveComponents, SurfacesCheckAndNormaliseThem) {
  const WaveComponent good{0.5, 0.2, std::sqrt(kG * 0.2), 3, 4, 0};
  const keel::SineSumSurface sines({good});
  EXPECT_DOUBLE_EQ(sines.components()[0].directionEast, 0.6);
  EXPECT_DOUBLE_EQ(sines.components()[0].directionNorth, 0.8);
  auto with = [&](auto change) {
    WaveComponent c = good;
    change(c);
    return std::vector<WaveComponent>{c};
  };
  const std::vector<std::vector<WaveComponent>> bad = {
      with([](WaveComponent& c) { c.amplitude_m = -1; }), with([](WaveComponent& c) { c.wavenumber_radpm = 0; }),
      with([](WaveComponent& c) { c.angularFrequency_radps = -0.1; }),
      with([](WaveComponent& c) { c.directionEast = c.directionNorth = 0; }),
      with([](WaveComponent& c) { c.phase_rad = std::nan(""); })};
  for (const auto& waves : bad) {
    EXPECT_THROW(keel::SineSumSurface{waves}, std::invalid_argument);
    EXPECT_THROW(keel::GerstnerSurface{waves}, std::invalid_argument);
  }
  EXPECT_THROW(keel::SineSumSurface({good}, {.meanLevel_m = INFINITY}), std::invalid_argument);
}

TEST(WaveComponents, SignificantHeightIsFourStandardDeviations) {
  // Two waves of amplitude 1 and 2: variance (1 + 4) / 2.
  const std::vector<WaveComponent> w = {keel::deepWaterWave(1, 10, 0), keel::deepWaterWave(2, 20, 1)};
  EXPECT_DOUBLE_EQ(keel::significantWaveHeight_m(w), 4 * std::sqrt(2.5));
}

// --- Sums of sines --------------------------------------------------------------------

constexpr double kSineT_s = 3.25;  // dyadic times and places: exact in float

TEST(WaveSineSum, HeightIsTheSumOfCosines) {
  const auto waves = testWaves();
  const keel::SineSumSurface water(waves, {kMeanLevel_m, kCurrent});
  // Phases stay below 60 rad: k |x - U t| <= 0.79 * 28, omega t <= 2.8 * 10.5.
  const double tol = heightRoundoff_m(waves, kMeanLevel_m + sums(waves).a, 60);
  for (double t : {0.0, kSineT_s, 10.5})
    for (double x = -20; x <= 20; x += 2.5)
      for (double y = -10; y <= 10; y += 2.5) {
        EXPECT_NEAR(water.height(btScalar(x), btScalar(y), btScalar(t)), airyHeight(waves, x, y, t), tol);
      }
}

TEST(WaveSineSum, VerticalVelocityAtTheSurfaceIsItsRise) {
  // Linear kinematic condition: w = d(eta)/dt following the current.
  // Central difference along the path x + U s, t + s; its error is at most
  // 2 roundoff / (2 h) + h^2 / 6 max|eta'''| with |eta'''| <= sum a omega^3
  // (along that path the Doppler shift cancels).
  const auto waves = testWaves();
  const WaveSums s = sums(waves);
  const keel::SineSumSurface water(waves, {kMeanLevel_m, kCurrent});
  const double h = kFloat ? 0x1p-8 : 0x1p-17;  // near the optimum (roundoff / M3)^(1/3)
  const double eta_err = heightRoundoff_m(waves, kMeanLevel_m + s.a, 40);
  const double tol = eta_err / h + h * h / 6 * s.aw3 + eta_err * s.awk + kRoundS * (s.aw + 1) + kRoundD * s.aw * 50;
  for (double x = -20; x <= 20; x += 2.5)
    for (double y = -10; y <= 10; y += 5) {
      const auto at = [&](double ds) {
        return double(water.height(btScalar(x + kCurrent.east_mps * ds), btScalar(y + kCurrent.north_mps * ds),
                                   btScalar(kSineT_s + ds)));
      };
      const double rise_mps = (at(h) - at(-h)) / (2 * h);
      const btScalar w = water.height(btScalar(x), btScalar(y), btScalar(kSineT_s));
      const keel::WaterVelocity v = water.velocity(btScalar(x), btScalar(y), w, btScalar(kSineT_s));
      EXPECT_NEAR(v.up_mps, rise_mps, tol) << "at " << x << ", " << y;
    }
}

TEST(WaveSineSum, HorizontalVelocityOfOneWaveIsOmegaEta) {
  // One progressive linear wave: u = a omega cos(theta) = omega (eta - h0)
  // along its direction, plus the current.
  const std::vector<WaveComponent> waves = {keel::deepWaterWave(0.75, 30, 0.6, 0.4)};
  const keel::SineSumSurface water(waves, {kMeanLevel_m, kCurrent});
  const WaveComponent& c = waves[0];
  const double tol = kRoundS * 4 + kRoundD * 100;
  for (double x = -15; x <= 15; x += 1.5) {
    const btScalar y = 2, t = btScalar(kSineT_s);
    const btScalar w = water.height(btScalar(x), y, t);
    const keel::WaterVelocity v = water.velocity(btScalar(x), y, w, t);
    const double along = c.angularFrequency_radps * (airyHeight(waves, x, y, t) - kMeanLevel_m);
    EXPECT_NEAR(v.east_mps, kCurrent.east_mps + along * c.directionEast, tol);
    EXPECT_NEAR(v.north_mps, kCurrent.north_mps + along * c.directionNorth, tol);
  }
}

TEST(WaveSineSum, OrbitalSpeedDecaysWithDepth) {
  // |orbital velocity| = a omega e^{k z}, z below the instantaneous surface.
  const std::vector<WaveComponent> waves = {keel::deepWaterWave(0.75, 30, 0.6, 0.4)};
  const keel::SineSumSurface water(waves, {kMeanLevel_m, kCurrent});
  const double aw = waves[0].amplitude_m * waves[0].angularFrequency_radps;
  const btScalar x = 3, y = -4, t = 2;
  const btScalar eta = water.height(x, y, t);
  for (double depth : {0.0, 1.0, 5.0, 15.0, 300.0}) {
    const keel::WaterVelocity v = water.velocity(x, y, btScalar(eta - depth), t);
    const double speed = std::hypot(v.east_mps - kCurrent.east_mps, v.north_mps - kCurrent.north_mps, double(v.up_mps));
    const double expected = aw * std::exp(-waves[0].wavenumber_radpm * depth);
    EXPECT_NEAR(speed, expected, kRoundS * 4 * (aw + 1)) << "depth " << depth;
  }
  // Above the water: the surface's velocity.
  const keel::WaterVelocity surface = water.velocity(x, y, eta, t);
  const keel::WaterVelocity above = water.velocity(x, y, eta + 2, t);
  EXPECT_EQ(above.east_mps, surface.east_mps);
  EXPECT_EQ(above.up_mps, surface.up_mps);
}

TEST(WaveSineSum, BatchesMatchSinglePoints) {
  const auto waves = testWaves();
  const keel::SineSumSurface water(waves, {kMeanLevel_m, kCurrent});
  std::vector<btScalar> u, v, w;
  for (int i = 0; i < 150; ++i) {  // more than a block, not a multiple of one
    u.push_back(btScalar(-30 + 0.37 * i));
    v.push_back(btScalar(5 - 0.11 * i));
    w.push_back(btScalar(-0.02 * i));
  }
  std::vector<btScalar> h(u.size());
  std::vector<keel::WaterVelocity> vel(u.size());
  const btScalar t = 4.5;
  water.heights(u.data(), v.data(), u.size(), t, h.data());
  water.velocities(u.data(), v.data(), w.data(), u.size(), t, vel.data());
  // Same arithmetic in both paths (single points are batches of one): equal
  // but for how the compiler may fuse operations; a few ulps of values < 5.
  const double tol = 4 * kRoundS * 5;
  for (std::size_t i = 0; i < u.size(); ++i) {
    EXPECT_NEAR(h[i], water.height(u[i], v[i], t), tol);
    const keel::WaterVelocity one = water.velocity(u[i], v[i], w[i], t);
    EXPECT_NEAR(vel[i].east_mps, one.east_mps, tol);
    EXPECT_NEAR(vel[i].north_mps, one.north_mps, tol);
    EXPECT_NEAR(vel[i].up_mps, one.up_mps, tol);
  }
}

// --- Gerstner ------------------------------------------------------------------------

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

// --- Batches: vectorised across points ---------------------------------------------

/// The exact bits of a btScalar: results compared with this must be the
/// same numbers, not merely equal ones (0 == -0).
auto bitsOf(btScalar x) {
  using Bits = std::conditional_t<sizeof(btScalar) == 4, std::uint32_t, std::uint64_t>;
  return std::bit_cast<Bits>(x);
}

/// A JONSWAP sea of `n` components, Hs `hs_m`, Tp `tp_s`, and the Gerstner
/// steepness the docs suggest for it: min(1, 0.9 of the folding limit).
struct JonswapSea {
  std::vector<WaveComponent> waves;
  double steepness;
};
JonswapSea jonswapSea(double hs_m, double tp_s, std::size_t n, std::uint32_t seed) {
  const keel::SeaStateSettings settings{.meanDirection_rad = 0.7, .componentCount = n, .seed = seed};
  JonswapSea sea{keel::sampleSeaState(keel::WaveSpectrum::jonswap(hs_m, tp_s), settings), 0};
  sea.steepness = std::min(1.0, 0.9 * keel::gerstnerSteepnessLimit(sea.waves));
  return sea;
}

/// Random horizontal points in a square of half-side `half_m` [m] around
/// (u0, v0), and heights w near the surface.
struct RandomPoints {
  std::vector<btScalar> u, v, w;
};
RandomPoints randomPoints(std::size_t n, double u0, double v0, double half_m, std::uint32_t seed) {
  std::mt19937 random(seed);
  std::uniform_real_distribution<double> horizontal(-half_m, half_m), vertical(-6, 3);
  RandomPoints p;
  for (std::size_t i = 0; i < n; ++i) {
    p.u.push_back(btScalar(u0 + horizontal(random)));
    p.v.push_back(btScalar(v0 + horizontal(random)));
    p.w.push_back(btScalar(vertical(random)));
  }
  return p;
}

TEST(WaveBatch, ResultsDoNotDependOnPlaceInBatchNorOnItsSize) {
  // Each point is a lane of its own, and a batch's tail is padded with
  // copies of its last point: a point alone, first, in the middle or last of
  // a batch of any size (across multiples of 2, 4 and 8 lanes) gives the
  // same bits, amid neighbours that take other numbers of Newton steps; and
  // heightsAndVelocities gives the bits of heights and velocities.
  const JonswapSea sea = jonswapSea(2.5, 7, 6, 3);
  const keel::GerstnerSurface gerstner(sea.waves, {kMeanLevel_m, kCurrent, sea.steepness});
  const keel::SineSumSurface sines(sea.waves, {kMeanLevel_m, kCurrent});
  const btScalar t = btScalar(12.25);
  const RandomPoints probes = randomPoints(6, 40, -20, 60, 1);
  const RandomPoints others = randomPoints(64, 40, -20, 60, 2);
  for (const keel::WaterSurface* surface :
       {static_cast<const keel::WaterSurface*>(&gerstner), static_cast<const keel::WaterSurface*>(&sines)}) {
    for (std::size_t k = 0; k < probes.u.size(); ++k) {
      btScalar alone;
      keel::WaterVelocity aloneV;
      surface->heights(&probes.u[k], &probes.v[k], 1, t, &alone);
      surface->velocities(&probes.u[k], &probes.v[k], &probes.w[k], 1, t, &aloneV);
      for (std::size_t n : {2u, 3u, 4u, 5u, 7u, 8u, 9u, 15u, 16u, 17u, 31u, 33u, 64u}) {
        for (std::size_t at : {std::size_t(0), n / 2, n - 1}) {
          std::vector<btScalar> u(others.u.begin(), others.u.begin() + long(n));
          std::vector<btScalar> v(others.v.begin(), others.v.begin() + long(n));
          std::vector<btScalar> w(others.w.begin(), others.w.begin() + long(n));
          u[at] = probes.u[k];
          v[at] = probes.v[k];
          w[at] = probes.w[k];
          std::vector<btScalar> h(n);
          std::vector<keel::WaterVelocity> vel(n);
          std::vector<btScalar> hBoth(n);
          std::vector<keel::WaterVelocity> velBoth(n);
          surface->heights(u.data(), v.data(), n, t, h.data());
          surface->velocities(u.data(), v.data(), w.data(), n, t, vel.data());
          surface->heightsAndVelocities(u.data(), v.data(), w.data(), n, t, hBoth.data(), velBoth.data());
          SCOPED_TRACE("probe " + std::to_string(k) + ", batch of " + std::to_string(n) + ", at " + std::to_string(at));
          for (const auto& [height, velocity] : {std::pair{h[at], vel[at]}, std::pair{hBoth[at], velBoth[at]}}) {
            EXPECT_EQ(bitsOf(height), bitsOf(alone));
            EXPECT_EQ(bitsOf(velocity.east_mps), bitsOf(aloneV.east_mps));
            EXPECT_EQ(bitsOf(velocity.north_mps), bitsOf(aloneV.north_mps));
            EXPECT_EQ(bitsOf(velocity.up_mps), bitsOf(aloneV.up_mps));
          }
        }
      }
    }
  }
}

/// Largest phase [rad] of `waves` at points within `reach_m` of the origin
/// at time t: k reach + omega t + |phi|.
double phaseMax_rad(const std::vector<WaveComponent>& waves, double reach_m, double t_s) {
  double most = 0;
  for (const WaveComponent& c : waves)
    most = std::max(most, c.wavenumber_radpm * reach_m + c.angularFrequency_radps * t_s + std::abs(c.phase_rad));
  return most;
}

/// How far apart the batch's and the single point's phases, sines and
/// cosines can be [rad]: each rounds the phase (up to 2 ulps of phaseMax,
/// and the batch's reduction of phi - omega t modulo 2 pi another), and
/// the batch's and the single point's sin, cos and exp are within 3 ulp
/// (Keel's own, math/det_math.hpp).
double phaseDisagreement_rad(double phaseMax) { return kRoundD * (6 * phaseMax + 8); }

/// The tolerances a batch-versus-single-point test used and the largest
/// differences it measured, recorded as test properties (in the XML report)
/// for the first minutes (t <= 1000.25 s) and after a day (t = 86400.5 s).
struct BatchAgreement {
  double boundH = 0, worstH = 0, boundV = 0, worstV = 0;

  void add(double htol, double vtol, double h, double one, const keel::WaterVelocity& v,
           const keel::WaterVelocity& oneV) {
    boundH = std::max(boundH, htol);
    boundV = std::max(boundV, vtol);
    worstH = std::max(worstH, std::abs(h - one));
    worstV = std::max({worstV, std::abs(double(v.east_mps) - oneV.east_mps),
                       std::abs(double(v.north_mps) - oneV.north_mps), std::abs(double(v.up_mps) - oneV.up_mps)});
  }
  void record(const std::string& prefix) const {
    ::testing::Test::RecordProperty(prefix + "height_bound_m", scientific(boundH));
    ::testing::Test::RecordProperty(prefix + "worst_height_difference_m", scientific(worstH));
    ::testing::Test::RecordProperty(prefix + "velocity_bound_mps", scientific(boundV));
    ::testing::Test::RecordProperty(prefix + "worst_velocity_difference_mps", scientific(worstV));
  }
};

/// Batch heights and velocities of `water` at points `p`, time t, against
/// its single-point queries, within htol [m] and vtol [m/s]; the
/// differences go to `agreement`.
void expectBatchMatchesPoints(const keel::WaterSurface& water, const RandomPoints& p, double t, double htol,
                              double vtol, BatchAgreement& agreement) {
  const std::size_t count = p.u.size();
  std::vector<btScalar> h(count);
  std::vector<keel::WaterVelocity> vel(count);
  water.heights(p.u.data(), p.v.data(), count, btScalar(t), h.data());
  water.velocities(p.u.data(), p.v.data(), p.w.data(), count, btScalar(t), vel.data());
  for (std::size_t i = 0; i < count; ++i) {
    const btScalar one = water.height(p.u[i], p.v[i], btScalar(t));
    const keel::WaterVelocity oneV = water.velocity(p.u[i], p.v[i], p.w[i], btScalar(t));
    EXPECT_NEAR(h[i], one, htol) << "t " << t << ", point " << i;
    EXPECT_NEAR(vel[i].east_mps, oneV.east_mps, vtol) << "t " << t << ", point " << i;
    EXPECT_NEAR(vel[i].north_mps, oneV.north_mps, vtol) << "t " << t << ", point " << i;
    EXPECT_NEAR(vel[i].up_mps, oneV.up_mps, vtol) << "t " << t << ", point " << i;
    agreement.add(htol, vtol, h[i], one, vel[i], oneV);
  }
}

TEST(WaveBatch, GerstnerBatchesMatchSinglePointsOnAJonswapSea) {
  // Both paths run the same Newton iteration from the same start to
  // |F| <= 1e-9 m; their phases differ by rounding only (bit for bit equal
  // while |phi - omega t| <= 1024 rad) and their sin and cos by a few ulps
  // (the solves' sin and cos, and both solves' angle-addition
  // steps, exact to rounding).
  // Bound: each stops within 1e-9 / (1 - Q sum k a) of the root, and the
  // rounding moves F by Q sum a dtheta; the rest points' gap moves the
  // height by sum k a per metre; plus sum a dtheta directly, and both
  // results' rounding to btScalar.
  for (const auto& [hs, tp, n] : {std::tuple{8.0, 12.0, std::size_t(64)}, std::tuple{1.5, 6.0, std::size_t(6)}}) {
    const JonswapSea sea = jonswapSea(hs, tp, n, 5);
    const WaveSums s = sums(sea.waves);
    const double q = sea.steepness;
    const keel::GerstnerSurface water(sea.waves, {kMeanLevel_m, kCurrent, q});
    BatchAgreement minutes, day;
    for (double t : {0.0, 30.5, 1000.25, 86400.5}) {
      BatchAgreement& agreement = t < 2000 ? minutes : day;
      const RandomPoints p = randomPoints(1000, 150, -80, 300, std::uint32_t(t) + 7);
      const double dTheta = phaseDisagreement_rad(phaseMax_rad(sea.waves, 750, t));
      const double restGap_m = (2 * kNewtonResidual_m + q * s.a * dTheta) / (1 - q * s.ka);
      const double htol = s.ka * restGap_m + s.a * dTheta + kRoundD * double(n) * s.a +
                          2 * kRoundS * (kMeanLevel_m + s.a);
      const double vtol = s.awk * (restGap_m + htol) + s.aw * dTheta + kRoundD * double(n) * s.aw +
                          2 * kRoundS * (s.aw + 1);
      expectBatchMatchesPoints(water, p, t, htol, vtol, agreement);
    }
    minutes.record("components_" + std::to_string(n) + "_minutes_");
    day.record("components_" + std::to_string(n) + "_day_");
  }
}

TEST(WaveBatch, SineSumBatchesMatchSinglePointsOnAJonswapSea) {
  // Same operations and sin, cos and exp in both paths
  // (and phi - omega t reduced modulo 2 pi beyond 1024 rad): each term
  // differs by its size times the phases' disagreement; the depth's error
  // moves the decay by sum a omega k per metre.
  const JonswapSea sea = jonswapSea(8, 12, 64, 9);
  const WaveSums s = sums(sea.waves);
  const keel::SineSumSurface water(sea.waves, {kMeanLevel_m, kCurrent});
  BatchAgreement minutes, day;
  for (double t : {0.0, 30.5, 1000.25, 86400.5}) {
    BatchAgreement& agreement = t < 2000 ? minutes : day;
    const RandomPoints p = randomPoints(1000, -60, 200, 300, std::uint32_t(t) + 11);
    const double dTheta = phaseDisagreement_rad(phaseMax_rad(sea.waves, 750, t));
    const double n = double(sea.waves.size());
    const double htol = s.a * dTheta + kRoundD * n * s.a + 2 * kRoundS * (kMeanLevel_m + s.a);
    const double vtol = s.awk * s.a * dTheta + s.aw * dTheta + kRoundD * n * s.aw + 2 * kRoundS * (s.aw + 1);
    expectBatchMatchesPoints(water, p, t, htol, vtol, agreement);
  }
  minutes.record("minutes_");
  day.record("day_");
}

TEST(WaveBatch, HeightsAndVelocitiesAreHeightsThenVelocitiesOnAJonswapSea) {
  // heightsAndVelocities runs the vector code of heights and velocities once
  // for both: the same phases, the same Newton iteration per lane (both
  // velocities take the sin and cos of the first 64 components from the
  // solve, moved to the rest point by its angle-addition steps), the same
  // points handed to the scalar code. So
  // it gives their bits, tested bit for bit (tolerance 0), below and above
  // the surface, with and without phases reduced modulo 2 pi (t > 1000 s),
  // with seas of up to 64 components (sin and cos kept) and of more.
  struct Case {
    double hs_m, tp_s;
    std::size_t components;
  };
  for (const Case& sea : {Case{1.5, 6, 6}, Case{8, 12, 64}, Case{4, 9, 80}}) {
    const JonswapSea waves = jonswapSea(sea.hs_m, sea.tp_s, sea.components, 13);
    const keel::GerstnerSurface gerstner(waves.waves, {kMeanLevel_m, kCurrent, waves.steepness});
    const keel::SineSumSurface sines(waves.waves, {kMeanLevel_m, kCurrent});
    for (const auto& [name, surface] : {std::pair{"gerstner", static_cast<const keel::WaterSurface*>(&gerstner)},
                                        std::pair{"sines", static_cast<const keel::WaterSurface*>(&sines)}}) {
      double worstH_m = 0, worstV_mps = 0;
      std::size_t below = 0, above = 0;
      for (double t : {0.0, 30.5, 1000.25, 86400.5}) {
        RandomPoints p = randomPoints(1000, 150, -80, 300, std::uint32_t(t) + 17);
        // w from 3 Hs below the mean level to 2 Hs above it: deep below the
        // surface, near it, and above the crests.
        std::mt19937 random(std::uint32_t(t) + 23);
        std::uniform_real_distribution<double> vertical(kMeanLevel_m - 3 * sea.hs_m, kMeanLevel_m + 2 * sea.hs_m);
        for (btScalar& w : p.w) w = btScalar(vertical(random));
        const std::size_t count = p.u.size();
        std::vector<btScalar> h(count), hBoth(count);
        std::vector<keel::WaterVelocity> vel(count), velBoth(count);
        surface->heights(p.u.data(), p.v.data(), count, btScalar(t), h.data());
        surface->velocities(p.u.data(), p.v.data(), p.w.data(), count, btScalar(t), vel.data());
        surface->heightsAndVelocities(p.u.data(), p.v.data(), p.w.data(), count, btScalar(t), hBoth.data(),
                                      velBoth.data());
        for (std::size_t i = 0; i < count; ++i) {
          SCOPED_TRACE(std::string(name) + ", " + std::to_string(sea.components) + " components, t " +
                       std::to_string(t) + ", point " + std::to_string(i));
          EXPECT_EQ(bitsOf(hBoth[i]), bitsOf(h[i]));
          EXPECT_EQ(bitsOf(velBoth[i].east_mps), bitsOf(vel[i].east_mps));
          EXPECT_EQ(bitsOf(velBoth[i].north_mps), bitsOf(vel[i].north_mps));
          EXPECT_EQ(bitsOf(velBoth[i].up_mps), bitsOf(vel[i].up_mps));
          worstH_m = std::max(worstH_m, std::abs(double(hBoth[i]) - h[i]));
          worstV_mps = std::max({worstV_mps, std::abs(double(velBoth[i].east_mps) - vel[i].east_mps),
                                 std::abs(double(velBoth[i].north_mps) - vel[i].north_mps),
                                 std::abs(double(velBoth[i].up_mps) - vel[i].up_mps)});
          (p.w[i] < h[i] ? below : above) += 1;
        }
      }
      // Both sides of the surface were asked, the decay e^{k z} and its clamp.
      EXPECT_GT(below, 1000u);
      EXPECT_GT(above, 1000u);
      const std::string prefix = std::string(name) + "_" + std::to_string(sea.components) + "_";
      ::testing::Test::RecordProperty(prefix + "worst_height_difference_m", scientific(worstH_m));
      ::testing::Test::RecordProperty(prefix + "worst_velocity_difference_mps", scientific(worstV_mps));
    }
  }
}

TEST(WaveBatch, PointsBeyondSinRangeGoToTheScalarPath) {
  // The batches keep |phase| <= 39000 rad (kPhaseLimit_rad): farther points
  // (here 1e6 m, k up to 0.3 rad/m) are computed by the single-point code,
  // so they are its very bits; a NaN point stays NaN. Their neighbours in
  // the batch stay on the vector path.
  const JonswapSea sea = jonswapSea(2.5, 7, 6, 3);
  const keel::GerstnerSurface gerstner(sea.waves, {kMeanLevel_m, kCurrent, sea.steepness});
  const keel::SineSumSurface sines(sea.waves, {kMeanLevel_m, kCurrent});
  const btScalar nan = std::numeric_limits<btScalar>::quiet_NaN();
  const btScalar u[5] = {3, btScalar(1e6), -7, nan, btScalar(-2e6)};
  const btScalar v[5] = {1, 5, btScalar(1e6), 2, 0};
  const btScalar w[5] = {-1, -2, -0.5, -1, 0};
  const btScalar t = 4;
  for (const keel::WaterSurface* surface :
       {static_cast<const keel::WaterSurface*>(&gerstner), static_cast<const keel::WaterSurface*>(&sines)}) {
    btScalar h[5], hBoth[5];
    keel::WaterVelocity vel[5], velBoth[5];
    surface->heights(u, v, 5, t, h);
    surface->velocities(u, v, w, 5, t, vel);
    surface->heightsAndVelocities(u, v, w, 5, t, hBoth, velBoth);
    for (int i : {1, 2, 4}) {
      const btScalar oneH = surface->height(u[i], v[i], t);
      const keel::WaterVelocity one = surface->velocity(u[i], v[i], w[i], t);
      EXPECT_EQ(bitsOf(h[i]), bitsOf(oneH)) << i;
      EXPECT_EQ(bitsOf(vel[i].east_mps), bitsOf(one.east_mps)) << i;
      EXPECT_EQ(bitsOf(vel[i].north_mps), bitsOf(one.north_mps)) << i;
      EXPECT_EQ(bitsOf(vel[i].up_mps), bitsOf(one.up_mps)) << i;
      EXPECT_EQ(bitsOf(hBoth[i]), bitsOf(oneH)) << i;
      EXPECT_EQ(bitsOf(velBoth[i].east_mps), bitsOf(one.east_mps)) << i;
      EXPECT_EQ(bitsOf(velBoth[i].north_mps), bitsOf(one.north_mps)) << i;
      EXPECT_EQ(bitsOf(velBoth[i].up_mps), bitsOf(one.up_mps)) << i;
    }
    EXPECT_TRUE(std::isnan(h[3]) && std::isnan(hBoth[3]));
    EXPECT_TRUE(std::isnan(vel[3].up_mps) && std::isnan(velBoth[3].up_mps));
    EXPECT_TRUE(std::isfinite(h[0]) && std::isfinite(vel[0].up_mps));
    EXPECT_TRUE(std::isfinite(hBoth[0]) && std::isfinite(velBoth[0].up_mps));
  }
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
