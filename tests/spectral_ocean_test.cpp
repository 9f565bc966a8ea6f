// keel::SpectralOcean against a direct sum of its own waves (the error
// table of docs/waves.md, "Spectral ocean"), and its periodicity, Hs,
// determinism, settings checks and update contract.
#include <keel/spectral_ocean.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

namespace keel::reference {
namespace {

/// A direct sum of the tile's waves with GerstnerSurface's convention:
/// the particle at rest at x0 is at x0 - lambda sum d a sin(theta), height
/// sum a cos(theta), theta = k d.x0 - omega t + phi. Its velocity and
/// acceleration are the time derivatives, each wave decaying as e^{k z}.
struct DirectSea {
  std::vector<WaveComponent> waves;
  double lambda;
  double meanLevel_m;

  struct Rest {
    double x0, y0, elevation;
  };

  /// Newton's method with step halving on the analytic sums, from x0 = x.
  [[nodiscard]] Rest restAbove(double x, double y, double t) const {
    double x0 = x, y0 = y;
    const auto eval = [&](double px, double py, double& fx, double& fy, double& jxx, double& jxy, double& jyy,
                          double& h) {
      fx = px - x, fy = py - y, jxx = 1, jxy = 0, jyy = 1, h = 0;
      for (const WaveComponent& c : waves) {
        const double th = c.wavenumber_radpm * (c.directionEast * px + c.directionNorth * py) -
                          c.angularFrequency_radps * t + c.phase_rad;
        const double s = std::sin(th), co = std::cos(th);
        fx -= lambda * c.amplitude_m * s * c.directionEast;
        fy -= lambda * c.amplitude_m * s * c.directionNorth;
        const double curv = lambda * c.amplitude_m * c.wavenumber_radpm * co;
        jxx -= curv * c.directionEast * c.directionEast;
        jxy -= curv * c.directionEast * c.directionNorth;
        jyy -= curv * c.directionNorth * c.directionNorth;
        h += c.amplitude_m * co;
      }
    };
    double fx, fy, jxx, jxy, jyy, h;
    eval(x0, y0, fx, fy, jxx, jxy, jyy, h);
    for (int it = 0; it < 60 && fx * fx + fy * fy > 1e-20; ++it) {
      const double det = jxx * jyy - jxy * jxy;
      const double sx = -(jyy * fx - jxy * fy) / det, sy = -(jxx * fy - jxy * fx) / det;
      bool improved = false;
      for (double frac = 1; frac > 1e-6 && !improved; frac /= 2) {
        double gx, gy, kxx, kxy, kyy, hh;
        eval(x0 + frac * sx, y0 + frac * sy, gx, gy, kxx, kxy, kyy, hh);
        if (gx * gx + gy * gy < fx * fx + fy * fy) {
          x0 += frac * sx, y0 += frac * sy, fx = gx, fy = gy, jxx = kxx, jxy = kxy, jyy = kyy, h = hh;
          improved = true;
        }
      }
      if (!improved) break;
    }
    return {x0, y0, h};
  }

  /// Velocity (derivative 1) or acceleration (2) at depth z below the surface.
  [[nodiscard]] std::array<double, 3> motion(const Rest& r, double w, double t, int derivative) const {
    const double z = std::min(w - (meanLevel_m + r.elevation), 0.0);
    std::array<double, 3> out{0, 0, 0};
    for (const WaveComponent& c : waves) {
      const double th = c.wavenumber_radpm * (c.directionEast * r.x0 + c.directionNorth * r.y0) -
                        c.angularFrequency_radps * t + c.phase_rad;
      const double decay = std::exp(c.wavenumber_radpm * z) * c.amplitude_m;
      const double om = c.angularFrequency_radps;
      // d/dt of (-lambda d sin, cos) at fixed x0, theta' = -omega.
      const double along = derivative == 1 ? lambda * om * std::cos(th) : lambda * om * om * std::sin(th);
      const double up = derivative == 1 ? om * std::sin(th) : -om * om * std::cos(th);
      out[0] += decay * along * c.directionEast;
      out[1] += decay * along * c.directionNorth;
      out[2] += decay * up;
    }
    return out;
  }
};

}  // namespace
}  // namespace keel::reference

namespace keel::test {
namespace {

using reference::DirectSea;

/// rms of the surface orbital speed's each component sum a^2 omega^2^(n) / 2, n = 1, 2.
double motionScale(const std::vector<WaveComponent>& waves, int derivative) {
  double sum = 0;
  for (const WaveComponent& c : waves)
    sum += c.amplitude_m * c.amplitude_m * std::pow(c.angularFrequency_radps, 2 * derivative) / 2;
  return 4 * std::sqrt(sum);
}

struct Errors {
  double height_m = 0;
  double velocity_mps[3] = {0, 0, 0};  // at the surface, Hs/4 and Hs below
  double acceleration_mps2[3] = {0, 0, 0};
};

double norm3(const std::array<double, 3>& a, btScalar e, btScalar n, btScalar u) {
  return std::sqrt(std::pow(a[0] - double(e), 2) + std::pow(a[1] - double(n), 2) + std::pow(a[2] - double(u), 2));
}

/// Largest differences from the direct sum at `points` random points of a
/// 2 km square at random times inside the published window.
Errors measure(const SpectralOcean& ocean, double hs_m, int points, std::uint32_t seed) {
  const DirectSea direct{ocean.components(), ocean.settings().choppiness, ocean.settings().meanLevel_m};
  const auto window = ocean.publishedTimes_s();
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> pos(-1000, 1000), when(window[0], window[1]);
  Errors e;
  const double depths[3] = {0.0, -0.25 * hs_m, -hs_m};
  for (int i = 0; i < points; ++i) {
    const auto u = btScalar(pos(rng)), v = btScalar(pos(rng)), t = btScalar(when(rng));
    const DirectSea::Rest r = direct.restAbove(double(u), double(v), double(t));
    const double h = direct.meanLevel_m + r.elevation;
    e.height_m = std::max(e.height_m, std::abs(double(ocean.height(u, v, t)) - h));
    for (int d = 0; d < 3; ++d) {
      const auto w = btScalar(h + depths[d]);
      const WaterVelocity vel = ocean.velocity(u, v, w, t);
      const WaterAcceleration acc = ocean.acceleration(u, v, w, t);
      e.velocity_mps[d] = std::max(
          e.velocity_mps[d], norm3(direct.motion(r, double(w), double(t), 1), vel.east_mps, vel.north_mps, vel.up_mps));
      e.acceleration_mps2[d] = std::max(e.acceleration_mps2[d], norm3(direct.motion(r, double(w), double(t), 2),
                                                                      acc.east_mps2, acc.north_mps2, acc.up_mps2));
    }
  }
  return e;
}

struct Case {
  const char* name;
  WaveSpectrum spectrum;
  SpectralOceanSettings settings;
};

/// Prints one row of the error table and returns the errors relative to Hs,
/// 4 sigma_u and 4 sigma_a.
Errors row(const Case& c, int points, double window_s = 1.0 / 60) {
  SpectralOcean ocean(c.spectrum, c.settings);
  ocean.update(100.0, 100.0 + window_s);  // queries at random times of a 60 Hz frame by default
  const Errors e = measure(ocean, c.spectrum.significantWaveHeight_m, points, 11);
  const auto waves = ocean.components();
  const double vs = motionScale(waves, 1), as = motionScale(waves, 2), hs = c.spectrum.significantWaveHeight_m;
  Errors r{e.height_m / hs, {}, {}};
  for (int d = 0; d < 3; ++d)
    r.velocity_mps[d] = e.velocity_mps[d] / vs, r.acceleration_mps2[d] = e.acceleration_mps2[d] / as;
  std::printf(
      "| %-24s | %4d | %-8s | %d | %5zu | %.2f%% | %.2f m/s | %.1f%% %.1f%% %.1f%% | %.2f m/s2 | %.1f%% %.1f%% "
      "%.1f%% |\n",
      c.name, c.settings.nodesPerSide,
      c.settings.interpolation == SpectralInterpolation::Bicubic ? "bicubic" : "bilinear", c.settings.velocityBands,
      waves.size(), 100 * r.height_m, vs, 100 * r.velocity_mps[0], 100 * r.velocity_mps[1], 100 * r.velocity_mps[2], as,
      100 * r.acceleration_mps2[0], 100 * r.acceleration_mps2[1], 100 * r.acceleration_mps2[2]);
  return r;
}

void header() {
  std::printf(
      "| sea | N | interpolation | bands | waves | height / Hs | 4 sigma_u | velocity / 4 sigma_u at 0, Hs/4, Hs "
      "deep | 4 sigma_a | acceleration / 4 sigma_a at 0, Hs/4, Hs deep |\n");
}

// The error table of docs/waves.md: largest differences from a direct sum of
// the tile's own waves at 150 random points of a 2 km square, at random
// times of a 1/60 s window, default settings (6 peak wavelengths, bicubic,
// 3 bands).
TEST(SpectralOcean, MatchesADirectSumOfItsWaves) {
  const Case cases[] = {
      {"JONSWAP Hs 1 m, Tp 5 s", WaveSpectrum::jonswap(1.0, 5.0), {.seed = 7}},
      {"JONSWAP Hs 2 m, Tp 7 s", WaveSpectrum::jonswap(2.0, 7.0), {.seed = 7}},
      {"PM Hs 8 m, Tp 12 s", WaveSpectrum::piersonMoskowitz(8.0, 12.0), {.seed = 7}},
      {"JONSWAP Hs 2 m, Tp 7 s", WaveSpectrum::jonswap(2.0, 7.0), {.nodesPerSide = 256, .seed = 7}},
  };
  header();
  for (const Case& c : cases) {
    const Errors r = row(c, 150);
    EXPECT_LE(r.height_m, 0.01) << c.name;
    EXPECT_LE(r.velocity_mps[0], 0.03) << c.name;
    EXPECT_LE(r.velocity_mps[2], 0.08) << c.name;
    EXPECT_LE(r.acceleration_mps2[0], 0.04) << c.name;
    EXPECT_LE(r.acceleration_mps2[2], 0.10) << c.name;
  }
}

// What interpolation and the number of bands buy: bilinear errs about 4
// times more than bicubic; more bands shrink the errors below the surface.
TEST(SpectralOcean, InterpolationAndBandsTradeCostForError) {
  const WaveSpectrum sea = WaveSpectrum::jonswap(2.0, 7.0);
  header();
  const Errors bilinear = row(
      {"JONSWAP Hs 2 m, Tp 7 s", sea, {.interpolation = SpectralInterpolation::Bilinear, .seed = 7}}, 60);
  const Errors bicubic = row({"JONSWAP Hs 2 m, Tp 7 s", sea, {.seed = 7}}, 60);
  const Errors oneBand = row({"JONSWAP Hs 2 m, Tp 7 s", sea, {.velocityBands = 1, .seed = 7}}, 60);
  const Errors sixBands = row({"JONSWAP Hs 2 m, Tp 7 s", sea, {.velocityBands = 6, .seed = 7}}, 60);
  // A window of 0.1 s (six 60 Hz frames between updates): Hermite keeps the
  // heights and velocities; the accelerations, linear in time, err by
  // a omega^2 dt^2 / 8 more.
  std::printf("window 0.1 s:\n");
  const Errors longWindow = row({"JONSWAP Hs 2 m, Tp 7 s", sea, {.seed = 7}}, 60, 0.1);
  EXPECT_LE(longWindow.height_m, 0.01);
  EXPECT_LE(longWindow.velocity_mps[0], 0.03);
  EXPECT_LE(longWindow.acceleration_mps2[0], 0.04);
  EXPECT_LT(2 * bicubic.height_m, bilinear.height_m);
  EXPECT_LT(sixBands.velocity_mps[2], oneBand.velocity_mps[2]);
  // A storm's sharp crests at fixed points: tiles of 1.5 nodes per FFT node
  // (the default) against 1, and the particle solve on the rest-position
  // tiles, which the fixed-point tiles replace.
  std::printf("PM Hs 8 m, Tp 12 s, 60 points:\n");
  const WaveSpectrum storm = WaveSpectrum::piersonMoskowitz(8.0, 12.0);
  const Errors coarse = row({"PM 8 m, refinement 1", storm, {.fixedPointRefinement = 1, .seed = 7}}, 60);
  const Errors refined = row({"PM 8 m, refinement 1.5", storm, {.seed = 7}}, 60);
  const Errors solved = row({"PM 8 m, particle solve", storm, {.query = SpectralQuery::ParticleSolve, .seed = 7}}, 60);
  EXPECT_LT(refined.height_m, coarse.height_m);
  EXPECT_LT(refined.velocity_mps[0], coarse.velocity_mps[0]);
  EXPECT_LE(refined.height_m, solved.height_m * 1.25);
}

}  // namespace
}  // namespace keel::test
