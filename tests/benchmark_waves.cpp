// The batch wave queries alone (docs/waves.md, "Batches"): GerstnerSurface
// heights, velocities, and both at once (heightsAndVelocities) for 256
// points of a 6-component sea, the hull of one boat of the fleet benchmark;
// the same for 64 components and for the spectral ocean, and its update().
// Run:
//   build/tests/keel_bench_waves --benchmark_min_time=1 --benchmark_repetitions=5
//   --benchmark_report_aggregates_only=true
// or count instructions per call (repeatable on a noisy machine):
//   valgrind --tool=callgrind --callgrind-out-file=cg.out build/tests/keel_bench_waves
//   --benchmark_min_time=0.05
//   callgrind_annotate --inclusive=yes cg.out | grep GerstnerSurface
#include "test_hulls.hpp"

#include <keel/jobs.hpp>
#include <keel/level_of_detail.hpp>
#include <keel/spectral_ocean.hpp>

#include "water/spectral_detail.hpp"

#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <ctime>
#include <functional>
#include <memory>
#include <span>
#include <vector>

namespace keel::test {
namespace {

constexpr std::size_t kPoints = 256;
/// Every call asks for the same instant, so each does the same work and
/// instruction counts per call are exact.
constexpr btScalar kTime_s = btScalar(12.5);

/// Vertices of a 10 m x 4 m hull footprint: a 16 x 16 grid, 0.5 m to 1.5 m
/// deep, 100 m from the origin (phases of tens of radians, as in a harbour).
struct Points {
  std::vector<btScalar> u_m, v_m, w_m;
  Points() {
    for (std::size_t i = 0; i < 16; ++i)
      for (std::size_t j = 0; j < 16; ++j) {
        u_m.push_back(btScalar(100 + 10.0 * double(i) / 15));
        v_m.push_back(btScalar(-40 + 4.0 * double(j) / 15));
        w_m.push_back(btScalar(-0.5 - double(j) / 15));
      }
  }
};

/// The fleet benchmark's sea: JONSWAP Hs 1.5 m, Tp 6 s, 6 components.
std::shared_ptr<const GerstnerSurface> sea() { return gerstnerSea(1.5, 6.0, 6, 5, 0.7); }

/// Times `surface`'s heights() at the Points.
template <class Surface>
void timeHeights(benchmark::State& state, const Surface& surface) {
  const Points p;
  std::vector<btScalar> h(kPoints);
  for (auto _ : state) {
    surface.heights(p.u_m.data(), p.v_m.data(), kPoints, kTime_s, h.data());
    benchmark::DoNotOptimize(h.data());
  }
  state.SetItemsProcessed(state.iterations() * std::int64_t(kPoints));
}

/// Times `surface`'s heightsAndVelocities() at the Points.
template <class Surface>
void timeHeightsAndVelocities(benchmark::State& state, const Surface& surface) {
  const Points p;
  std::vector<btScalar> h(kPoints);
  std::vector<WaterVelocity> v(kPoints);
  for (auto _ : state) {
    surface.heightsAndVelocities(p.u_m.data(), p.v_m.data(), p.w_m.data(), kPoints, kTime_s, h.data(), v.data());
    benchmark::DoNotOptimize(h.data());
    benchmark::DoNotOptimize(v.data());
  }
  state.SetItemsProcessed(state.iterations() * std::int64_t(kPoints));
}

void gerstnerHeights(benchmark::State& state) { timeHeights(state, *sea()); }

void gerstnerVelocities(benchmark::State& state) {
  const auto surface = sea();
  const Points p;
  std::vector<WaterVelocity> v(kPoints);
  for (auto _ : state) {
    surface->velocities(p.u_m.data(), p.v_m.data(), p.w_m.data(), kPoints, kTime_s, v.data());
    benchmark::DoNotOptimize(v.data());
  }
  state.SetItemsProcessed(state.iterations() * std::int64_t(kPoints));
}

/// One solve per point for both, against gerstnerHeights + gerstnerVelocities.
void gerstnerHeightsAndVelocities(benchmark::State& state) { timeHeightsAndVelocities(state, *sea()); }

// The spectral ocean (docs/waves.md, "Spectral ocean") on the same sea, 128
// nodes, against a Gerstner sea of 64 components (sampleSeaState's default):
// per-point cost of the queries, and of update() per frame.

/// JONSWAP Hs 1.5 m, Tp 6 s, 64 components, Gerstner at 0.7 of its fold limit.
std::shared_ptr<const GerstnerSurface> sea64() { return gerstnerSea(1.5, 6.0, 64, 5, 0.7); }

/// The fleet benchmark's sea as a spectral ocean; arg 0 bicubic, 1 bilinear,
/// 2 and 3 the same with SpectralQuery::ParticleSolve (a Newton solve per
/// point, as before the fixed-point tiles).
std::unique_ptr<SpectralOcean> spectralSea(const benchmark::State& state, int nodes = 128) {
  auto ocean = std::make_unique<SpectralOcean>(
      WaveSpectrum::jonswap(1.5, 6.0),
      SpectralOceanSettings{
          .nodesPerSide = nodes,
          .interpolation = state.range(0) % 2 == 1 ? SpectralInterpolation::Bilinear : SpectralInterpolation::Bicubic,
          .query = state.range(0) >= 2 ? SpectralQuery::ParticleSolve : SpectralQuery::FixedPointTiles,
          .seed = 5});
  ocean->update(double(kTime_s) - 0.01, double(kTime_s) + 0.01);
  return ocean;
}

void gerstner64Heights(benchmark::State& state) { timeHeights(state, *sea64()); }

void gerstner64HeightsAndVelocities(benchmark::State& state) { timeHeightsAndVelocities(state, *sea64()); }

void spectralHeights(benchmark::State& state) { timeHeights(state, *spectralSea(state)); }

void spectralHeightsAndVelocities(benchmark::State& state) { timeHeightsAndVelocities(state, *spectralSea(state)); }

void spectralAccelerations(benchmark::State& state) {
  const auto ocean = spectralSea(state);
  const Points p;
  std::vector<WaterAcceleration> a(kPoints);
  for (auto _ : state) {
    ocean->accelerations(p.u_m.data(), p.v_m.data(), p.w_m.data(), kPoints, kTime_s, a.data());
    benchmark::DoNotOptimize(a.data());
  }
  state.SetItemsProcessed(state.iterations() * std::int64_t(kPoints));
}

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

/// update() of a steady 60 Hz frame: one new tile per call (the other is
/// the previous frame's), on both cores; args: nodes per side, 1 for
/// SpectralQuery::ParticleSolve (no fixed-point tiles to resample).
void spectralUpdate(benchmark::State& state) {
  SpectralOcean ocean(WaveSpectrum::jonswap(1.5, 6.0),
                      SpectralOceanSettings{
                          .nodesPerSide = int(state.range(0)),
                          .query = state.range(1) == 1 ? SpectralQuery::ParticleSolve : SpectralQuery::FixedPointTiles,
                          .seed = 5});
  double t = 0;
  for (auto _ : state) {
    ocean.update(t, t + 1.0 / 60);
    t += 1.0 / 60;
  }
}

/// One whole tile, every step at once (the synthesis, then the resampling
/// onto the fixed points), on both cores: what update() spreads over a tile
/// period (docs/waves.md, "Cost"); the time reported is the process's CPU
/// time. Args: nodes per side, velocity bands, fixed-point refinement in
/// tenths, and 1 for the resampling alone (from the synthesis's last
/// rest-position tiles).
void spectralTile(benchmark::State& state) {
  SpectralOcean ocean(WaveSpectrum::jonswap(1.5, 6.0),
                      SpectralOceanSettings{.nodesPerSide = int(state.range(0)),
                                            .velocityBands = int(state.range(1)),
                                            .fixedPointRefinement = 0.1 * double(state.range(2)),
                                            .seed = 5});
  detail::SpectralOceanState& s = detail::SpectralOceanAccess::state(ocean);
  constexpr int kSpare = int(detail::kTileLevels) - 1;  // a level no published tile holds
  double t_s = 0;
  for (auto _ : state) {
    t_s += 1;
    if (state.range(3) == 1)
      detail::resampleToFixedPoints(s, s.scratch, 0, s.fixedNodes, s.level(kSpare));
    else
      s.computeLevel(t_s, kSpare);
  }
}

/// Keel's parallel loops on the calling thread: its CPU clock then counts a
/// frame's work alone (no pool's hand-offs, no worker's spinning, and no
/// other thread's time accounted late).
class SerialJobs final : public JobSystem {
 public:
  void parallelFor(std::size_t count, std::size_t /*grain*/,
                   const std::function<void(std::size_t, std::size_t)>& body) override {
    body(0, count);
  }
};

/// CPU time [s]: the process's, or the calling thread's.
double cpuTime_s(bool thread) {
  timespec now{};
  clock_gettime(thread ? CLOCK_THREAD_CPUTIME_ID : CLOCK_PROCESS_CPUTIME_ID, &now);
  return double(now.tv_sec) + 1e-9 * double(now.tv_nsec);
}

/// The ocean kept updated as a game keeps it: update(t, t + 1/60) every
/// 1/60 s frame, 600 frames (10 s of sea) after 120 frames of warm-up; the
/// time reported is the process's CPU time a frame (every thread's), and
/// the counters the worst frame's CPU and wall time [ms]; args: nodes per
/// side, and 1 to run Keel's loops on this thread alone (SerialJobs: each
/// frame's CPU time then exact), 0 on oneTBB's threads (both cores).
void spectralFrames(benchmark::State& state) {
  SerialJobs serial;
  const bool oneThread = state.range(1) == 1;
  if (oneThread) setJobSystem(&serial);
  SpectralOcean ocean(WaveSpectrum::jonswap(1.5, 6.0),
                      SpectralOceanSettings{.nodesPerSide = int(state.range(0)), .seed = 5});
  constexpr double frame_s = 1.0 / 60;
  double t = 0;
  for (int warm = 0; warm < 120; ++warm, t += frame_s) ocean.update(t, t + frame_s);
  double worstCpu_s = 0, worstWall_s = 0;
  for (auto _ : state) {
    const double cpu0_s = cpuTime_s(oneThread);
    const auto wall0 = std::chrono::steady_clock::now();
    ocean.update(t, t + frame_s);
    const std::chrono::duration<double> wall = std::chrono::steady_clock::now() - wall0;
    worstCpu_s = std::max(worstCpu_s, cpuTime_s(oneThread) - cpu0_s);
    worstWall_s = std::max(worstWall_s, wall.count());
    t += frame_s;
  }
  setJobSystem(nullptr);
  state.counters["worst_cpu_ms"] = 1e3 * worstCpu_s;
  state.counters["worst_wall_ms"] = 1e3 * worstWall_s;
}

/// HeightGridSurface::publish() of a grid of nodes x nodes: the buffers'
/// swap and the pass over both snapshots that finds the fastest rise they
/// imply (docs/integration.md, "An ocean that changes every frame"); per node.
void heightGridPublish(benchmark::State& state) {
  const int nodes = int(state.range(0));
  HeightGridSurface grid(HeightGridLayout{.nodesEast = nodes, .nodesNorth = nodes});
  double t_s = 0;
  for (auto _ : state) {
    t_s += 1.0 / 60;
    grid.publish(t_s);
    benchmark::DoNotOptimize(grid.riseRate_mps());
  }
  state.SetItemsProcessed(state.iterations() * std::int64_t(nodes) * nodes);
}

BENCHMARK(heightGridPublish)->ArgName("nodes")->Arg(256)->Arg(1024)->Unit(benchmark::kMicrosecond);
BENCHMARK(gerstnerHeights)->Unit(benchmark::kMicrosecond);
BENCHMARK(gerstnerVelocities)->Unit(benchmark::kMicrosecond);
BENCHMARK(gerstnerHeightsAndVelocities)->Unit(benchmark::kMicrosecond);
BENCHMARK(gerstner64Heights)->Unit(benchmark::kMicrosecond);
BENCHMARK(gerstner64HeightsAndVelocities)->Unit(benchmark::kMicrosecond);
BENCHMARK(gerstnerGrid)
    ->ArgNames({"near", "depths", "history"})
    ->ArgsProduct({{0, 1}, {0, 1, 6}, {0}})
    ->ArgsProduct({{0, 1}, {1}, {1}})
    ->Unit(benchmark::kMicrosecond);
BENCHMARK(spectralHeights)->ArgName("mode")->DenseRange(0, 3)->Unit(benchmark::kMicrosecond);
BENCHMARK(spectralHeightsAndVelocities)->ArgName("mode")->DenseRange(0, 3)->Unit(benchmark::kMicrosecond);
BENCHMARK(spectralAccelerations)->ArgName("mode")->DenseRange(0, 3)->Unit(benchmark::kMicrosecond);
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
BENCHMARK(spectralUpdate)
    ->ArgNames({"nodes", "solve"})
    ->ArgsProduct({{128, 256}, {0, 1}})
    ->Unit(benchmark::kMillisecond);
BENCHMARK(spectralTile)
    ->ArgNames({"nodes", "bands", "refinement10", "resampling"})
    ->ArgsProduct({{64, 128, 256}, {3}, {15}, {0, 1}})
    ->ArgsProduct({{128}, {6}, {15}, {0, 1}})
    ->ArgsProduct({{128}, {3}, {10, 20}, {0, 1}})
    ->MeasureProcessCPUTime()
    ->Unit(benchmark::kMillisecond);
BENCHMARK(spectralFrames)
    ->ArgNames({"nodes", "oneThread"})
    ->ArgsProduct({{128, 256}, {0, 1}})
    ->Iterations(600)
    ->MeasureProcessCPUTime()
    ->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace keel::test

BENCHMARK_MAIN();
