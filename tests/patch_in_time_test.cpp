// The patch in time (docs/model.md, "Water sampling"): a boat's patch
// sampled at the lattice times k T and blended linearly between them,
// against the exact query at every substep's own time, on the benchmarks'
// 64 sines and on the spectral ocean updated a frame at a time; and its
// answer a function of the time alone, whatever the sampler kept.
#include "test_hulls.hpp"
#include "water/patch_sampler.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <memory>
#include <span>
#include <stdexcept>
#include <vector>

namespace keel::test {
namespace {

constexpr double kFrame_s = 1.0 / 60;
constexpr int kSubsteps = 4;            // a frame's, of 1/240 s
constexpr double kPeriod_s = 1.0 / 64;  // the largest power of two seconds at most 4 of them
constexpr double kCentreU_m = 13.2, kCentreV_m = -7.9, kCell_m = 0.5, kRadius_m = 5;
constexpr auto kAllDepths = std::numeric_limits<btScalar>::infinity();

/// A 9 m x 4 m hull's footprint around the centre, its edges off the grid's lines.
const detail::Footprint kHull{
    .uLo_m = kCentreU_m - 4.6, .uHi_m = kCentreU_m + 4.43, .vLo_m = kCentreV_m - 1.97, .vHi_m = kCentreV_m + 2.04};

std::shared_ptr<const SineSumSurface> benchmarkSines() {  // tests/support/bench_boat.hpp's real sea
  return std::make_shared<SineSumSurface>(
      sampleSeaState(WaveSpectrum::jonswap(2.0, 7.0), {.meanDirection_rad = 0.3, .componentCount = 64, .seed = 5}));
}

/// The linear blend's bound over a period T on a sum of waves: each wave's
/// height `a cos(theta)`, theta turning at omega, has |f''| <= a omega^2,
/// and linear interpolation errs by at most T^2 / 8 max |f''|; its
/// velocity at a depth below the surface, `a omega e^{-k d}` times a cos or
/// a sin, by a omega^3 T^2 / 8. Summed over the waves (triangle
/// inequality), plus the float rounding of the samples and the blend.
/// Halfway between two lattice times the blend misses each wave by
/// `(1 - cos(omega T / 2)) a cos(theta)`, about `a (omega T)^2 / 8
/// cos(theta)`: the error is itself a sea of those amplitudes, whose
/// significant value `4 sqrt(sum (a (omega T)^2 / 8)^2 / 2)` (the height's
/// alone) says what a patch of many nodes sees at most, far below the sum
/// over a spectrum's thousands of waves.
struct Bound {
  double height_m = 0, velocity_mps = 0, fastest_radps = 0, significant_m = 0;
};
Bound blendBound(std::span<const WaveComponent> waves, double period_s) {
  Bound b;
  double sumA = 0, sumAw = 0, variance = 0;
  for (const WaveComponent& w : waves) {
    const double wT = w.angularFrequency_radps * period_s;
    b.height_m += w.amplitude_m * wT * wT / 8;
    b.velocity_mps += w.amplitude_m * w.angularFrequency_radps * wT * wT / 8;
    b.fastest_radps = std::max(b.fastest_radps, w.angularFrequency_radps);
    sumA += w.amplitude_m;
    sumAw += w.amplitude_m * w.angularFrequency_radps;
    const double miss = w.amplitude_m * (1 - std::cos(wT / 2));
    variance += miss * miss / 2;
  }
  b.significant_m = 4 * std::sqrt(variance);
  const double eps = double(std::numeric_limits<btScalar>::epsilon());
  b.height_m += 8 * eps * sumA;
  b.velocity_mps += 8 * eps * sumAw;
  return b;
}

/// The largest differences between two patches' heights and their window's
/// velocities, at every depth either holds.
struct Difference {
  double height_m = 0, velocity_mps = 0;
  void add(const WaterPatch& a, const WaterPatch& b) {
    for (std::size_t k = 0; k < a.samples_m().size(); ++k)
      height_m = std::max(height_m, double(std::abs(a.samples_m()[k] - b.samples_m()[k])));
    const GridWindow& w = a.velocityNodes();
    const std::size_t levels = a.velocityDepths_m().size(), side = std::size_t(a.samplesPerSide());
    for (int j = w.firstV; j < w.firstV + w.nodesV; ++j)
      for (int i = w.firstU; i < w.firstU + w.nodesU; ++i)
        for (std::size_t m = 0; m < levels; ++m) {
          const std::size_t k = (std::size_t(j) * side + std::size_t(i)) * levels + m;
          const WaterVelocity& x = a.nodeVelocities()[k];
          const WaterVelocity& y = b.nodeVelocities()[k];
          velocity_mps = std::max({velocity_mps, double(std::abs(x.east_mps - y.east_mps)),
                                   double(std::abs(x.north_mps - y.north_mps)), double(std::abs(x.up_mps - y.up_mps))});
        }
  }
};

bool sameBits(const WaterPatch& a, const WaterPatch& b) {
  if (a.samples_m().size() != b.samples_m().size() ||
      std::memcmp(a.samples_m().data(), b.samples_m().data(), a.samples_m().size_bytes()) != 0)
    return false;
  if (a.hasVelocities() != b.hasVelocities() || a.velocityDepths_m().size() != b.velocityDepths_m().size())
    return false;
  const GridWindow& w = a.velocityNodes();
  const std::size_t levels = a.velocityDepths_m().size(), side = std::size_t(a.samplesPerSide());
  for (int j = w.firstV; j < w.firstV + w.nodesV; ++j) {
    const std::size_t first = (std::size_t(j) * side + std::size_t(w.firstU)) * levels;
    if (std::memcmp(&a.nodeVelocities()[first], &b.nodeVelocities()[first],
                    std::size_t(w.nodesU) * levels * sizeof(WaterVelocity)) != 0)
      return false;
  }
  return true;
}

/// `frames` frames of four 1/240 s substeps from `start_s` (each after
/// `beforeFrame(from, to)`), the patch blended in time against the exact
/// query at each substep's time.
template <class BeforeFrame>
Difference blendedAgainstExact(const WaterSurface& sea, double start_s, int frames, BeforeFrame beforeFrame) {
  detail::PatchSampler blended, exact;
  blended.configure(btScalar(kCell_m), btScalar(kRadius_m));
  exact.configure(btScalar(kCell_m), btScalar(kRadius_m));
  Difference d;
  for (int f = 0; f < frames; ++f) {
    const double from = start_s + double(f) * kFrame_s;
    beforeFrame(from, from + kFrame_s);
    for (int n = 1; n <= kSubsteps; ++n) {
      const double t = from + double(n) * kFrame_s / kSubsteps;
      blended.sampleWithVelocities(sea, kCentreU_m, kCentreV_m, t, kAllDepths, &kHull, kPeriod_s);
      exact.sampleWithVelocities(sea, kCentreU_m, kCentreV_m, t, kAllDepths, &kHull);
      EXPECT_TRUE(blended.hasVelocities());
      d.add(blended, exact);
    }
  }
  return d;
}

void report(const char* sea, const Difference& d, const Bound& b) {
  std::printf(
      "[  figure  ] %s, T = 1/64 s (omega_max T = %.4f): blend error, largest over the patch: height %.3e m "
      "(bound %.3e m, %.0f%% of it; the error's significant value %.3e m), velocity %.3e m/s (bound %.3e m/s, "
      "%.0f%%)\n",
      sea, b.fastest_radps * kPeriod_s, d.height_m, b.height_m, 100 * d.height_m / b.height_m, b.significant_m,
      d.velocity_mps, b.velocity_mps, 100 * d.velocity_mps / b.velocity_mps);
}

TEST(PatchInTime, TheBlendErrsWithinTheBoundOnTheSines) {
  const auto sea = benchmarkSines();
  const Bound bound = blendBound(sea->components(), kPeriod_s);
  // Two seconds of frames: the lattice's fractions and the waves' phases all over.
  const Difference d = blendedAgainstExact(*sea, 20.0, 120, [](double, double) {});
  report("64 sines", d, bound);
  EXPECT_LE(d.height_m, bound.height_m);
  EXPECT_LE(d.velocity_mps, bound.velocity_mps);
  // The blend does blend: a tenth of the bound at least, at the waves' crests.
  EXPECT_GT(d.height_m, bound.height_m / 10);
  EXPECT_GT(d.velocity_mps, bound.velocity_mps / 10);
}

TEST(PatchInTime, TheBlendErrsWithinTheBoundOnTheSpectralOcean) {
  SpectralOcean ocean(WaveSpectrum::jonswap(2.0, 7.0));
  const std::vector<WaveComponent> waves = ocean.components();
  const Bound bound = blendBound(waves, kPeriod_s);
  // Updated a frame at a time as a game does (docs/waves.md, "Update and
  // threads"): two seconds cross the tile lattice 16 times, and at each
  // crossing a frame's last substeps find the lattice time after theirs
  // unpublished (they query at their own time); a tile clamped to the span
  // would err by omega T of the waves, far past the bound.
  int unsettled = 0;
  const Difference d = blendedAgainstExact(ocean, 20.0, 120, [&](double from, double to) {
    ocean.update(from, to);
    for (int n = 1; n <= kSubsteps; ++n) {
      const double t = from + double(n) * kFrame_s / kSubsteps;
      const double after = (std::floor(t / kPeriod_s) + 1) * kPeriod_s;
      if (!ocean.settledBetween(t, after)) ++unsettled;
    }
  });
  report("spectral ocean", d, bound);
  std::printf("[  figure  ] spectral ocean: %d of %d substeps found the next lattice time unpublished\n", unsettled,
              120 * kSubsteps);
  EXPECT_GT(unsettled, 0);
  EXPECT_LE(d.height_m, bound.height_m);
  EXPECT_LE(d.velocity_mps, bound.velocity_mps);
  // The thousands of waves' bound is loose: the largest error lies below
  // the error sea's significant value, whose shortest waves (the most of
  // it, weighted by omega^4) the tile's interpolation in space damps at
  // the patch's nodes; a fifth of it here (measured 23%).
  EXPECT_GT(d.height_m, bound.significant_m / 8);
  EXPECT_LT(d.height_m, bound.significant_m);
}

TEST(PatchInTime, ASubstepOnTheLatticeReadsTheQuerysBits) {
  const auto sea = benchmarkSines();
  detail::PatchSampler blended, exact;
  blended.configure(btScalar(kCell_m), btScalar(kRadius_m));
  exact.configure(btScalar(kCell_m), btScalar(kRadius_m));
  int on = 0, between = 0;
  for (int n = 1; n <= 64; ++n) {
    const double t = 20.0 + double(n) / 256;  // substeps of 2^-8 s: every fourth on the lattice
    blended.sampleWithVelocities(*sea, kCentreU_m, kCentreV_m, t, kAllDepths, &kHull, kPeriod_s);
    exact.sampleWithVelocities(*sea, kCentreU_m, kCentreV_m, t, kAllDepths, &kHull);
    if (n % 4 == 0) {
      EXPECT_TRUE(sameBits(blended, exact)) << t;
      ++on;
    } else {
      between += sameBits(blended, exact) ? 0 : 1;
    }
  }
  EXPECT_EQ(on, 16);
  EXPECT_EQ(between, 48);  // and between them it blends
}

/// One sampler runs on over 40 substeps, keeping its samples; at each
/// substep a fresh one, and one that has just sampled elsewhere a second
/// earlier, answer the same time: the same bits. So does a copy
/// (rollback's), which keeps nothing, run on from the copied substep. The
/// hull moves a little each substep and its depth changes, as a moving
/// boat's. `beforeFrame(from, to)` runs before every fourth substep.
template <class BeforeFrame>
void expectAFunctionOfTheTime(const WaterSurface& sea, BeforeFrame beforeFrame) {
  const auto configured = [] {
    detail::PatchSampler p;
    p.configure(btScalar(kCell_m), btScalar(kRadius_m));
    return p;
  };
  detail::PatchSampler running = configured(), copy = configured();
  const double t0 = 20.0 + 1.0 / 480;  // off the lattice
  for (int n = 1; n <= 40; ++n) {
    if (n % kSubsteps == 1) beforeFrame(t0 + double(n - 1) / 240, t0 + double(n + 3) / 240);
    const double t = t0 + double(n) / 240;
    const double du = 0.03 * n;
    const detail::Footprint hull{
        .uLo_m = kHull.uLo_m + du, .uHi_m = kHull.uHi_m + du, .vLo_m = kHull.vLo_m, .vHi_m = kHull.vHi_m};
    const btScalar deepest = btScalar(0.5 + 0.1 * (n % 7));
    running.sampleWithVelocities(sea, kCentreU_m + du, kCentreV_m, t, deepest, &hull, kPeriod_s);
    detail::PatchSampler fresh = configured(), elsewhere = configured();
    fresh.sampleWithVelocities(sea, kCentreU_m + du, kCentreV_m, t, deepest, &hull, kPeriod_s);
    elsewhere.sampleWithVelocities(sea, kCentreU_m - 30, kCentreV_m, t - 1, kAllDepths, nullptr, kPeriod_s);
    elsewhere.sampleWithVelocities(sea, kCentreU_m + du, kCentreV_m, t, deepest, &hull, kPeriod_s);
    ASSERT_TRUE(sameBits(running, fresh)) << n;
    ASSERT_TRUE(sameBits(running, elsewhere)) << n;
    if (n == 20) copy = running;
    if (n > 20) {
      copy.sampleWithVelocities(sea, kCentreU_m + du, kCentreV_m, t, deepest, &hull, kPeriod_s);
      ASSERT_TRUE(sameBits(running, copy)) << n;
    }
  }
  // Heights alone, likewise.
  detail::PatchSampler heights = configured();
  for (int n = 1; n <= 12; ++n) {
    const double t = t0 + double(n) / 240;
    heights.sample(sea, kCentreU_m, kCentreV_m, t, kPeriod_s);
    detail::PatchSampler fresh = configured();
    fresh.sample(sea, kCentreU_m, kCentreV_m, t, kPeriod_s);
    ASSERT_EQ(std::memcmp(heights.samples_m().data(), fresh.samples_m().data(), heights.samples_m().size_bytes()), 0);
  }
}

TEST(PatchInTime, TheBlendIsAFunctionOfTheTimeAlone) {
  expectAFunctionOfTheTime(*benchmarkSines(), [](double, double) {});
  SpectralOcean ocean(WaveSpectrum::jonswap(2.0, 7.0));
  expectAFunctionOfTheTime(ocean, [&](double from, double to) { ocean.update(from, to); });
}

/// The 64 sines, counting the grid queries a patch makes of them.
class CountingSines final : public WaterSurface {
 public:
  CountingSines() : sea_(benchmarkSines()) {}
  [[nodiscard]] btScalar height(btScalar u_m, btScalar v_m, double t_s) const override {
    return sea_->height(u_m, v_m, t_s);
  }
  bool gridHeightsAndVelocities(const WaterGrid& grid, const GridVelocities& velocities, double t_s,
                                btScalar* heights_out_m) const override {
    ++queries;
    return sea_->gridHeightsAndVelocities(grid, velocities, t_s, heights_out_m);
  }
  [[nodiscard]] bool settledBetween(double from_s, double to_s) const override {
    return sea_->settledBetween(from_s, to_s);
  }
  mutable int queries = 0;

 private:
  std::shared_ptr<const SineSumSurface> sea_;
};

TEST(PatchInTime, AKeptSampleHoldsTheDepthsAskedOverItsLife) {
  // A hull whose depth asks for 3, 5, 4 and 3 levels in turn (as a boat's
  // does: the depth its wet vertices reached the substep before), at
  // substeps of 1/240 s, 3.75 to a period: after the first frame the patch
  // queries each lattice time once, and reads the same bits as a fresh
  // patch at every substep.
  const CountingSines sea;
  detail::PatchSampler running, fresh;
  running.configure(btScalar(kCell_m), btScalar(kRadius_m));
  const std::array<btScalar, 4> deepest{btScalar(0.9), btScalar(3.0), btScalar(1.8), btScalar(0.9)};
  const double t0 = 20.0 + 1.0 / 480;  // off the lattice
  int queries = 0, latticeTimes = 0;
  std::array<std::size_t, 4> levels{};
  for (int n = 1; n <= 40; ++n) {
    const double t = t0 + double(n) / 240;
    const btScalar d = deepest[std::size_t(n % 4)];
    const int before = sea.queries;
    running.sampleWithVelocities(sea, kCentreU_m, kCentreV_m, t, d, &kHull, kPeriod_s);
    levels[std::size_t(n % 4)] = running.velocityDepths_m().size();
    if (n > 4) {
      queries += sea.queries - before;
      const double previous = t - 1.0 / 240;
      latticeTimes += std::floor(t / kPeriod_s) > std::floor(previous / kPeriod_s) ? 1 : 0;
    }
    fresh.configure(btScalar(kCell_m), btScalar(kRadius_m));
    fresh.sampleWithVelocities(sea, kCentreU_m, kCentreV_m, t, d, &kHull, kPeriod_s);
    ASSERT_TRUE(sameBits(running, fresh)) << n;
  }
  EXPECT_EQ(levels, (std::array<std::size_t, 4>{3, 5, 4, 3}));  // the depths asked at n % 4 = 0, 1, 2, 3
  std::printf(
      "[  figure  ] depths asked 3, 5, 4, 3 levels in turn: %d grid queries in substeps 5 to 40 (%d lattice "
      "times entered)\n",
      queries, latticeTimes);
  EXPECT_EQ(latticeTimes, 9);
  EXPECT_EQ(queries, latticeTimes);
}

TEST(PatchInTime, ASurfaceNotSettledIsQueriedAtEachSubstep) {
  // The spectral ocean before any update holds its t = 0 tile alone: no
  // later time is settled, and the patch queries at the substep's time.
  SpectralOcean ocean(WaveSpectrum::jonswap(2.0, 7.0));
  EXPECT_FALSE(ocean.settledBetween(5.0, 5.0 + kPeriod_s));
  ocean.update(5.0, 5.0 + kFrame_s);
  const std::array<double, 2> span = ocean.publishedTimes_s();
  EXPECT_TRUE(ocean.settledBetween(span[0], span[1]));
  EXPECT_FALSE(ocean.settledBetween(span[0], std::nextafter(span[1], 1e9)));
  EXPECT_FALSE(ocean.settledBetween(std::nextafter(span[0], 0.0), span[1]));
  // A window longer than two lattice cells takes its tiles at its ends, off
  // the lattice: a later update would answer those times from the lattice's.
  ocean.update(7.0, 7.0 + 3.5 * ocean.tilePeriod_s());
  EXPECT_FALSE(ocean.settledBetween(7.0, 7.0));
  // The flat sea and a user's surface say nothing: not settled.
  EXPECT_FALSE(FlatSurface().settledBetween(0, 1));
  detail::PatchSampler blended, exact;
  blended.configure(btScalar(kCell_m), btScalar(kRadius_m));
  exact.configure(btScalar(kCell_m), btScalar(kRadius_m));
  const double t = 7.0 + 1.0 / 240;
  blended.sampleWithVelocities(ocean, kCentreU_m, kCentreV_m, t, kAllDepths, &kHull, kPeriod_s);
  exact.sampleWithVelocities(ocean, kCentreU_m, kCentreV_m, t, kAllDepths, &kHull);
  EXPECT_TRUE(sameBits(blended, exact));
}

TEST(PatchInTime, ThePeriodIsAPowerOfTwoOfAtMostTheSubsteps) {
  const auto sub = btScalar(1.0 / 240);
  EXPECT_EQ(detail::patchTimePeriod_s(sub, 4), 1.0 / 64);  // 1/60 s: 2^-6
  EXPECT_EQ(detail::patchTimePeriod_s(sub, 2), 1.0 / 128);
  EXPECT_EQ(detail::patchTimePeriod_s(sub, 64), 0.25);                     // 0.267 s
  EXPECT_EQ(detail::patchTimePeriod_s(btScalar(1.0 / 250), 4), 1.0 / 64);  // a substep 4% shorter: the same lattice
  EXPECT_EQ(detail::patchTimePeriod_s(btScalar(1.0 / 128), 2), 1.0 / 64);  // a power of two: itself
  EXPECT_EQ(detail::patchTimePeriod_s(sub, 1), 0.0);                       // every substep at its own time
  EXPECT_EQ(detail::patchTimePeriod_s(0, 4), 0.0);
  EXPECT_EQ(detail::patchTimePeriod_s(std::numeric_limits<btScalar>::quiet_NaN(), 4), 0.0);
  EXPECT_EQ(detail::patchTimePeriod_s(std::numeric_limits<btScalar>::infinity(), 4), 0.0);
}

TEST(PatchInTime, TheSettingIsChecked) {
  World w;
  btRigidBody* body = w.addBox(btVector3(2, 1, 1), 1000, btTransform::getIdentity());
  const auto hull = hullOf(box(btVector3(2, 1, 1)));
  for (const int substeps : {0, -1, 65}) {
    HydrostaticSettings s;
    s.patchSubstepsPerSample = substeps;
    EXPECT_THROW(WaterAction(body, hull, std::make_shared<FlatSurface>(), s), std::invalid_argument) << substeps;
  }
  HydrostaticSettings s;
  s.patchSubstepsPerSample = 1;
  EXPECT_NO_THROW(WaterAction(body, hull, std::make_shared<FlatSurface>(), s));
}

}  // namespace
}  // namespace keel::test
