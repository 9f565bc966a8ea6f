// keel::SpectralOcean's fixed-point tiles (docs/waves.md, "Spectral ocean",
// "Queries"): they agree with the per-point particle solve they replace to
// the resampling's interpolation error, the grid queries give the per-point
// queries' values, and the tiles are the same bits for a seed.
#include "test_hulls.hpp"

#include <keel/spectral_ocean.hpp>

#include "water/spectral_detail.hpp"
#include "water/spectral_grid.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <optional>
#include <random>
#include <thread>
#include <vector>

namespace keel::test {
namespace {

/// A 64-node ocean on a 96 m tile: with refinement 1.5 the fixed-point
/// nodes lie on whole metres, which float holds exactly.
SpectralOcean oceanOf(SpectralQuery query, double refinement = 1.5,
                      SpectralInterpolation interpolation = SpectralInterpolation::Bicubic) {
  return SpectralOcean(WaveSpectrum::jonswap(2.0, 7.0), {.tileSize_m = 96,
                                                         .nodesPerSide = 64,
                                                         .interpolation = interpolation,
                                                         .query = query,
                                                         .fixedPointRefinement = refinement,
                                                         .seed = 9});
}

// At the fixed-point nodes, at a tile's own time, the fixed-point height is
// the particle solve's (the resampling solved there to a residual of 1e-4 m,
// mostly far less: 5e-6 m measured); between
// nodes they differ by the resampling's interpolation error.
TEST(SpectralOceanFixedPoints, AgreeWithTheParticleSolve) {
  SpectralOcean solve = oceanOf(SpectralQuery::ParticleSolve);
  SpectralOcean fixed = oceanOf(SpectralQuery::FixedPointTiles);
  SpectralOcean coarse = oceanOf(SpectralQuery::FixedPointTiles, 1.0);
  for (SpectralOcean* o : {&solve, &fixed, &coarse}) o->update(20.0, 20.0 + 1.0 / 60);
  const auto t0 = btScalar(20.0);
  double atNodes_m = 0;
  for (int j = 0; j < 96; j += 5)
    for (int i = 0; i < 96; i += 3) {
      const auto u = btScalar(i), v = btScalar(j);
      atNodes_m = std::max(atNodes_m, double(std::abs(fixed.height(u, v, t0) - solve.height(u, v, t0))));
    }
  EXPECT_LE(atNodes_m, 2e-5);
  // Random points and times of the window: the interpolation error.
  std::mt19937 rng(4);
  std::uniform_real_distribution<double> pos(-200, 200), when(20.0, 20.0 + 1.0 / 60);
  double height[2] = {0, 0}, velocity[2] = {0, 0};
  for (int k = 0; k < 2000; ++k) {
    const auto u = btScalar(pos(rng)), v = btScalar(pos(rng)), t = btScalar(when(rng));
    const btScalar h = solve.height(u, v, t);
    const WaterVelocity reference = solve.velocity(u, v, h, t);
    const SpectralOcean* oceans[2] = {&fixed, &coarse};
    for (int m = 0; m < 2; ++m) {
      height[m] = std::max(height[m], double(std::abs(oceans[m]->height(u, v, t) - h)));
      const WaterVelocity w = oceans[m]->velocity(u, v, h, t);
      velocity[m] = std::max(
          velocity[m], std::hypot(double(w.east_mps - reference.east_mps), double(w.north_mps - reference.north_mps),
                                  double(w.up_mps - reference.up_mps)));
    }
  }
  const double hs = fixed.significantWaveHeight_m();
  std::printf(
      "fixed-point tiles against the particle solve, 2000 points: at the nodes %.2g m; between them, "
      "refinement 1.5: height %.3f%% of Hs, surface velocity %.3f m/s; refinement 1: %.3f%%, %.3f m/s\n",
      atNodes_m, 100 * height[0] / hs, velocity[0], 100 * height[1] / hs, velocity[1]);
  // Measured (float build) 0.20% and 0.30% of Hs, 0.008 and 0.017 m/s
  // (4 sigma_u is 2.1 m/s).
  EXPECT_LE(height[0], 0.003 * hs);
  EXPECT_LE(height[1], 0.004 * hs);
  EXPECT_LT(height[0], height[1]);
  EXPECT_LE(velocity[0], 0.012);
  EXPECT_LT(velocity[0], velocity[1]);
}

// gridHeights and gridHeightsAndVelocities give what height() and
// velocity() give at the nodes, to rounding (the grid's separable sums add
// in another order), across the tile's edge and for both interpolations.
TEST(SpectralOceanFixedPoints, GridQueriesEqualPointQueries) {
  const double depths[] = {0, 0.5, 2, 8};
  const WaterGrid grids[] = {{.cellSize_m = 0.5, .originI = -37, .originJ = 181, .nodesU = 23, .nodesV = 17},
                             {.cellSize_m = 1.0, .originI = 85, .originJ = -4, .nodesU = 30, .nodesV = 9},
                             {.cellSize_m = 3.0, .originI = 0, .originJ = 0, .nodesU = 1, .nodesV = 1}};
  const double tolerance_m = sizeof(btScalar) == 4 ? 1e-6 : 1e-12;
  for (SpectralInterpolation interpolation : {SpectralInterpolation::Bicubic, SpectralInterpolation::Bilinear}) {
    SpectralOcean ocean = oceanOf(SpectralQuery::FixedPointTiles, 1.5, interpolation);
    ocean.update(3.0, 3.0 + 1.0 / 60);
    const auto t = btScalar(3.007);
    for (const WaterGrid& g : grids) {
      std::vector<btScalar> u, v;
      nodesOf(g, u, v);
      std::vector<btScalar> heights(u.size()), heights2(u.size());
      std::vector<WaterVelocity> velocities(u.size() * 4);
      ASSERT_TRUE(ocean.gridHeights(g, t, heights.data()));
      ASSERT_TRUE(
          ocean.gridHeightsAndVelocities(g, {.depths_m = depths, .out = velocities.data()}, t, heights2.data()));
      for (std::size_t q = 0; q < u.size(); ++q) {
        const btScalar h = ocean.height(u[q], v[q], t);
        EXPECT_NEAR(heights[q], h, tolerance_m * std::max(1.0, double(std::abs(h))));
        EXPECT_EQ(heights2[q], heights[q]);
        for (std::size_t m = 0; m < 4; ++m) {
          const WaterVelocity one = ocean.velocity(u[q], v[q], btScalar(double(h) - depths[m]), t);
          const WaterVelocity& grid = velocities[q * 4 + m];
          EXPECT_NEAR(grid.east_mps, one.east_mps, 10 * tolerance_m);
          EXPECT_NEAR(grid.north_mps, one.north_mps, 10 * tolerance_m);
          EXPECT_NEAR(grid.up_mps, one.up_mps, 10 * tolerance_m);
        }
      }
    }
  }
  // The particle solve has no grid query: the patch then asks heights().
  const SpectralOcean solve = oceanOf(SpectralQuery::ParticleSolve);
  btScalar h = 0;
  EXPECT_FALSE(solve.gridHeights(grids[2], btScalar(0), &h));
}

/// FNV-1a (Fowler, Noll, Vo) over the bits of the values as floats.
std::uint64_t hashOf(const std::vector<btScalar>& values) {
  std::uint64_t h = 1469598103934665603ULL;
  for (btScalar value : values) {
    const auto f = float(value);
    std::uint32_t bits;
    std::memcpy(&bits, &f, sizeof bits);
    for (int i = 0; i < 4; ++i) h = (h ^ ((bits >> (8 * i)) & 0xFFu)) * 1099511628211ULL;
  }
  return h;
}

// The fixed-point tiles of a seed are the same bits on every run (the
// resampling splits rows across threads, but each row's chain of solves is
// fixed); the constant is the hash recorded when the tiles were written.
TEST(SpectralOceanFixedPoints, AreDeterministicForASeed) {
  const WaterGrid g{.cellSize_m = 1.0, .originI = 0, .originJ = 0, .nodesU = 96, .nodesV = 96};
  std::vector<btScalar> a(96 * 96), b(96 * 96);
  SpectralOcean one = oceanOf(SpectralQuery::FixedPointTiles), two = oceanOf(SpectralQuery::FixedPointTiles);
  one.update(12.5, 12.5);
  two.update(12.5, 12.5);
  ASSERT_TRUE(one.gridHeights(g, btScalar(12.5), a.data()));
  ASSERT_TRUE(two.gridHeights(g, btScalar(12.5), b.data()));
  EXPECT_EQ(a, b);
  std::printf("fixed-point heights hash at t = 12.5 s: 0x%016llx\n", static_cast<unsigned long long>(hashOf(a)));
  EXPECT_EQ(hashOf(a), 0xd808c2c4ab945b9eULL);
}

// The vectorised resampling (spectral_fixed_simd.cpp: rows in lanes, a
// node's band values in vectors) writes the bits the scalar code it replaced
// wrote, on every instruction set (every_simd_target runs this once per
// set): the constants are the hashes of the scalar code's fixed-point
// tiles, bicubic and bilinear, 1, 3 and 8 bands, refinements 1 and 1.5, and
// a steep sea whose rows take different Newton steps. The velocities' rate
// at the fixed points (which the scalar code did not compute) has its own
// hash, the same on every instruction set.
TEST(SpectralOceanFixedPoints, TheVectorResamplingKeepsTheScalarBits) {
  struct Case {
    double hs_m, tp_s;
    SpectralInterpolation interpolation;
    int bands;
    double refinement;
    std::uint64_t hash, rateHash;
  };
  const Case cases[] = {
      {2.0, 7.0, SpectralInterpolation::Bicubic, 3, 1.5, 0x087cac54a88dd054ULL, 0xed0b1f7edc4cb875ULL},
      {2.0, 7.0, SpectralInterpolation::Bilinear, 3, 1.5, 0x1bbd1d5ffbd3d6c0ULL, 0xfc9e5f9fe8ce6de6ULL},
      {2.0, 7.0, SpectralInterpolation::Bicubic, 1, 1.0, 0x0ec09ed30a692c2fULL, 0x1f22feac04512df6ULL},
      {2.0, 7.0, SpectralInterpolation::Bicubic, 8, 1.5, 0x9dc20c6b2b27231fULL, 0x863359d8c5e7e2c7ULL},
      {9.0, 8.0, SpectralInterpolation::Bicubic, 3, 1.5, 0xadff3faccd38fcd5ULL, 0x2c267359cce5c29cULL},
  };
  for (const Case& c : cases) {
    const SpectralOcean ocean(WaveSpectrum::jonswap(c.hs_m, c.tp_s), {.nodesPerSide = 32,
                                                                      .velocityBands = c.bands,
                                                                      .interpolation = c.interpolation,
                                                                      .fixedPointRefinement = c.refinement,
                                                                      .seed = 4});
    const detail::SpectralOceanState& s = detail::oceanState(ocean);
    const detail::SpectralLevel& l = s.levels[std::size_t(s.front.level[0])];
    std::uint64_t h = 1469598103934665603ULL;
    const auto add = [&h](const void* data, std::size_t bytes) {
      for (std::size_t i = 0; i < bytes; ++i) h = (h ^ static_cast<const unsigned char*>(data)[i]) * 1099511628211ULL;
    };
    add(l.fixed.data(), l.fixed.size() * sizeof(detail::FixedNode));
    add(l.fixedVelocity_mps.data(), l.fixedVelocity_mps.size() * sizeof(float));
    add(l.fixedAcceleration_mps2.data(), l.fixedAcceleration_mps2.size() * sizeof(float));
    add(l.fixedBandElevation_m.data(), l.fixedBandElevation_m.size() * sizeof(float));
    const std::uint64_t tiles = h;
    h = 1469598103934665603ULL;
    add(l.fixedVelocityRate_mps2.data(), l.fixedVelocityRate_mps2.size() * sizeof(float));
    std::printf(
        "fixed-point tiles' hash, Hs %.0f m, %s, %d bands, refinement %.1f: 0x%016llx, velocity rates "
        "0x%016llx\n",
        c.hs_m, c.interpolation == SpectralInterpolation::Bicubic ? "bicubic" : "bilinear", c.bands, c.refinement,
        static_cast<unsigned long long>(tiles), static_cast<unsigned long long>(h));
    EXPECT_EQ(tiles, c.hash);
    EXPECT_EQ(h, c.rateHash);
  }
}

// The grid queries' heights and velocities are the same bits on every
// instruction set (every_simd_target runs this once per set): their sums
// in a fixed order, no fused multiply-adds. In double the constant is the
// hash of the scalar code they replaced; in float, of the kernel's own
// sums in float (GridQueriesEqualPointQueries bounds their difference from
// the point queries). Grids
// across the tile's edge and far from the origin, in rows of 1 to 23
// nodes, with 0, 1, 6 and 10 depths (more than one vector of them), three
// and five bands, both interpolations.
TEST(SpectralOceanFixedPoints, GridQueriesAreTheSameBitsOnEveryInstructionSet) {
  std::uint64_t h = 1469598103934665603ULL;
  const auto hash = [&h](const void* data, std::size_t bytes) {
    const auto* c = static_cast<const unsigned char*>(data);
    for (std::size_t i = 0; i < bytes; ++i) h = (h ^ c[i]) * 1099511628211ULL;
  };
  const double depths[] = {0, 0.3, 0.6, 1.2, 2.4, 4.8, 9.6, 13, 20, 40};
  const WaterGrid grids[] = {{.cellSize_m = 0.5, .originI = -37, .originJ = 181, .nodesU = 23, .nodesV = 17},
                             {.cellSize_m = 1.0, .originI = 85, .originJ = -4, .nodesU = 7, .nodesV = 7},
                             {.cellSize_m = 5.5, .originI = 3000, .originJ = 2, .nodesU = 4, .nodesV = 4},
                             {.cellSize_m = 3.0, .originI = 0, .originJ = 0, .nodesU = 1, .nodesV = 1}};
  for (const bool bilinear : {false, true}) {
    SpectralOcean ocean(WaveSpectrum::jonswap(2.0, 7.0),
                        {.velocityBands = bilinear ? 5 : 3,
                         .interpolation = bilinear ? SpectralInterpolation::Bilinear : SpectralInterpolation::Bicubic,
                         .seed = 3});
    ocean.update(3.0, 3.0 + 1.0 / 60);
    for (const WaterGrid& g : grids)
      for (const std::size_t count : {0, 1, 6, 10}) {
        const auto nodes = std::size_t(g.nodesU * g.nodesV);
        std::vector<btScalar> heights(nodes);
        std::vector<WaterVelocity> velocities(nodes * count);
        if (count == 0)
          ASSERT_TRUE(ocean.gridHeights(g, btScalar(3.007), heights.data()));
        else
          ASSERT_TRUE(ocean.gridHeightsAndVelocities(
              g, {.depths_m = std::span(depths, count), .out = velocities.data()}, btScalar(3.007), heights.data()));
        for (const btScalar x : heights) hash(&x, sizeof x);
        for (const WaterVelocity& v : velocities) {
          const btScalar values[3] = {v.east_mps, v.north_mps, v.up_mps};
          for (const btScalar x : values) hash(&x, sizeof x);
        }
      }
  }
  std::printf("grid queries' hash: 0x%016llx\n", static_cast<unsigned long long>(h));
  EXPECT_EQ(h, sizeof(btScalar) == 4 ? 0xe941b97912083950ULL : 0xa89fce24b9d00f89ULL);
}

/// One grid query's heights and velocities (at `depths`, in `window`), as bits.
struct GridAnswer {
  std::vector<btScalar> heights;
  std::vector<WaterVelocity> velocities;
  bool operator==(const GridAnswer& o) const {
    return std::memcmp(heights.data(), o.heights.data(), heights.size() * sizeof(btScalar)) == 0 &&
           std::memcmp(velocities.data(), o.velocities.data(), velocities.size() * sizeof(WaterVelocity)) == 0;
  }
};

GridAnswer askGrid(const SpectralOcean& ocean, const WaterGrid& g, std::span<const double> depths, GridWindow window,
                   double t_s) {
  const auto nodes = std::size_t(g.nodesU * g.nodesV);
  GridAnswer a{std::vector<btScalar>(nodes), std::vector<WaterVelocity>(nodes * depths.size())};
  EXPECT_TRUE(ocean.gridHeightsAndVelocities(g, {.depths_m = depths, .out = a.velocities.data(), .window = window}, t_s,
                                             a.heights.data()));
  return a;
}

// A window's velocities are those of the whole grid's query at its nodes,
// bit for bit: a far boat's 4 x 4 grid and a full-detail boat's 12 x 12
// patch (their windows' nodes in the heights' job), a wider grid (a second
// job over the window) and a coarse grid (a job per node), each window at
// the grid's corners and middle, on a fresh thread (no blended tile).
TEST(SpectralOceanFixedPoints, AWindowsVelocitiesAreTheWholeGrids) {
  const double surface[] = {0}, depths[] = {0, 0.5, 2, 8};
  SpectralOcean ocean = oceanOf(SpectralQuery::FixedPointTiles);
  struct Ask {
    WaterGrid grid;
    std::span<const double> depths;
    std::vector<GridWindow> windows;
  };
  const Ask asks[] = {
      {{.cellSize_m = 5.5, .originI = 3, .originJ = -2, .nodesU = 4, .nodesV = 4},
       surface,
       {{0, 0, 2, 2}, {1, 1, 2, 2}, {2, 2, 2, 2}, {3, 0, 1, 4}}},
      {{.cellSize_m = 0.5, .originI = -5, .originJ = 7, .nodesU = 12, .nodesV = 12},
       depths,
       {{0, 2, 11, 7}, {1, 0, 10, 12}, {11, 11, 1, 1}, {8, 3, 4, 4}}},
      {{.cellSize_m = 1.0, .originI = 85, .originJ = -4, .nodesU = 30, .nodesV = 9},
       depths,
       {{3, 2, 20, 5}, {0, 0, 1, 1}, {29, 8, 1, 1}}},
      {{.cellSize_m = 40.0, .originI = 2, .originJ = -3, .nodesU = 3, .nodesV = 3}, depths, {{1, 0, 2, 2}}},
  };
  ocean.update(3.0, 3.0 + 1.0 / 60);
  int compared = 0;
  for (const Ask& a : asks) {
    const GridAnswer whole = askGrid(ocean, a.grid, a.depths, {0, 0, a.grid.nodesU, a.grid.nodesV}, 3.007);
    for (const GridWindow& w : a.windows) {
      GridAnswer got;
      std::thread([&] { got = askGrid(ocean, a.grid, a.depths, w, 3.007); }).join();
      EXPECT_EQ(0, std::memcmp(got.heights.data(), whole.heights.data(), got.heights.size() * sizeof(btScalar)));
      for (int j = w.firstV; j < w.firstV + w.nodesV; ++j)
        for (int i = w.firstU; i < w.firstU + w.nodesU; ++i)
          for (std::size_t m = 0; m < a.depths.size(); ++m) {
            const std::size_t at = std::size_t(j * a.grid.nodesU + i) * a.depths.size() + m;
            EXPECT_EQ(0, std::memcmp(&got.velocities[at], &whole.velocities[at], sizeof(WaterVelocity)))
                << "node " << i << ", " << j << " depth " << m;
            ++compared;
          }
    }
  }
  std::printf("[  figure  ] %d velocities of windows, each the same bits as the whole grid's\n", compared);
}

// A thread that asks many grids at one time blends the published tiles
// under them whole, once, and reads each grid's block from there
// (blended_tile.cpp, BlendedTile): the same bits as each grid alone on a
// fresh thread, which blends its own block. Grids as a far boat's (4 x 4
// nodes, the velocities of 2 x 2 at the surface) and a full-detail boat's
// (every node, four depths; or of the nodes under the hull), across the tile's edge within the blended
// tile's margin and beyond it; then a new publication, and a new ocean in
// the old one's place.
TEST(SpectralOceanFixedPoints, ABlendedTileGivesEachGridsOwnBits) {
  const double surface[] = {0}, depths[] = {0, 0.5, 2, 8};
  struct Ask {
    WaterGrid grid;
    std::span<const double> depths;
    GridWindow window;
  };
  const Ask asks[] = {
      {{.cellSize_m = 5.5, .originI = 3, .originJ = -2, .nodesU = 4, .nodesV = 4}, surface, {1, 1, 2, 2}},
      {{.cellSize_m = 5.5, .originI = -1, .originJ = 16, .nodesU = 4, .nodesV = 4}, surface, {0, 2, 2, 2}},
      {{.cellSize_m = 0.5, .originI = -37, .originJ = 181, .nodesU = 23, .nodesV = 17}, depths, {}},
      {{.cellSize_m = 0.5, .originI = -5, .originJ = 7, .nodesU = 12, .nodesV = 12}, depths, {0, 2, 11, 7}},
      {{.cellSize_m = 1.0, .originI = 85, .originJ = -4, .nodesU = 30, .nodesV = 9}, depths, {3, 2, 20, 5}},
      {{.cellSize_m = 4.0, .originI = 20, .originJ = 20, .nodesU = 9, .nodesV = 3}, depths, {}},  // past the margin
  };
  std::optional<SpectralOcean> ocean(oceanOf(SpectralQuery::FixedPointTiles));  // 96 fixed-point nodes a side
  const auto alone = [&](double t_s) {  // each on a fresh thread: no blended tile
    std::vector<GridAnswer> out;
    for (const Ask& a : asks)
      std::thread([&] { out.push_back(askGrid(*ocean, a.grid, a.depths, a.window, t_s)); }).join();
    return out;
  };
  std::size_t tile_bytes = 0;
  const auto together = [&](double t_s) {  // on one thread, after enough far boats' grids to blend the tile
    std::vector<GridAnswer> out;
    std::thread([&] {
      for (int b = 0; b < 400; ++b)
        (void)askGrid(*ocean, {.cellSize_m = 5.5, .originI = 7 * b, .originJ = 3 * b, .nodesU = 4, .nodesV = 4},
                      surface, {1, 1, 2, 2}, t_s);
      for (const Ask& a : asks) out.push_back(askGrid(*ocean, a.grid, a.depths, a.window, t_s));
      tile_bytes = detail::spectralGridScratch_bytes();
    }).join();
    return out;
  };
  // The planes at 112 nodes a side (96 and the margin), 1 + 9 values a node.
  const std::size_t planes_bytes = 112 * 112 * 10 * sizeof(btScalar);
  ocean->update(3.0, 3.0 + 1.0 / 60);
  for (const double t_s : {3.007, 3.012}) {
    const std::vector<GridAnswer> expected = alone(t_s), got = together(t_s);
    EXPECT_GT(tile_bytes, planes_bytes);
    for (std::size_t k = 0; k < expected.size(); ++k) EXPECT_TRUE(got[k] == expected[k]) << "grid " << k;
  }
  ocean->update(3.1, 3.1 + 1.0 / 60);
  EXPECT_TRUE(together(3.11) == alone(3.11));
  ocean.reset();
  ocean.emplace(SpectralOcean(WaveSpectrum::jonswap(3.0, 8.0), {.tileSize_m = 96, .nodesPerSide = 64, .seed = 2}));
  ocean->update(3.1, 3.1 + 1.0 / 60);
  EXPECT_TRUE(together(3.11) == alone(3.11));
  std::printf("[  figure  ] %zu grids, each alone and after 400 others at one time on one thread: the same bits\n",
              std::size(asks));
}

}  // namespace
}  // namespace keel::test
