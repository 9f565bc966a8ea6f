// The spectral ocean's grid queries at one time from many threads share one
// blend of the published tiles in time (docs/waves.md, "Spectral ocean",
// "Queries": the blended tile): each plane is blended once a time, however
// many threads ask it, and every thread's grids are the same bits as a grid
// alone, which blends its own block.
#include <keel/spectral_ocean.hpp>
#include <keel/surface_authoring.hpp>

#include "water/blended_tile.hpp"
#include "water/spectral_detail.hpp"

#include <gtest/gtest.h>

#include <barrier>
#include <cstddef>
#include <cstdio>
#include <cstring>
#include <span>
#include <thread>
#include <vector>

namespace keel::test {
namespace {

constexpr int kGrids = 400;  // enough far boats' grids for a thread to want the planes whole

/// Grid `b` of a fleet of far boats: 4 x 4 nodes of 5.5 m, the velocities of
/// the middle 2 x 2 at the surface.
WaterGrid farGrid(int b) {
  return {.cellSize_m = 5.5, .originI = 7 * b - 40, .originJ = 3 * b + 11, .nodesU = 4, .nodesV = 4};
}

/// Grids [first, last) at `t_s`: every height, then every velocity, in order.
std::vector<btScalar> askFleet(const SpectralOcean& ocean, double t_s, int first, int last) {
  const double surface[] = {0};
  std::vector<btScalar> out;
  for (int b = first; b < last; ++b) {
    btScalar heights[16];
    WaterVelocity velocities[16];
    EXPECT_TRUE(ocean.gridHeightsAndVelocities(
        farGrid(b), {.depths_m = surface, .out = velocities, .window = {1, 1, 2, 2}}, t_s, heights));
    out.insert(out.end(), heights, heights + 16);
    for (const int node : {5, 6, 9, 10})
      out.insert(out.end(), {velocities[node].east_mps, velocities[node].north_mps, velocities[node].up_mps});
  }
  return out;
}

bool sameBits(const std::vector<btScalar>& a, const std::vector<btScalar>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(btScalar)) == 0;
}

// Seven threads at five times at once, each holding on to its planes until
// all have asked: the two threads at each of two times share their time's
// planes, four times' planes are blended once each (the elevations and the
// bands' velocities, 8 blends, where each thread's own would make 14), and
// the fifth time's threads, finding every shared set read at other times,
// blend their own. Every thread's grids are the same bits as each grid
// alone on a fresh thread (its own block's blend).
TEST(SpectralBlendedTile, ThreadsAtOneTimeShareOneBlendOfTheSameBits) {
  SpectralOcean ocean(WaveSpectrum::jonswap(2.0, 7.0), {.tileSize_m = 96,
                                                        .nodesPerSide = 64,
                                                        .query = SpectralQuery::FixedPointTiles,
                                                        .fixedPointRefinement = 1.5,
                                                        .seed = 9});
  ocean.update(3.0, 3.0 + 1.0 / 60);
  const double times[] = {3.002, 3.002, 3.005, 3.005, 3.008, 3.011, 3.014};
  constexpr std::size_t kThreads = std::size(times);
  const std::size_t before = detail::sharedPlaneBlends(detail::oceanState(ocean));
  std::vector<std::vector<btScalar>> got(kThreads);
  std::barrier held(std::ptrdiff_t{kThreads});
  std::vector<std::thread> threads;
  for (std::size_t k = 0; k < kThreads; ++k)
    threads.emplace_back([&, k] {
      got[k] = askFleet(ocean, times[k], 0, kGrids);
      held.arrive_and_wait();  // the thread's planes stay pinned until all have asked
    });
  for (std::thread& t : threads) t.join();
  const std::size_t blends = detail::sharedPlaneBlends(detail::oceanState(ocean)) - before;
  EXPECT_EQ(blends, 8U);
  int compared = 0;
  for (std::size_t k = 0; k < kThreads; ++k) {
    if (k + 1 < kThreads && times[k + 1] == times[k]) {
      EXPECT_TRUE(sameBits(got[k], got[k + 1])) << "thread " << k;
    }
    for (const int b : {0, 1, 57, 230, kGrids - 1}) {
      std::vector<btScalar> alone;
      std::thread([&] { alone = askFleet(ocean, times[k], b, b + 1); }).join();
      const std::size_t values = alone.size();
      EXPECT_EQ(0, std::memcmp(alone.data(), got[k].data() + std::size_t(b) * values, values * sizeof(btScalar)))
          << "thread " << k << ", grid " << b;
      ++compared;
    }
  }
  std::printf(
      "[  figure  ] %zu threads at 5 times: %zu whole planes blended (%zu with a blend each), %d grids the "
      "same bits alone\n",
      kThreads, blends, 2 * kThreads, compared);
}

}  // namespace
}  // namespace keel::test
