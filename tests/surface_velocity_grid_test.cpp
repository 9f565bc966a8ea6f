// The water's velocity on a patch's nodes from GerstnerSurface's grid query
// (heights and velocities at each depth from one solve per node) against its
// point queries, afresh and from the grid's history (docs/waves.md, "Grids").
#include "test_hulls.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <vector>

namespace keel::test {
namespace {

TEST(GerstnerGrid, HeightsAndVelocitiesAtEachDepthAreThePointQueries) {
  const auto sea = gerstnerSea(2.0, 7.0, 64, 5, 0.8);
  const WaterGrid grid{.cellSize_m = 0.75, .originI = -31, .originJ = 17, .nodesU = 9, .nodesV = 7};
  const double depths[] = {0, 0.5, 2, 8};
  const auto count = std::size_t(grid.nodesU * grid.nodesV);
  std::vector<btScalar> u, v, heights(count), fromGrid(count, std::numeric_limits<btScalar>::quiet_NaN());
  nodesOf(grid, u, v);
  std::vector<WaterVelocity> velocities(count * 4);
  const btScalar t = 12.5f;
  ASSERT_TRUE(sea->gridHeightsAndVelocities(grid, {.depths_m = depths, .out = velocities.data()}, t, fromGrid.data()));
  sea->heights(u.data(), v.data(), count, t, heights.data());
  EXPECT_EQ(fromGrid, heights);  // the same solve in the same lanes: the same bits
  // The point query at w = height - depth: its depth w - eta differs from
  // the grid's by w's rounding (an ulp of |eta| + depth), which moves each
  // component by k times that; and e^{-k d} from std::exp and from the
  // vector Exp differ by a few ulps.
  double bound = 0;
  for (const WaveComponent& c : sea->components())
    bound += c.amplitude_m * c.angularFrequency_radps *
             (c.wavenumber_radpm * double(std::numeric_limits<btScalar>::epsilon()) * 12 + 1e-14);
  double worst = 0;
  for (std::size_t m = 0; m < 4; ++m) {
    std::vector<btScalar> w(count);
    for (std::size_t k = 0; k < count; ++k) w[k] = btScalar(double(heights[k]) - depths[m]);
    std::vector<WaterVelocity> point(count);
    sea->velocities(u.data(), v.data(), w.data(), count, t, point.data());
    for (std::size_t k = 0; k < count; ++k) {
      const WaterVelocity& g = velocities[k * 4 + m];
      worst = std::max({worst, std::abs(double(g.east_mps - point[k].east_mps)),
                        std::abs(double(g.north_mps - point[k].north_mps)),
                        std::abs(double(g.up_mps - point[k].up_mps))});
    }
  }
  EXPECT_LE(worst, bound);
  std::printf("[  figure  ] Gerstner grid velocities against the point queries: worst %.3g m/s, bound %.3g m/s\n",
              worst, bound);
}

/// A grid solved from its history (GridHistory) against the same grid
/// solved afresh, sample after sample of a 60 Hz game: each node's rest
/// position within kGerstnerGridTolerance_m (1e-5 m), which moves its height
/// by less than that (|grad eta| < 1) and its velocity by less than sum a
/// omega k times it; plus the results' rounding to btScalar.
TEST(GerstnerGrid, StartsFromItsHistoryWithinItsToleranceAndAfreshWhenItMust) {
  const auto sea = gerstnerSea(2.0, 7.0, 64, 5, 0.8);
  const WaterGrid grid{.cellSize_m = 1.0, .originI = 12, .originJ = -40, .nodesU = 7, .nodesV = 7};
  const auto count = std::size_t(grid.nodesU * grid.nodesV);
  const double surface[] = {0};
  double speed = 0, strain = 0;  // sum a omega, sum a omega k
  for (const WaveComponent& c : sea->components()) {
    speed += c.amplitude_m * c.angularFrequency_radps;
    strain += c.amplitude_m * c.angularFrequency_radps * c.wavenumber_radpm;
  }
  const double eps = double(std::numeric_limits<btScalar>::epsilon());
  const double heightBound = 1e-5 + 4 * eps * 3, velocityBound = strain * 1e-5 + 4 * eps * speed;
  GridHistory history;
  std::vector<btScalar> warm(count), fresh(count);
  std::vector<WaterVelocity> warmV(count), freshV(count);
  double worstHeight = 0, worstVelocity = 0;
  bool anyDifferent = false;
  btScalar t = 30;
  for (int n = 0; n < 40; ++n, t += btScalar(1.0 / 60)) {
    ASSERT_TRUE(sea->gridHeightsAndVelocities(grid, {.depths_m = surface, .out = warmV.data(), .history = &history}, t,
                                              warm.data()));
    ASSERT_TRUE(sea->gridHeightsAndVelocities(grid, {.depths_m = surface, .out = freshV.data()}, t, fresh.data()));
    EXPECT_EQ(history.samples, std::uint32_t(n)) << "sample " << n << " started afresh";
    for (std::size_t k = 0; k < count; ++k) {
      worstHeight = std::max(worstHeight, std::abs(double(warm[k]) - double(fresh[k])));
      worstVelocity = std::max({worstVelocity, std::abs(double(warmV[k].east_mps - freshV[k].east_mps)),
                                std::abs(double(warmV[k].north_mps - freshV[k].north_mps)),
                                std::abs(double(warmV[k].up_mps - freshV[k].up_mps))});
      anyDifferent = anyDifferent || warm[k] != fresh[k];
    }
  }
  EXPECT_LE(worstHeight, heightBound);
  EXPECT_LE(worstVelocity, velocityBound);
  EXPECT_TRUE(anyDifferent);  // the history was used: not the fresh solve's bits everywhere
  std::printf("[  figure  ] grid from its history: worst height %.3g m (bound %.3g), velocity %.3g m/s (bound %.3g)\n",
              worstHeight, heightBound, worstVelocity, velocityBound);
  // Afresh: after a jump in time (phases moved beyond the step bound), on
  // another grid, for another surface, and on the 256th sample.
  const auto sampleAt = [&](const WaterGrid& g, btScalar time, const GerstnerSurface& s) {
    (void)s.gridHeightsAndVelocities(g, {.depths_m = surface, .out = warmV.data(), .history = &history}, time,
                                     warm.data());
    return history.samples;
  };
  EXPECT_EQ(sampleAt(grid, t + 10, *sea), 0u);
  EXPECT_EQ(sampleAt(grid, t + 10 + btScalar(1.0 / 60), *sea), 1u);
  WaterGrid moved = grid;
  moved.originI += 1;
  EXPECT_EQ(sampleAt(moved, t + 10 + btScalar(2.0 / 60), *sea), 0u);
  const auto other = gerstnerSea(2.0, 7.0, 64, 6, 0.8);
  EXPECT_EQ(sampleAt(moved, t + 10 + btScalar(3.0 / 60), *other), 0u);
  btScalar time = t + 11;  // a fresh start (the time jumped), then 255 from the last
  for (int n = 0; n < 256; ++n, time += btScalar(1.0 / 240)) (void)sampleAt(moved, time, *other);
  EXPECT_EQ(history.samples, 255u);
  EXPECT_EQ(sampleAt(moved, time, *other), 0u);  // after 255 from the last, afresh
}

}  // namespace
}  // namespace keel::test
