// keel::SpectralOcean's promises other than accuracy: periodicity, the tile's
// Hs against the spectrum's, determinism, settings checks, the update and
// query contract (docs/waves.md, "Spectral ocean").
#include <keel/spectral_ocean.hpp>

#include "water/spectral_detail.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <memory>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

namespace keel::test {
namespace {

/// A small ocean: quick to build, same code paths.
SpectralOcean smallOcean(std::uint64_t seed = 3) {
  return SpectralOcean(WaveSpectrum::jonswap(2.0, 7.0), {.nodesPerSide = 64, .seed = seed});
}

/// FNV-1a (Fowler, Noll, Vo) over the bits of the floats.
std::uint64_t hashOf(const std::vector<float>& values) {
  std::uint64_t h = 1469598103934665603ULL;
  for (float f : values) {
    std::uint32_t bits;
    std::memcpy(&bits, &f, sizeof bits);
    for (int i = 0; i < 4; ++i) h = (h ^ ((bits >> (8 * i)) & 0xFFu)) * 1099511628211ULL;
  }
  return h;
}

TEST(SpectralOcean, IsPeriodicOverItsTile) {
  SpectralOcean ocean = smallOcean();
  ocean.update(3.0, 3.0 + 1.0 / 60);
  const double tile = ocean.tileSize_m();
  const auto t = btScalar(3.005);
  // Points a whole number of tiles apart, where float holds both exactly
  // enough: the difference is the rounding of the positions only.
  for (double u : {1.25, 17.5, 40.0}) {
    for (double v : {-3.5, 22.0}) {
      const btScalar h = ocean.height(btScalar(u), btScalar(v), t);
      EXPECT_NEAR(h, ocean.height(btScalar(u + tile), btScalar(v), t), 1e-4);
      EXPECT_NEAR(h, ocean.height(btScalar(u), btScalar(v - 2 * tile), t), 1e-4);
      const WaterVelocity a = ocean.velocity(btScalar(u), btScalar(v), btScalar(-0.5), t);
      const WaterVelocity b = ocean.velocity(btScalar(u - tile), btScalar(v + tile), btScalar(-0.5), t);
      EXPECT_NEAR(a.east_mps, b.east_mps, 1e-4);
      EXPECT_NEAR(a.up_mps, b.up_mps, 1e-4);
    }
  }
}

TEST(SpectralOcean, HsMatchesTheSpectrum) {
  const WaveSpectrum spectrum = WaveSpectrum::jonswap(2.0, 7.0);
  for (std::uint64_t seed : {1u, 2u, 3u, 4u}) {
    const SpectralOcean ocean(spectrum, {.seed = seed});
    // The draw against its expectation: each wave's a^2/2 is exponential with
    // mean V, so sum a^2/2 has relative standard deviation
    // sqrt(sum V^2) / sum V, estimated by sqrt(sum (a^2/2)^2 / 2) / sum a^2/2.
    double sum = 0, sum2 = 0;
    for (const WaveComponent& c : ocean.components()) {
      const double x = c.amplitude_m * c.amplitude_m / 2;
      sum += x;
      sum2 += x * x;
    }
    const double relativeSigma = std::sqrt(sum2 / 2) / sum;
    const double ratio = ocean.significantWaveHeight_m() / ocean.expectedSignificantWaveHeight_m();
    // Hs is the square root: half the variance's relative deviation; 4 sigma.
    std::printf("seed %d: Hs %.4f m, expected %.4f m, sampling sigma %.2f%%\n", int(seed),
                ocean.significantWaveHeight_m(), ocean.expectedSignificantWaveHeight_m(), 100 * relativeSigma / 2);
    EXPECT_NEAR(ratio, 1.0, 4 * relativeSigma / 2) << "seed " << seed;
  }
  // The expectation against the spectrum: the tile keeps the waves from one
  // cell (2 pi / L) up to 3 omega_p here (2.3 for the default 128 nodes); the
  // JONSWAP spectrum holds 1.5% of its energy above 3 omega_p.
  const SpectralOcean wide(spectrum, {.nodesPerSide = 256});
  EXPECT_NEAR(wide.expectedSignificantWaveHeight_m() / spectrum.significantWaveHeight_m, 0.99, 0.01);
  const SpectralOcean fine(spectrum);
  std::printf("expected Hs / spectrum's: %.4f (N = 256), %.4f (N = 128)\n",
              wide.expectedSignificantWaveHeight_m() / spectrum.significantWaveHeight_m,
              fine.expectedSignificantWaveHeight_m() / spectrum.significantWaveHeight_m);
  EXPECT_NEAR(fine.expectedSignificantWaveHeight_m() / spectrum.significantWaveHeight_m, 0.98, 0.015);
}

// The tile of a seed is the same bits on every run and machine (the random
// numbers are Keel's own, and so is the FFT, math/fft2d.hpp). The constant is
// the hash recorded when the tile was written: it changes only if the waves do.
TEST(SpectralOcean, IsDeterministicForASeed) {
  SpectralOcean ocean = smallOcean(42);
  SpectralOcean again = smallOcean(42);
  EXPECT_EQ(hashOf(detail::elevationTile_m(ocean)), hashOf(detail::elevationTile_m(again)));
  EXPECT_NE(hashOf(detail::elevationTile_m(ocean)), hashOf(detail::elevationTile_m(smallOcean(43))));
  // The tile at 12.5 s itself (update() computes tiles at multiples of the
  // tile period only): the same bits as before the lattice.
  detail::oceanState(ocean).computeLevel(12.5, 0);
  const std::uint64_t recorded = 0x11187b50b965fe71ULL;
  std::printf("tile hash at t = 12.5 s: 0x%016llx\n",
              static_cast<unsigned long long>(hashOf(detail::elevationTile_m(ocean))));
  EXPECT_EQ(hashOf(detail::elevationTile_m(ocean)), recorded);
}

TEST(SpectralOcean, RejectsBadSettingsClearly) {
  const WaveSpectrum sea = WaveSpectrum::jonswap(2.0, 7.0);
  const auto message = [&](const SpectralOceanSettings& s, const WaveSpectrum& spectrum) {
    try {
      SpectralOcean ocean(spectrum, s);
    } catch (const std::invalid_argument& e) {
      return std::string(e.what());
    }
    return std::string("no exception");
  };
  const auto expectMessage = [&](const SpectralOceanSettings& s, const char* word, const WaveSpectrum& spectrum) {
    const std::string m = message(s, spectrum);
    EXPECT_NE(m.find("keel::SpectralOcean"), std::string::npos) << m;
    EXPECT_NE(m.find(word), std::string::npos) << m;
  };
  expectMessage({.nodesPerSide = 15}, "nodesPerSide", sea);
  expectMessage({.nodesPerSide = 2048}, "nodesPerSide", sea);
  expectMessage({.tileSize_m = -5}, "tileSize_m", sea);
  expectMessage({.tileSize_m = NAN}, "tileSize_m", sea);
  expectMessage({.choppiness = 1.5}, "choppiness", sea);
  expectMessage({.velocityBands = 0}, "velocityBands", sea);
  expectMessage({.velocityBands = 9}, "velocityBands", sea);
  expectMessage({.meanLevel_m = INFINITY}, "meanLevel_m", sea);
  expectMessage({.spreadingExponent = INFINITY}, "spreadingExponent", sea);
  expectMessage({.spreadingExponent = -1}, "spreadingExponent", sea);
  expectMessage({.maxFrequencyRatio = 1}, "maxFrequencyRatio", sea);
  expectMessage({.gravity_mps2 = 0}, "gravity", sea);
  expectMessage({}, "significantWaveHeight_m", WaveSpectrum::jonswap(-1.0, 7.0));
  expectMessage({}, "gamma", WaveSpectrum::jonswap(1.0, 7.0, 9.0));
  SpectralOcean ocean = smallOcean();
  EXPECT_THROW(ocean.update(2.0, 1.0), std::invalid_argument);
  EXPECT_THROW(ocean.update(NAN, 1.0), std::invalid_argument);
  EXPECT_THROW(ocean.prepare(0.0, INFINITY), std::invalid_argument);
}

TEST(SpectralOcean, QueriesInterpolateThePublishedTilesInTime) {
  SpectralOcean ocean = smallOcean();
  const auto u = btScalar(10.5), v = btScalar(-7.25), w = btScalar(-1.0);
  // Before any update: the tiles at t = 0, whatever the time asked.
  EXPECT_EQ(ocean.height(u, v, btScalar(0)), ocean.height(u, v, btScalar(5)));
  // The tiles lie on the lattice of the tile period W: a window inside the
  // cell [10 W, 11 W] publishes those two.
  const double w_s = ocean.tilePeriod_s();
  ocean.update(10.2 * w_s, 10.7 * w_s);
  EXPECT_EQ(ocean.publishedTimes_s()[0], 10 * w_s);
  EXPECT_EQ(ocean.publishedTimes_s()[1], 11 * w_s);
  SpectralOcean at10 = smallOcean(), at11 = smallOcean();
  at10.update(10 * w_s, 10 * w_s);
  at11.update(11 * w_s, 11 * w_s);
  // At the tiles' times exactly their values; outside their span clamped.
  EXPECT_EQ(ocean.height(u, v, 10 * w_s), at10.height(u, v, 0.0));
  EXPECT_EQ(ocean.height(u, v, 11 * w_s), at11.height(u, v, 0.0));
  EXPECT_EQ(ocean.height(u, v, 9 * w_s), at10.height(u, v, 0.0));
  EXPECT_EQ(ocean.height(u, v, 20 * w_s), at11.height(u, v, 0.0));
  // The answer at a time depends on the time only, not on the window: a
  // game at another frame rate, or one that updates over several frames,
  // reads the same bits (a window across a lattice time publishes three).
  SpectralOcean other = smallOcean();
  other.update(10.5 * w_s, 11.3 * w_s);
  EXPECT_EQ(other.publishedTimes_s()[1], 12 * w_s);
  EXPECT_EQ(other.height(u, v, 10.6 * w_s), ocean.height(u, v, 10.6 * w_s));
  SpectralOcean third = smallOcean();
  third.update(11.1 * w_s, 11.25 * w_s);
  EXPECT_EQ(other.height(u, v, 11.2 * w_s), third.height(u, v, 11.2 * w_s));
  // prepare() alone leaves the published tiles to the queries.
  const btScalar before = ocean.height(u, v, 10.4 * w_s);
  SpectralOcean moved = std::move(ocean);  // a moved ocean answers as before
  EXPECT_EQ(moved.height(u, v, 10.4 * w_s), before);
  ocean = std::move(moved);
  ocean.prepare(11.5 * w_s, 12 * w_s);
  EXPECT_EQ(ocean.height(u, v, 10.4 * w_s), before);
  EXPECT_EQ(ocean.publishedTimes_s()[0], 10 * w_s);
  ocean.publish();
  EXPECT_EQ(ocean.publishedTimes_s()[0], 11 * w_s);
  EXPECT_EQ(ocean.publishedTimes_s()[1], 12 * w_s);
  // A reused tile (and the one computed ahead) is the same as a fresh one.
  SpectralOcean fresh = smallOcean();
  fresh.update(11.5 * w_s, 12 * w_s);
  EXPECT_EQ(ocean.height(u, v, 11.7 * w_s), fresh.height(u, v, 11.7 * w_s));
  EXPECT_EQ(other.height(u, v, 11.7 * w_s), fresh.height(u, v, 11.7 * w_s));
  const WaterVelocity a = ocean.velocity(u, v, w, 11.7 * w_s), b = fresh.velocity(u, v, w, 11.7 * w_s);
  EXPECT_EQ(a.east_mps, b.east_mps);
  EXPECT_EQ(a.up_mps, b.up_mps);
  // A window longer than two cells takes its tiles at its ends.
  ocean.update(1.5, 2.0);
  EXPECT_EQ(ocean.publishedTimes_s()[0], 1.5);
  EXPECT_EQ(ocean.publishedTimes_s()[1], 2.0);
}

// A WaterAction's clock sums btScalar substeps in double: in float a frame of
// four 1/240 s substeps ends about 1e-9 s from where the window of update()
// before ended (and near 1e6 s the double clock's own roundings add 1e-10 s
// each). The lattice's tiles do not follow the clock: every frame reads the
// tiles of its lattice cells, the same bits as an ocean updated over exact
// windows, and a clock within the tolerance past a lattice time counts as on
// it (no third tile).
TEST(SpectralOcean, AFloatClockReadsTheLatticeTiles) {
  SpectralOcean ocean = smallOcean();
  const double frame_s = 1.0 / 60, w_s = ocean.tilePeriod_s();
  const auto substep_s = btScalar(frame_s / 4);
  constexpr int kFrames = 60;
  for (const double start_s : {0.0, 1e6}) {
    double clock_s = start_s;
    ocean.update(clock_s, clock_s + frame_s);
    double largestGap_s = 0;
    for (int frame = 0; frame < kFrames; ++frame) {
      for (int k = 0; k < 4; ++k) clock_s += double(substep_s);  // WaterAction::updateAction
      ocean.update(clock_s, clock_s + frame_s);
      const std::array<double, 2> times = ocean.publishedTimes_s();
      EXPECT_EQ(times[0], std::floor(times[0] / w_s) * w_s);
      EXPECT_LE(times[1] - times[0], 2 * w_s * (1 + 1e-9));
      largestGap_s = std::max(largestGap_s, std::max(times[0] - clock_s, clock_s + frame_s - times[1]));
    }
    std::printf("[  figure  ] clock from %g s: the window lies at most %.3g s outside its tiles' span\n", start_s,
                largestGap_s);
    EXPECT_LE(largestGap_s, detail::oceanState(ocean).tileTimeTolerance_s);
    SpectralOcean fresh = smallOcean();
    fresh.update(clock_s + 0.25 * frame_s, clock_s + 0.5 * frame_s);
    for (int i = 0; i < 64; ++i) {
      const auto u = btScalar(-40 + 1.37 * i), v = btScalar(25 - 0.83 * i);
      const double t_s = clock_s + 0.3 * frame_s;
      EXPECT_EQ(ocean.height(u, v, t_s), fresh.height(u, v, t_s));
    }
  }
}

TEST(SpectralOcean, BatchesAndThreadsGiveTheSinglePointBits) {
  SpectralOcean ocean = smallOcean();
  ocean.update(4.0, 4.0 + 1.0 / 60);
  constexpr std::size_t kCount = 257;
  std::vector<btScalar> u(kCount), v(kCount), w(kCount);
  for (std::size_t i = 0; i < kCount; ++i) {
    u[i] = btScalar(-300 + 2.37 * double(i));
    v[i] = btScalar(50 - 1.13 * double(i));
    w[i] = btScalar(-3 + 0.025 * double(i));
  }
  const auto t = btScalar(4.01);
  std::vector<btScalar> heights(kCount), heights2(kCount);
  std::vector<WaterVelocity> velocities(kCount), velocities2(kCount);
  std::vector<WaterAcceleration> accelerations(kCount);
  ocean.heights(u.data(), v.data(), kCount, t, heights.data());
  ocean.velocities(u.data(), v.data(), w.data(), kCount, t, velocities.data());
  ocean.heightsAndVelocities(u.data(), v.data(), w.data(), kCount, t, heights2.data(), velocities2.data());
  ocean.accelerations(u.data(), v.data(), w.data(), kCount, t, accelerations.data());
  for (std::size_t i = 0; i < kCount; ++i) {
    EXPECT_EQ(heights[i], ocean.height(u[i], v[i], t));
    EXPECT_EQ(heights2[i], heights[i]);
    const WaterVelocity one = ocean.velocity(u[i], v[i], w[i], t);
    EXPECT_EQ(velocities[i].north_mps, one.north_mps);
    EXPECT_EQ(velocities2[i].up_mps, one.up_mps);
    EXPECT_EQ(accelerations[i].east_mps2, ocean.acceleration(u[i], v[i], w[i], t).east_mps2);
  }
  // Four threads querying at once get the same bits.
  std::vector<std::vector<btScalar>> perThread(4, std::vector<btScalar>(kCount));
  std::vector<std::thread> threads;
  for (std::size_t k = 0; k < perThread.size(); ++k)
    threads.emplace_back([&, k] { ocean.heights(u.data(), v.data(), kCount, t, perThread[k].data()); });
  for (std::thread& thread : threads) thread.join();
  for (const auto& result : perThread) EXPECT_EQ(result, heights);
}

// docs/waves.md, "Spectral ocean", shows this code (between the markers).
TEST(SpectralOcean, DocumentationExampleRuns) {
  const auto frame_s = 1.0 / 60;
  double clock_s = 0;
  // example begin
  auto ocean = std::make_shared<keel::SpectralOcean>(
      keel::WaveSpectrum::jonswap(2.0, 7.0),
      keel::SpectralOceanSettings{.nodesPerSide = 128, .meanDirection_rad = 0.3, .seed = 1});
  std::shared_ptr<const keel::WaterSurface> sea = ocean;  // for WaterAction, WaterFleet, rendering
  // Every frame, before stepSimulation(frame_s): the frame's window.
  ocean->update(clock_s, clock_s + frame_s);
  // example end
  EXPECT_EQ(ocean->publishedTimes_s()[0], 0.0);
  EXPECT_EQ(ocean->publishedTimes_s()[1], ocean->tilePeriod_s());
  EXPECT_TRUE(std::isfinite(sea->height(btScalar(3), btScalar(4), btScalar(0.01))));
}

}  // namespace
}  // namespace keel::test
