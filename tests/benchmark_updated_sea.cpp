// A frame on an updated sea: the spectral ocean's update() each frame, then
// Bullet's four substeps of the boat (tests/support/bench_boat.hpp) on the
// frame's fresh tiles, against the same frame on flat water and 64 sines. Run:
//   build/tests/keel_bench --benchmark_filter=frameOnAnUpdatedSea --benchmark_min_time=0.2
//   --benchmark_repetitions=5 --benchmark_report_aggregates_only=true
#include "bench_boat.hpp"

#include <benchmark/benchmark.h>

#include <cstddef>
#include <vector>

namespace keel::test {
namespace {

/// A frame as a game runs it (docs/waves.md, "Update and threads"): the
/// water's update() for the frame (untimed: its own cost is
/// keel_bench_waves' spectralUpdate), then Bullet's four 1/240 s substeps
/// of the boat, whose water is then the frame's fresh tiles, not a tile the
/// caches have held since the last iteration. Per iteration: one frame, four
/// substeps; the water's clock runs on, 1/60 s a frame. "cold" 1: 4 MB
/// written between frames too (untimed), on every sea, as the rest of a
/// game's frame (its logic, its draw calls) empties the caches before the
/// physics: a frame then meets no boat's data left in them by the last.
void frameOnAnUpdatedSea(benchmark::State& state) {
  BenchBoat b(state, true);
  std::vector<std::byte> gameFrame(state.range(4) == 1 ? std::size_t(4) << 20 : 0);
  auto* ocean = dynamic_cast<SpectralOcean*>(b.surface.get());
  b.body->setActivationState(DISABLE_DEACTIVATION);
  b.w.world.addAction(b.boat.get());
  double t_s = 5;
  for (auto _ : state) {
    state.PauseTiming();
    if (ocean != nullptr) ocean->update(t_s, t_s + 1.0 / 60);
    for (std::byte& x : gameFrame) x = std::byte(std::to_integer<unsigned>(x) + 1);
    benchmark::DoNotOptimize(gameFrame.data());
    b.placeAt(t_s);
    state.ResumeTiming();
    b.w.world.stepSimulation(btScalar(1.0 / 60), 4, btScalar(1.0 / 240));
    benchmark::DoNotOptimize(b.body->getLinearVelocity());
    t_s += 1.0 / 60;
  }
  b.w.world.removeAction(b.boat.get());
  b.report(state);
}

// The 12- and the 1k-triangle hull, flat water, the real sea as 64 sines and
// on the spectral ocean, sampled directly, on a patch of 1 m cells and by the
// default (Auto, 0.5 m cells), the full model; the 1k-triangle hull by
// default also with the caches emptied between frames.
BENCHMARK(frameOnAnUpdatedSea)
    ->ArgNames({"tris", "wavy", "patch", "terms", "cold"})
    ->ArgsProduct({{12, 1000}, {0, 2, 5}, {0, 2, 3}, {31}, {0}})
    ->ArgsProduct({{1000}, {0, 2, 5}, {3}, {31}, {1}})
    ->Unit(benchmark::kMicrosecond);

}  // namespace
}  // namespace keel::test
