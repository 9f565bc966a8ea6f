// keel::SpectralOcean's grids of at most four nodes a row (a far boat's
// 4 x 4 patch) read each node's column taps in place rather than the dense
// column weights of wider grids (spectral_small_grid-inl.hpp, smallGrid): their
// heights and velocities are the same bits as those nodes' in a wider grid.
// Run on every instruction set by keel_every_simd_target.
#include "test_hulls.hpp"

#include <keel/spectral_ocean.hpp>

#include "water/spectral_grid.hpp"

#include <gtest/gtest.h>

#include <cstdio>
#include <cstring>
#include <random>
#include <span>
#include <vector>

namespace keel::test {
namespace {

/// A grid's heights and velocities (at `depths`, of `window`'s nodes), as
/// asked of `ocean` at `t_s`; no depths: gridHeights.
struct Answer {
  std::vector<btScalar> heights;
  std::vector<WaterVelocity> velocities;
};

Answer ask(const SpectralOcean& ocean, const WaterGrid& g, std::span<const double> depths, GridWindow window,
           double t_s) {
  const auto nodes = std::size_t(g.nodesU * g.nodesV);
  Answer a{std::vector<btScalar>(nodes), std::vector<WaterVelocity>(nodes * depths.size())};
  if (depths.empty())
    EXPECT_TRUE(ocean.gridHeights(g, t_s, a.heights.data()));
  else
    EXPECT_TRUE(ocean.gridHeightsAndVelocities(g, {.depths_m = depths, .out = a.velocities.data(), .window = window},
                                               t_s, a.heights.data()));
  return a;
}

bool sameBits(const void* a, const void* b, std::size_t bytes) { return std::memcmp(a, b, bytes) == 0; }

// Grids of 1 to 4 nodes a row and 1 to 6 rows, at cells from a sixth of a
// fixed-point tile cell to five of them, far from the origin and across the
// tile's edge, with 0, 1, 3, 6 and 10 depths in random windows, on oceans of
// 1, 3, 5 and 8 velocity bands (8: a node's 24 fields fill whole vectors),
// bicubic and bilinear: each node's height and velocities are the bits of
// the same node in a grid of 4 more nodes a row from the same origin, which
// sums the dense column weights (one job with its window: at most 8 nodes
// a row).
TEST(SpectralSmallGrid, RowsOfFourNodesAreTheWiderGridsBits) {
  struct Sea {
    int bands;
    SpectralInterpolation interpolation;
  };
  const Sea seas[] = {{3, SpectralInterpolation::Bicubic},
                      {5, SpectralInterpolation::Bilinear},
                      {1, SpectralInterpolation::Bicubic},
                      {8, SpectralInterpolation::Bicubic}};
  const double depths[] = {0, 0.3, 0.6, 1.2, 2.4, 4.8, 9.6, 13, 20, 40};
  const std::size_t depthCounts[] = {0, 1, 3, 6, 10};
  const double cells_m[] = {0.4, 1.0, 2.5, 5.5, 12.0};  // the fixed-point cell is 2.39 m
  std::mt19937 random(17);
  std::size_t heights = 0, velocities = 0;
  for (const Sea& sea : seas) {
    SpectralOcean ocean(WaveSpectrum::jonswap(2.0, 7.0),
                        {.velocityBands = sea.bands, .interpolation = sea.interpolation, .seed = 5});
    ocean.update(2.0, 2.0 + 1.0 / 60);
    for (int trial = 0; trial < 60; ++trial) {
      const int nodesU = 1 + int(random() % 4), nodesV = 1 + int(random() % 6);
      const auto origin = [&] { return std::int64_t(random() % 20001) - 10000; };
      const WaterGrid small{.cellSize_m = cells_m[random() % 5],
                            .originI = origin(),
                            .originJ = origin(),
                            .nodesU = nodesU,
                            .nodesV = nodesV};
      WaterGrid wide = small;
      wide.nodesU = nodesU + 4;
      const std::size_t count = depthCounts[random() % 5];
      const int firstU = int(random() % unsigned(nodesU)), firstV = int(random() % unsigned(nodesV));
      const GridWindow window{.firstU = firstU,
                              .firstV = firstV,
                              .nodesU = 1 + int(random() % unsigned(nodesU - firstU)),
                              .nodesV = 1 + int(random() % unsigned(nodesV - firstV))};
      const std::span<const double> asked(depths, count);
      const Answer a = ask(ocean, small, asked, window, 2.007), b = ask(ocean, wide, asked, window, 2.007);
      for (int j = 0; j < nodesV; ++j)
        for (int i = 0; i < nodesU; ++i) {
          const auto at = std::size_t(j * nodesU + i), wideAt = std::size_t(j * wide.nodesU + i);
          EXPECT_TRUE(sameBits(&a.heights[at], &b.heights[wideAt], sizeof(btScalar)))
              << "height of node " << i << ", " << j << " of " << nodesU << " x " << nodesV << ", cell "
              << small.cellSize_m << " m, " << sea.bands << " bands";
          ++heights;
          const bool inWindow = i >= window.firstU && i < window.firstU + window.nodesU && j >= window.firstV &&
                                j < window.firstV + window.nodesV;
          if (!inWindow || count == 0) continue;
          EXPECT_TRUE(sameBits(&a.velocities[at * count], &b.velocities[wideAt * count], count * sizeof(WaterVelocity)))
              << "velocities of node " << i << ", " << j << " of " << nodesU << " x " << nodesV << ", cell "
              << small.cellSize_m << " m, " << count << " depths, " << sea.bands << " bands";
          velocities += count;
        }
    }
  }
  std::printf(
      "[  figure  ] %zu heights and %zu velocities of grids of 1 to 4 nodes a row, each the wider grid's bits\n",
      heights, velocities);
}

}  // namespace
}  // namespace keel::test
