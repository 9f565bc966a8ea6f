// The flat and tilted planes, the wave components (deep-water dispersion,
// their checks, significant height) and the sum of sines (waves.hpp), against
// analytic formulas, an independent Airy sum and finite differences of the
// surface's own motion (wave_reference.hpp).
//
// Tolerances are error bounds worked out from the arithmetic (rounding of
// btScalar inputs and outputs, double rounding inside, finite-difference
// truncation), not numbers tuned until the tests pass.

#include "wave_reference.hpp"

#include <keel/waves.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <cstddef>
#include <stdexcept>
#include <vector>

namespace {

using namespace keel::wave_reference;  // the wave oracle and its bounds
using keel::WaveComponent;

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

}  // namespace
