// keel::SpectralOcean's tile lattice (docs/waves.md, "Update and threads"):
// update() computes tiles at whole multiples of the tile period W, whatever
// its windows, a slice of the next one each frame; queries blend the two
// lattice tiles around their time. What the blend over W costs in accuracy,
// against the tiles computed at the query's own time.
#include "water/spectral_detail.hpp"

#include <keel/spectral_ocean.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdio>
#include <vector>

namespace keel::test {
namespace {

/// Significant (4 rms) and largest errors of one quantity, and the bound.
struct Error {
  double sum2 = 0, largest = 0;
  int count = 0;
  void add(double e) {
    sum2 += e * e;
    largest = std::max(largest, std::abs(e));
    ++count;
  }
  [[nodiscard]] double significant() const { return 4 * std::sqrt(sum2 / count); }
};

/// The significant value `4 sqrt(sum (a w^p)^2 / 2)` over the waves, times
/// `(w W)^q` inside the sum: the size of a blend's error on a random sea.
double significantSum(const std::vector<WaveComponent>& waves, int p, int q, double w_s) {
  double sum = 0;
  for (const WaveComponent& c : waves) {
    const double term = c.amplitude_m * std::pow(c.angularFrequency_radps, p) *
                        std::pow(c.angularFrequency_radps * w_s, q);
    sum += term * term / 2;
  }
  return 4 * std::sqrt(sum);
}

/// The significant value over the waves of the accelerations' blend error
/// at the middle of a cell of `w_s` (the test below).
double significantAccelerationBlend(const SpectralOcean& ocean, double w_s) {
  const detail::SpectralWaves& w = detail::oceanState(ocean).waves;
  double sum = 0;
  for (std::size_t q = 0; q < w.amplitude_m.size(); ++q) {
    const double a = std::abs(w.amplitude_m[q]), omega = w.angularFrequency_radps[q];
    const double band2 = w.bandAccelerationFrequency2_rad2ps2[w.band[q]];
    const double term = a * omega * omega * std::abs(1 - std::cos(omega * w_s / 2) * (1 + band2 * w_s * w_s / 8));
    sum += term * term / 2;
  }
  return 4 * std::sqrt(sum);
}

// At the middle of a lattice cell, where the blend errs most, against the
// tiles computed at that time: at fixed-point nodes (where the interpolation
// in space is exact, so only the blend in time differs). Cubic Hermite on
// heights and velocities errs on a wave by at most `a w^p (w W)^4 / 384`; the
// accelerations' linear blend, scaled by its band's `1 + w_b^2 W^2 / 8` at
// the middle, by `a w^2 |1 - cos(w W / 2) (1 + w_b^2 W^2 / 8)|` (the chord's
// middle is `cos(w W / 2)` of the arc's); over the random phases they add up
// as the waves do, to the significant sums; the choppy surface turns the displacement's error into a height
// error of the slope times it (docs/waves.md, "Bounds": the factor 1 + S).
// One term more at fixed points: each tile's resampling solved to 1e-4 m
// of rest position, which moves a height by the slope times it and a
// velocity by its gradient times it. (The velocities' slope there is their
// rate at the fixed point, the particle's acceleration less the advection
// `u_h . grad v`; with the acceleration alone the blend erred by up to
// `(4/27) W |u_h . grad v|`, 3.1e-4 of 4 sigma_u at its significant value.)
TEST(SpectralOceanLattice, TheTilePeriodErrsByLittle) {
  const WaveSpectrum spectrum = WaveSpectrum::jonswap(2.0, 7.0);
  const SpectralOceanSettings settings{.seed = 1};
  SpectralOcean ocean(spectrum, settings), exact(spectrum, settings);
  const double w_s = ocean.tilePeriod_s(), t_s = 100.5 * w_s;
  ocean.update(100.4 * w_s, 100.6 * w_s);
  detail::oceanState(exact).computeLevel(t_s, 0);  // its one published level
  const std::vector<WaveComponent> waves = ocean.components();
  double slope2 = 0, shear2 = 0;
  for (const WaveComponent& c : waves) {
    const double ka = c.wavenumber_radpm * c.amplitude_m;
    slope2 += ka * ka / 2;
    shear2 += ka * c.angularFrequency_radps * ka * c.angularFrequency_radps / 2;
  }
  const double slope = 4 * std::sqrt(slope2), shear_ps = 4 * std::sqrt(shear2), chop = 1 + slope;
  const double hs_m = ocean.significantWaveHeight_m(), sigmaU = significantSum(waves, 1, 0, 0),
               sigmaA = significantSum(waves, 2, 0, 0);
  const int m = detail::oceanState(ocean).fixedNodes;
  const double cell_m = ocean.tileSize_m() / m;
  Error height, velocity, acceleration;
  for (int j = 0; j < m; j += 3)
    for (int i = 0; i < m; i += 3) {
      const auto u = btScalar(i * cell_m), v = btScalar(j * cell_m);
      const btScalar h = ocean.height(u, v, t_s), he = exact.height(u, v, t_s);
      height.add(double(h) - double(he));
      const WaterVelocity a = ocean.velocity(u, v, h, t_s), b = exact.velocity(u, v, he, t_s);
      velocity.add(double(a.east_mps) - double(b.east_mps));
      velocity.add(double(a.up_mps) - double(b.up_mps));
      const WaterAcceleration c = ocean.acceleration(u, v, h, t_s), d = exact.acceleration(u, v, he, t_s);
      acceleration.add(double(c.east_mps2) - double(d.east_mps2));
      acceleration.add(double(c.up_mps2) - double(d.up_mps2));
    }
  const double heightBound = significantSum(waves, 0, 4, w_s) / 384 * chop + 2 * 1e-4 * slope,
               velocityBound = significantSum(waves, 1, 4, w_s) / 384 * chop + 2 * 1e-4 * shear_ps,
               accelerationBound = significantAccelerationBlend(ocean, w_s) * chop;
  std::printf(
      "[  figure  ] tile period %.4f s (%.2f frames at 60 Hz), blend error at a cell's middle, significant "
      "/ largest: height %.2e / %.2e of Hs (bound %.2e), surface velocity %.2e / %.2e of 4 sigma_u (bound "
      "%.2e), acceleration %.2e / %.2e of 4 sigma_a (bound %.2e)\n",
      w_s, 60 * w_s, height.significant() / hs_m, height.largest / hs_m, heightBound / hs_m,
      velocity.significant() / sigmaU, velocity.largest / sigmaU, velocityBound / sigmaU,
      acceleration.significant() / sigmaA, acceleration.largest / sigmaA, accelerationBound / sigmaA);
  EXPECT_LE(height.significant(), heightBound);
  EXPECT_LE(velocity.significant(), velocityBound);
  EXPECT_LE(acceleration.significant(), accelerationBound);
  // The fastest wave turns by a quarter radian a period.
  double fastest_radps = 0;
  for (const WaveComponent& c : waves) fastest_radps = std::max(fastest_radps, c.angularFrequency_radps);
  EXPECT_NEAR(fastest_radps * w_s, 0.25, 1e-12);
}

// The tiles are a function of their time alone, and a query's pair of tiles
// a function of the query's time: a game at 60 Hz, one at 144 Hz and one
// that updates over windows of 0.1 s read the same bits at a common time,
// and the tiles computed ahead in slices equal tiles computed at once.
TEST(SpectralOceanLattice, EveryFrameRateReadsTheSameBits) {
  const WaveSpectrum spectrum = WaveSpectrum::jonswap(2.0, 7.0);
  const SpectralOceanSettings settings{.nodesPerSide = 64, .seed = 2};
  SpectralOcean at60(spectrum, settings), at144(spectrum, settings), every6(spectrum, settings),
      fresh(spectrum, settings);
  int compared = 0;
  double t60 = 0, t144 = 0, t6 = 0;
  for (int frame = 1; frame <= 180; ++frame) {
    const double frame_s = 1.0 / 60;
    at60.update(t60, t60 + frame_s);
    while (t144 + 1.0 / 144 <= t60 + frame_s) {
      at144.update(t144, t144 + 1.0 / 144);
      t144 += 1.0 / 144;
    }
    if (frame % 6 == 1) {
      every6.update(t6, t6 + 0.1);
      t6 += 0.1;
    }
    const double t_s = t60 + 0.37 * frame_s;
    if (frame % 15 == 0 && t_s >= t144 - 1.0 / 144 && t_s <= t144 && t_s <= t6) {
      fresh.update(t_s, t_s);
      for (int i = 0; i < 16; ++i) {
        const auto u = btScalar(-31 + 7.3 * i), v = btScalar(12 - 3.1 * i);
        const btScalar h = at60.height(u, v, t_s);
        EXPECT_EQ(h, at144.height(u, v, t_s));
        EXPECT_EQ(h, every6.height(u, v, t_s));
        EXPECT_EQ(h, fresh.height(u, v, t_s));
        EXPECT_EQ(at60.velocity(u, v, h, t_s).up_mps, fresh.velocity(u, v, h, t_s).up_mps);
        ++compared;
      }
    }
    t60 += frame_s;
  }
  std::printf("[  figure  ] %d points compared at 60 Hz, 144 Hz, 0.1 s windows and a fresh ocean\n", compared);
  EXPECT_GE(compared, 64);
}

}  // namespace
}  // namespace keel::test
