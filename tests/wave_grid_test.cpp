// A sum of waves on a world-snapped grid (docs/waves.md, "Grids"):
// SineSumSurface::gridHeights against its heights() at the nodes, near and
// far from the origin, and the water patch that asks it
// (wave_grid_velocity_test.cpp: the patch's velocities).
#include "grid_sea.hpp"
#include "test_hulls.hpp"
#include "water/patch_sampler.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <string>
#include <vector>

namespace keel::test {
namespace {

double amplitudeSum_m(const std::vector<WaveComponent>& waves) {
  double sum = 0;
  for (const WaveComponent& c : waves) sum += c.amplitude_m;
  return sum;
}

/// The largest difference [m] between gridHeights() and heights() at the
/// nodes' coordinates (exact in float: multiples of the cell near the
/// origin, or of 0.5 m below 2^23 m).
double worstDifference_m(const WaterSurface& sea, const WaterGrid& grid, double t_s) {
  const auto count = std::size_t(grid.nodesU) * std::size_t(grid.nodesV);
  std::vector<btScalar> u, v, direct(count), fromGrid(count, std::numeric_limits<btScalar>::quiet_NaN());
  nodesOf(grid, u, v);
  sea.heights(u.data(), v.data(), count, t_s, direct.data());
  EXPECT_TRUE(sea.gridHeights(grid, t_s, fromGrid.data()));
  double worst = 0;
  for (std::size_t k = 0; k < count; ++k) worst = std::max(worst, std::abs(double(direct[k]) - double(fromGrid[k])));
  return worst;
}

TEST(SineSumGrid, MatchesHeightsAtTheNodes) {
  const auto waves = jonswap64();
  const SineSumSurface sea(waves, {.meanLevel_m = 0.3, .current = {0.4, -0.2}});
  const double sumA = amplitudeSum_m(waves);
  // Double: the recurrences' roundings (a few ulps per step, 25 steps) and
  // Sin against Cos. btScalar: the grid sums its n terms in btScalar, each
  // addition rounding by half an ulp of at most the amplitudes' sum
  // (recursive summation, Higham 2002, §4.2), its products and both
  // results' roundings two ulps more.
  const double bound = 1e-13 * sumA +
                       (0.5 * double(waves.size()) + 2) * double(std::numeric_limits<btScalar>::epsilon()) * sumA;
  const WaterGrid grid{.cellSize_m = 0.5, .originI = -74, .originJ = 23, .nodesU = 25, .nodesV = 19};
  for (const btScalar t : {btScalar(0), btScalar(30.5), btScalar(1000.25)}) {
    const double worst = worstDifference_m(sea, grid, t);
    EXPECT_LE(worst, bound) << "t = " << t;
    std::printf("[  figure  ] grid against heights() at t = %g s: worst %.3g m, bound %.3g m\n", double(t), worst,
                bound);
    RecordProperty("worst_m_t" + std::to_string(int(t)), std::to_string(worst));
  }
  // One node, one row, a column: the edges of the tables.
  EXPECT_LE(worstDifference_m(sea, {.cellSize_m = 1, .originI = 5, .originJ = -3, .nodesU = 1, .nodesV = 1}, 2), bound);
  EXPECT_LE(worstDifference_m(sea, {.cellSize_m = 1, .originI = 5, .originJ = -3, .nodesU = 17, .nodesV = 1}, 2),
            bound);
  EXPECT_LE(worstDifference_m(sea, {.cellSize_m = 1, .originI = 5, .originJ = -3, .nodesU = 1, .nodesV = 9}, 2), bound);
}

TEST(SineSumGrid, MatchesHeightsFarFromTheOrigin) {
  // 1,000 km out: phases of about 7e5 rad, which heights() hands to its
  // scalar code in double and the grid reduces modulo 2 pi. Both round
  // the phase k x to about 7e5 * 1.1e-16 rad.
  const auto waves = jonswap64();
  const SineSumSurface sea(waves);
  const double sumA = amplitudeSum_m(waves);
  const double bound = 1e-9 * sumA +
                       (0.5 * double(waves.size()) + 2) * double(std::numeric_limits<btScalar>::epsilon()) * sumA;
  const WaterGrid grid{.cellSize_m = 0.5, .originI = 2000000, .originJ = -1999990, .nodesU = 12, .nodesV = 12};
  EXPECT_LE(worstDifference_m(sea, grid, btScalar(12.5)), bound);
}

TEST(SineSumGrid, PatchSamplesTheGridAndKeepsNodesWhenItMoves) {
  const auto waves = jonswap64();
  const SineSumSurface sea(waves);
  const double sumA = amplitudeSum_m(waves);
  const double bound = 1e-13 * sumA + 2 * double(std::numeric_limits<btScalar>::epsilon()) * sumA;
  detail::PatchSampler patch;
  patch.configure(0.5f, 4.0f);
  patch.sample(sea, 10.1, -4.3, 3);
  const int n = patch.samplesPerSide();
  const WaterGrid grid{
      .cellSize_m = 0.5, .originI = patch.originI(), .originJ = patch.originJ(), .nodesU = n, .nodesV = n};
  std::vector<btScalar> expected(std::size_t(n * n));
  ASSERT_TRUE(sea.gridHeights(grid, 3, expected.data()));
  const std::vector<btScalar> first(patch.samples_m().begin(), patch.samples_m().end());
  EXPECT_EQ(first, expected);
  // Three cells east and one north: the nodes both grids hold agree (to
  // rounding: the recurrences start from other nodes).
  patch.sample(sea, 10.1 + 1.5, -4.3 + 0.5, 3);
  ASSERT_EQ(patch.originI(), grid.originI + 3);
  ASSERT_EQ(patch.originJ(), grid.originJ + 1);
  for (int j = 0; j + 1 < n; ++j)
    for (int i = 0; i + 3 < n; ++i)
      EXPECT_NEAR(patch.samples_m()[std::size_t(j * n + i)], first[std::size_t((j + 1) * n + i + 3)], bound);
}

}  // namespace
}  // namespace keel::test
