// The spectral ocean's update() alone (docs/waves.md, "Cost"): a steady
// frame's, a whole tile's, and a game's frames with the worst of them; and a
// height grid's publish(); part of keel_bench_waves (benchmark_waves.cpp
// says how to run it).
#include "test_hulls.hpp"
#include "wall_clock.hpp"

#include <keel/jobs.hpp>
#include <keel/spectral_ocean.hpp>

#include "water/spectral_detail.hpp"

#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdint>
#include <ctime>
#include <functional>

namespace keel::test {
namespace {

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
  detail::SpectralOceanState& s = detail::oceanState(ocean);
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
    const double wall_s = secondsOf([&] { ocean.update(t, t + frame_s); });
    worstCpu_s = std::max(worstCpu_s, cpuTime_s(oneThread) - cpu0_s);
    worstWall_s = std::max(worstWall_s, wall_s);
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
