// The grid queries of the wave surfaces alone (docs/waves.md, "Grids"): a
// boat's water patch on the spectral ocean (fine and coarse cells), on a sum
// of sines and on Gerstner seas, and a far boat's substep on a fine tile;
// part of keel_bench_waves (benchmark_waves.cpp says how to run it).
#include "test_hulls.hpp"
#include "wave_bench_seas.hpp"

#include <keel/level_of_detail.hpp>
#include <keel/spectral_ocean.hpp>

#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdint>
#include <span>
#include <vector>

namespace keel::test {
namespace {

/// A boat's water patch on the spectral ocean: 1 m cells under a hull of
/// radius 10 m (23 x 23 nodes), heights only (velocities 0) or with the
/// velocities at WaterPatch's 5 depths (1); per node.
void spectralGrid(benchmark::State& state) {
  const auto ocean = spectralSea(state);
  const WaterGrid grid{.cellSize_m = 1.0, .originI = 137, .originJ = -61, .nodesU = 23, .nodesV = 23};
  const auto nodes = std::size_t(grid.nodesU * grid.nodesV);
  const double depths[] = {0, 1.25, 2.5, 5, 10, 20};
  std::vector<btScalar> h(nodes);
  std::vector<WaterVelocity> v(nodes * 5);
  for (auto _ : state) {
    if (state.range(1) == 0) {
      if (!ocean->gridHeights(grid, kTime_s, h.data())) state.SkipWithError("no grid query");
    } else if (!ocean->gridHeightsAndVelocities(grid, {.depths_m = std::span(depths, 5), .out = v.data()}, kTime_s,
                                                h.data())) {
      state.SkipWithError("no grid query");
    }
    benchmark::DoNotOptimize(h.data());
    benchmark::DoNotOptimize(v.data());
  }
  state.SetItemsProcessed(state.iterations() * std::int64_t(nodes));
}

/// The water patch of the substep benchmarks' 1k-triangle box (12 x 12
/// nodes of 0.5 m) on their 64-component sea as sines (SineSumSurface's
/// separable phasors, docs/waves.md "Grids"): `depths` 0 for the heights
/// alone, else the velocities at the first `depths` of the patch's depths
/// below each node; `rows` the rows of nodes whose velocities are asked
/// (GridVelocities::window: the box's footprint spans 7), 0 for one node
/// (the per-call tables' cost).
void sineSumGrid(benchmark::State& state) {
  const SineSumSurface sea(
      sampleSeaState(WaveSpectrum::jonswap(2.0, 7.0), {.meanDirection_rad = 0.3, .componentCount = 64, .seed = 5}));
  const auto depthCount = std::size_t(state.range(0));
  const int rows = int(state.range(1));
  const WaterGrid grid{
      .cellSize_m = 0.5, .originI = 137, .originJ = -61, .nodesU = rows == 0 ? 1 : 12, .nodesV = rows == 0 ? 1 : 12};
  const auto nodes = std::size_t(grid.nodesU * grid.nodesV);
  const double depths[] = {0, 0.295, 0.59, 1.18, 2.36, 4.72};
  std::vector<btScalar> h(nodes);
  std::vector<WaterVelocity> v(nodes * 6);
  const GridVelocities velocities{.depths_m = std::span(depths, depthCount),
                                  .out = v.data(),
                                  .window = {.firstV = rows == 0 ? 0 : (12 - rows) / 2, .nodesV = std::max(rows, 1)}};
  for (auto _ : state) {
    const bool answered = depthCount == 0 ? sea.gridHeights(grid, kTime_s, h.data())
                                          : sea.gridHeightsAndVelocities(grid, velocities, kTime_s, h.data());
    if (!answered) state.SkipWithError("no grid query");
    benchmark::DoNotOptimize(h.data());
    benchmark::DoNotOptimize(v.data());
  }
}

/// A patch of coarse cells on the spectral ocean: 23 x 23 nodes with the
/// velocities at WaterPatch's 5 depths, each cell `cells` fixed-point tile
/// cells (a far boat's patch on a fine tile spans hundreds); per node. From
/// SpectralOcean's threshold on, each node reads its own stencil.
void spectralCoarseGrid(benchmark::State& state) {
  const auto ocean = spectralSea(state);
  const double tileCell_m = ocean->tileSize_m() / double(ocean->nodesPerSide()) / 1.5;  // the default refinement
  const WaterGrid grid{
      .cellSize_m = double(state.range(1)) * tileCell_m, .originI = 17, .originJ = -40, .nodesU = 23, .nodesV = 23};
  const auto nodes = std::size_t(grid.nodesU * grid.nodesV);
  const double depths[] = {0, 1.25, 2.5, 5, 10};
  std::vector<btScalar> h(nodes);
  std::vector<WaterVelocity> v(nodes * 5);
  for (auto _ : state) {
    if (!ocean->gridHeightsAndVelocities(grid, {.depths_m = depths, .out = v.data()}, kTime_s, h.data()))
      state.SkipWithError("no grid query");
    benchmark::DoNotOptimize(h.data());
    benchmark::DoNotOptimize(v.data());
  }
  state.SetItemsProcessed(state.iterations() * std::int64_t(nodes));
}

/// One substep of a 150 m x 20 m x 12 m hull afloat on a short sea (Hs
/// 1 m, Tp 3 s) on a tile of `nodes` per side, with Bullet: the far-boat
/// preset (`lod` 1, its patch of 1.01 R cells spans hundreds of the tile's
/// fixed-point cells) against full detail (`lod` 0). The far preset must
/// not cost more than full detail on a fine tile.
void farBoatOnFineTile(benchmark::State& state) {
  const int nodes = int(state.range(0));
  const bool far = state.range(1) != 0;
  World w;
  const btVector3 size(150, 12, 20);
  const auto hull = hullOf(box(size, 4));
  btRigidBody* body = w.addBox(size, btScalar(0.5 * 1025) * hull->volume_m3(), btTransform::getIdentity());
  auto ocean = std::make_shared<SpectralOcean>(WaveSpectrum::jonswap(1.0, 3.0),
                                               SpectralOceanSettings{.nodesPerSide = nodes, .seed = 5});
  ocean->update(0, 1.0 / 60);
  WaterAction boat(body, hull, ocean);
  boat.setLevelOfDetail(far ? farBoatSettings(*hull) : fullDetailSettings());
  const btTransform start = body->getCenterOfMassTransform();
  for (auto _ : state) {
    body->setCenterOfMassTransform(start);
    body->setLinearVelocity(btVector3(3, -0.5f, 0.2f));
    body->setAngularVelocity(btVector3(0.01f, 0.02f, -0.01f));
    boat.updateAction(&w.world, btScalar(1.0 / 240));
    benchmark::DoNotOptimize(body->getLinearVelocity());
  }
  state.SetLabel(far ? "far-boat preset" : "full detail");
}

/// A far boat's water patch on the 6-wave Gerstner sea (4 x 4 nodes of a
/// 5.5 m cell, farBoatSettings) and a near boat's on the 64-wave one (23 x
/// 23 nodes of 1 m); heights only (velocities 0), with the surface velocity
/// (1: a far boat's one velocity) or at WaterPatch's 6 depths (6); per node.
/// Each call 1/60 s after the last; "history" 1: each starts from the last
/// (GridHistory).
void gerstnerGrid(benchmark::State& state) {
  const bool far = state.range(0) == 0;
  const auto surface = far ? sea() : sea64();
  const WaterGrid grid = far ? WaterGrid{.cellSize_m = 5.5, .originI = 37, .originJ = -11, .nodesU = 4, .nodesV = 4}
                             : WaterGrid{.cellSize_m = 1.0, .originI = 137, .originJ = -61, .nodesU = 23, .nodesV = 23};
  const auto nodes = std::size_t(grid.nodesU * grid.nodesV), depths = std::size_t(state.range(1));
  const double depth_m[] = {0, 0.625, 1.25, 2.5, 5, 10};
  std::vector<btScalar> h(nodes), u(nodes), w(nodes);
  for (std::size_t k = 0; k < nodes; ++k) {  // as WaterPatch asks a surface without gridHeights()
    u[k] = btScalar(double(grid.originI + std::int64_t(k) % grid.nodesU) * grid.cellSize_m);
    w[k] = btScalar(double(grid.originJ + std::int64_t(k) / grid.nodesU) * grid.cellSize_m);
  }
  std::vector<WaterVelocity> v(nodes * 6);
  GridHistory history;
  double t_s = kTime_s;
  for (auto _ : state) {
    if (depths == 0) {
      surface->heights(u.data(), w.data(), nodes, t_s, h.data());
    } else {
      (void)surface->gridHeightsAndVelocities(
          grid,
          {.depths_m = std::span(depth_m, depths), .out = v.data(), .history = state.range(2) ? &history : nullptr},
          t_s, h.data());
    }
    t_s += btScalar(1.0 / 60);  // a substep of a 60 Hz game
    benchmark::DoNotOptimize(h.data());
    benchmark::DoNotOptimize(v.data());
  }
  state.SetItemsProcessed(state.iterations() * std::int64_t(nodes));
}

BENCHMARK(gerstnerGrid)
    ->ArgNames({"near", "depths", "history"})
    ->ArgsProduct({{0, 1}, {0, 1, 6}, {0}})
    ->ArgsProduct({{0, 1}, {1}, {1}})
    ->Unit(benchmark::kMicrosecond);
BENCHMARK(spectralGrid)->ArgNames({"mode", "velocities"})->ArgsProduct({{0, 1}, {0, 1}})->Unit(benchmark::kMicrosecond);
BENCHMARK(sineSumGrid)->ArgNames({"depths", "rows"})->ArgsProduct({{0, 5}, {0, 7, 12}})->Unit(benchmark::kMicrosecond);
BENCHMARK(spectralCoarseGrid)
    ->ArgNames({"mode", "cells"})
    ->ArgsProduct({{0}, {4, 6, 8, 12, 64}})
    ->Unit(benchmark::kMicrosecond);
BENCHMARK(farBoatOnFineTile)
    ->ArgNames({"nodes", "far"})
    ->ArgsProduct({{64, 256}, {0, 1}})
    ->Unit(benchmark::kMicrosecond);

}  // namespace
}  // namespace keel::test
