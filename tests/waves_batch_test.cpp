// The wave surfaces' batch queries (waves.hpp, vectorised across points)
// against their single-point queries: the same bits wherever a point sits in
// a batch, heightsAndVelocities the bits of heights then velocities, and
// batches on JONSWAP seas within bounds worked out from the phases' rounding.
//
// Tolerances are error bounds worked out from the arithmetic (rounding of
// btScalar inputs and outputs, double rounding inside, finite-difference
// truncation), not numbers tuned until the tests pass.

#include "wave_reference.hpp"

#include <keel/waves.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

namespace {

using namespace keel::wave_reference;  // the wave oracle and its bounds
using keel::WaveComponent;

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

}  // namespace
