// keel::SpectralOcean against input a game should not send: grids it cannot
// read, settings whose tile holds no wave or needs more memory than any
// machine has, windows too long to interpolate, a moved-from ocean. Each is
// refused with the bad argument named, or answered with finite values
// (docs/waves.md, "Spectral ocean", "Bounds").
#include <keel/level_of_detail.hpp>
#include <keel/spectral_ocean.hpp>
#include <keel/surface_authoring.hpp>
#include <keel/waves.hpp>

#include "water/spectral_grid.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <stdexcept>
#include <string>
#include <thread>
#include <utility>
#include <vector>

namespace keel::test {
namespace {

SpectralOcean smallOcean(SpectralOceanSettings settings = {.nodesPerSide = 16}) {
  return SpectralOcean(WaveSpectrum::jonswap(2.0, 7.0), settings);
}

/// The message of the std::invalid_argument `f` throws, or "no exception".
template <class F>
std::string refusal(F f) {
  try {
    f();
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "no exception";
}

/// True when the message names every word.
::testing::AssertionResult names(const std::string& message, std::initializer_list<const char*> words) {
  for (const char* w : words)
    if (message.find(w) == std::string::npos)
      return ::testing::AssertionFailure() << "\"" << w << "\" not in: " << message;
  return ::testing::AssertionSuccess();
}

TEST(SpectralOceanHardening, GridQueriesRefuseGridsTheyCannotRead) {
  const SpectralOcean ocean = smallOcean();
  std::vector<btScalar> out(64);
  std::vector<WaterVelocity> velocities(64);
  const double depths[] = {0, 1};
  const auto grid = [&](WaterGrid g) { return refusal([&] { (void)ocean.gridHeights(g, 0, out.data()); }); };
  // A negative cell wrote before the heap block of its weights (ASan), a
  // huge one indexed far outside the tile.
  EXPECT_TRUE(names(grid({.cellSize_m = -1, .nodesU = 4, .nodesV = 4}), {"WaterGrid::cellSize_m is -1"}));
  EXPECT_TRUE(names(grid({.cellSize_m = 0, .nodesU = 4, .nodesV = 4}), {"WaterGrid::cellSize_m is 0"}));
  EXPECT_TRUE(names(grid({.cellSize_m = NAN, .nodesU = 4, .nodesV = 4}), {"cellSize_m is nan"}));
  EXPECT_TRUE(names(grid({.cellSize_m = 1e300, .originI = 1 << 30, .nodesU = 4, .nodesV = 4}), {"cellSize_m"}));
  EXPECT_TRUE(names(grid({.cellSize_m = 1e20, .nodesU = 4, .nodesV = 4}), {"cellSize_m is 1e+20 m", "2^52"}));
  EXPECT_TRUE(names(grid({.cellSize_m = 1, .nodesU = -3, .nodesV = 4}), {"WaterGrid::nodesU is -3"}));
  EXPECT_TRUE(
      names(grid({.cellSize_m = 1, .originI = std::numeric_limits<std::int64_t>::max(), .nodesU = 4, .nodesV = 4}),
            {"WaterGrid::originI"}));
  const WaterGrid fine{.cellSize_m = 0.5, .nodesU = 4, .nodesV = 4};
  const double bad[] = {0, NAN};
  EXPECT_TRUE(names(refusal([&] {
                      (void)ocean.gridHeightsAndVelocities(fine, {.depths_m = bad, .out = velocities.data()}, 0,
                                                           out.data());
                    }),
                    {"GridVelocities::depths_m[1] is nan"}));
  EXPECT_TRUE(names(
      refusal([&] { (void)ocean.gridHeightsAndVelocities(fine, {.depths_m = depths, .out = nullptr}, 0, out.data()); }),
      {"GridVelocities::out"}));
  EXPECT_TRUE(names(refusal([&] { (void)ocean.gridHeights(fine, NAN, out.data()); }), {"t_s is nan"}));
  EXPECT_TRUE(names(refusal([&] { (void)ocean.height(0, 0, INFINITY); }), {"t_s is inf"}));
  // The sines and Gerstner seas share the grid's checks.
  const SineSumSurface sines({deepWaterWave(1, 40, 0.3)});
  EXPECT_TRUE(names(refusal([&] {
                      (void)sines.gridHeights({.cellSize_m = 1e300, .originI = 9, .nodesU = 2, .nodesV = 2}, 0,
                                              out.data());
                    }),
                    {"keel::SineSumSurface::gridHeights", "WaterGrid::cellSize_m is 1e+300 m"}));
  const GerstnerSurface gerstner({deepWaterWave(1, 40, 0.3)});
  EXPECT_TRUE(names(refusal([&] {
                      (void)gerstner.gridHeightsAndVelocities(fine, {.depths_m = bad, .out = velocities.data()}, 0,
                                                              out.data());
                    }),
                    {"keel::GerstnerSurface::gridHeightsAndVelocities", "depths_m[1] is nan"}));
}

/// Heights of `grid` by point queries at its nodes.
std::vector<btScalar> pointHeights(const SpectralOcean& ocean, const WaterGrid& grid, double t_s) {
  std::vector<btScalar> out;
  for (int j = 0; j < grid.nodesV; ++j)
    for (int i = 0; i < grid.nodesU; ++i) out.push_back(ocean.height(grid.u_m(i), grid.v_m(j), t_s));
  return out;
}

// A grid whose cell spans many tile cells (a far boat's patch on a fine
// tile) blended every tile node under it: its scratch grew as (extent /
// tile cell)^2 per thread. It now reads each node's stencil alone.
TEST(SpectralOceanHardening, CoarseGridsOnFineTilesNeedLittleScratch) {
  SpectralOcean ocean(WaveSpectrum::jonswap(1.0, 3.0), {.nodesPerSide = 128});
  ocean.update(5.0, 5.0 + 1.0 / 60);
  // farBoatSettings' cell for a 150 m hull: 1.01 times its bounding radius.
  const WaterGrid patch{.cellSize_m = 1.01 * 75, .originI = -2, .originJ = -2, .nodesU = 5, .nodesV = 5};
  const WaterGrid wide{.cellSize_m = 500, .originI = 3, .originJ = -9, .nodesU = 16, .nodesV = 16};
  for (const WaterGrid& grid : {patch, wide}) {
    std::vector<btScalar> heights(std::size_t(grid.nodesU * grid.nodesV));
    std::vector<WaterVelocity> velocities(heights.size() * 2);
    const double depths[] = {0, 2};
    std::size_t scratch_bytes = 0;
    std::thread([&] {
      ASSERT_TRUE(
          ocean.gridHeightsAndVelocities(grid, {.depths_m = depths, .out = velocities.data()}, 5.01, heights.data()));
      scratch_bytes = detail::spectralGridScratch_bytes();
    }).join();
    EXPECT_LT(scratch_bytes, 16u * 1024) << "cell " << grid.cellSize_m << " m";
    const std::vector<btScalar> expected = pointHeights(ocean, grid, 5.01);
    for (std::size_t k = 0; k < heights.size(); ++k) {
      EXPECT_NEAR(heights[k], expected[k], 1e-6 * (1 + std::abs(expected[k])));
      const int i = int(k) % grid.nodesU, j = int(k) / grid.nodesU;
      const WaterVelocity v = ocean.velocity(grid.u_m(i), grid.v_m(j), heights[k] - btScalar(2), 5.01);
      EXPECT_NEAR(velocities[2 * k + 1].up_mps, v.up_mps, 1e-5);
      EXPECT_NEAR(velocities[2 * k + 1].east_mps, v.east_mps, 1e-5);
    }
  }
}

TEST(SpectralOceanHardening, AMovedFromOceanSaysSo) {
  SpectralOcean ocean = smallOcean();
  const SpectralOcean moved = std::move(ocean);
  EXPECT_TRUE(std::isfinite(moved.height(1, 2, 0)));
  btScalar out[4];
  const auto movedFrom = [&](auto f) {
    try {
      f();
    } catch (const std::logic_error& e) {
      return std::string(e.what()).find("moved from") != std::string::npos;
    }
    return false;
  };
  EXPECT_TRUE(movedFrom([&] { (void)ocean.height(1, 2, 0); }));
  EXPECT_TRUE(movedFrom([&] { (void)ocean.velocity(1, 2, 0, 0); }));
  EXPECT_TRUE(movedFrom([&] { (void)ocean.acceleration(1, 2, 0, 0); }));
  EXPECT_TRUE(movedFrom([&] { (void)ocean.gridHeights({.cellSize_m = 1, .nodesU = 2, .nodesV = 2}, 0, out); }));
  EXPECT_TRUE(movedFrom([&] { ocean.update(0, 0.01); }));
  EXPECT_TRUE(movedFrom([&] { (void)ocean.settings(); }));
  EXPECT_TRUE(movedFrom([&] { (void)ocean.components(); }));
  EXPECT_TRUE(movedFrom([&] { (void)ocean.queryCost(); }));
  ocean = smallOcean();  // assigning to it gives it a sea again
  EXPECT_TRUE(std::isfinite(ocean.height(1, 2, 0)));
}

// Such tiles were accepted, then answered NaN velocities, pressures and
// accelerations (the bands' wavenumbers of no wave).
TEST(SpectralOceanHardening, RefusesTilesThatHoldNoWave) {
  const auto build = [](const WaveSpectrum& spectrum, SpectralOceanSettings settings) {
    return refusal([&] { SpectralOcean ocean(spectrum, settings); });
  };
  const WaveSpectrum tenSeconds = WaveSpectrum::jonswap(2.0, 10.0);
  EXPECT_TRUE(names(build(tenSeconds, {.tileSize_m = 10, .nodesPerSide = 16}),
                    {"SpectralOceanSettings::tileSize_m is 10 m", "no wave"}));
  EXPECT_TRUE(names(build(tenSeconds, {.tileSize_m = 1, .nodesPerSide = 16}), {"tileSize_m is 1 m", "no wave"}));
  EXPECT_TRUE(names(build(tenSeconds, {.tileSize_m = 1e6, .nodesPerSide = 16}), {"tileSize_m is 1e+06 m"}));
  EXPECT_TRUE(names(build(tenSeconds, {.nodesPerSide = 16, .spreadingExponent = 1e300}),
                    {"SpectralOceanSettings::spreadingExponent is 1e+300", "no wave"}));
  // A narrow spreading the tile still resolves keeps its waves and its Hs.
  const SpectralOcean narrow(tenSeconds, {.nodesPerSide = 32, .spreadingExponent = 1e3});
  EXPECT_GT(narrow.significantWaveHeight_m(), 0.5);
  EXPECT_TRUE(std::isfinite(narrow.velocity(3, 4, -1, 0).east_mps));
}

TEST(SpectralOceanHardening, RefusesOutOfRangeEnumsAndNamesTheRightField) {
  const auto build = [](const WaveSpectrum& spectrum, SpectralOceanSettings settings) {
    return refusal([&] { SpectralOcean ocean(spectrum, settings); });
  };
  const WaveSpectrum sea = WaveSpectrum::jonswap(2.0, 7.0);
  EXPECT_TRUE(names(build(sea, {.nodesPerSide = 16, .interpolation = SpectralInterpolation(7)}),
                    {"SpectralOceanSettings::interpolation is 7"}));
  EXPECT_TRUE(
      names(build(sea, {.nodesPerSide = 16, .query = SpectralQuery(-1)}), {"SpectralOceanSettings::query is -1"}));
  // Tp = 1e300 s was refused for a tileSize_m the user left at 0.
  EXPECT_TRUE(names(build(WaveSpectrum::jonswap(2.0, 1e300), {.nodesPerSide = 16}),
                    {"WaveSpectrum::peakPeriod_s is 1e+300 s"}));
  EXPECT_TRUE(names(build(WaveSpectrum::jonswap(1e35, 7.0), {.nodesPerSide = 16}),
                    {"WaveSpectrum::significantWaveHeight_m is 1e+35 m", "peak wavelength"}));
}

// 1,024 nodes, 8 bands and refinement 4 ask 34 GB of tiles: refused with
// the figure before anything is allocated.
TEST(SpectralOceanHardening, RefusesSettingsAboveTheMemoryBound) {
  const std::string m = refusal([] {
    SpectralOcean ocean(WaveSpectrum::jonswap(2.0, 7.0),
                        {.nodesPerSide = 1024, .velocityBands = 8, .fixedPointRefinement = 4});
  });
  EXPECT_TRUE(names(m, {"nodesPerSide 1024", "need 33.77", "GB", "bound of 4 GB"}));
  EXPECT_NEAR(detail::spectralMemory_bytes({.nodesPerSide = 128}), 35.7e6, 1e5);  // docs/waves.md's figure
}

// A 10 s window erred by 6.7 m at its middle on a sea of Hs 3.7 m.
TEST(SpectralOceanHardening, RefusesUpdateWindowsTooLongToInterpolate) {
  SpectralOcean ocean(WaveSpectrum::jonswap(3.7, 8.0), {.nodesPerSide = 32});
  const double limit_s = ocean.longestUpdateWindow_s();
  EXPECT_EQ(limit_s, detail::oceanState(ocean).maxWindow_s);
  EXPECT_GT(limit_s, 0.1);  // six 60 Hz frames, as the demo updates
  EXPECT_LT(limit_s, 10.0);
  EXPECT_TRUE(names(refusal([&] { ocean.update(0, 10); }), {"from_s = 0 s to to_s = 10 s", "1% of Hs"}));
  EXPECT_TRUE(names(refusal([&] { ocean.prepare(-1e308, 1e308); }), {"spans inf s"}));
  ocean.update(0, 0.1);
  ocean.update(0.1, 0.1 + 0.99 * limit_s);
  EXPECT_TRUE(std::isfinite(ocean.height(0, 0, 0.5)));
}

// The bound holds where it matters, at the window's middle: over the
// longest window, the heights interpolated in time against the tile
// computed at that time, over the whole tile, err by at most 1% of Hs at
// their significant (4 rms) value; linear waves come close to it (the
// bound is tight), choppy ones keep within it (docs/waves.md, "Bounds").
TEST(SpectralOceanHardening, TheLongestWindowErrsByAtMostOnePercentOfHs) {
  for (const double choppiness : {0.0, 1.0}) {
    const SpectralOceanSettings settings{.nodesPerSide = 32, .choppiness = choppiness};
    SpectralOcean ocean(WaveSpectrum::jonswap(3.7, 8.0), settings), exact(WaveSpectrum::jonswap(3.7, 8.0), settings);
    const double window_s = ocean.longestUpdateWindow_s(), middle_s = window_s / 2;
    ocean.update(0, window_s);
    exact.update(middle_s, middle_s);
    const double cell_m = ocean.tileSize_m() / 64;
    double sum2 = 0;
    for (int i = 0; i < 64; ++i)
      for (int j = 0; j < 64; ++j) {
        const auto u = btScalar(i * cell_m), v = btScalar(j * cell_m);
        const double e = double(ocean.height(u, v, middle_s)) - double(exact.height(u, v, middle_s));
        sum2 += e * e;
      }
    const double error_m = 4 * std::sqrt(sum2 / (64 * 64)), bound_m = 0.01 * ocean.significantWaveHeight_m();
    std::printf("choppiness %g: window %.3f s, significant error at its middle %.4f m, 1%% of Hs %.4f m\n", choppiness,
                window_s, error_m, bound_m);
    EXPECT_LE(error_m, bound_m);
    if (choppiness == 0) {
      EXPECT_GE(error_m, 0.9 * bound_m);
    }
  }
}

}  // namespace
}  // namespace keel::test
