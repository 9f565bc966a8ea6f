// A frame on an updated sea: the spectral ocean's update() each frame, then
// Bullet's four substeps of the boat (tests/support/bench_boat.hpp) on the
// frame's fresh tiles, against the same frame on flat water and 64 sines. Run:
//   build/tests/keel_bench --benchmark_filter=frameOnAnUpdatedSea --benchmark_min_time=0.2
//   --benchmark_repetitions=5 --benchmark_report_aggregates_only=true
#include "bench_boat.hpp"
#include "wall_clock.hpp"

#include <benchmark/benchmark.h>

#include <array>
#include <cstddef>
#include <numeric>
#include <vector>

namespace keel::test {
namespace {

/// The substeps of a frame: Bullet's fixed 1/240 s step in a 1/60 s frame.
constexpr int kSubstepsPerFrame = 4;

/// Frames as a game runs them (docs/waves.md, "Update and threads"): the
/// water's update() for the frame (untimed: its own cost is
/// keel_bench_waves' spectralUpdate), then Bullet's four 1/240 s substeps
/// of the boat's world, `action` among its actions, whose water is then the
/// frame's fresh tiles, not a tile the caches have held since the last
/// iteration. Per iteration: one frame, four substeps; the water's clock
/// runs on, 1/60 s a frame. "cold" 1: 4 MB written between frames too
/// (untimed), on every sea, as the rest of a game's frame (its logic, its
/// draw calls) empties the caches before the physics: a frame then meets no
/// boat's data left in them by the last. With `steps_s`, the steps' wall
/// time summed into it [s] (the clock read only then).
void runFrames(benchmark::State& state, BenchBoat& b, btActionInterface& action, double* steps_s = nullptr) {
  std::vector<std::byte> gameFrame(state.range(4) == 1 ? std::size_t(4) << 20 : 0);
  auto* ocean = dynamic_cast<SpectralOcean*>(b.surface.get());
  b.body->setActivationState(DISABLE_DEACTIVATION);
  b.w.world.addAction(&action);
  double t_s = 5;
  for (auto _ : state) {
    state.PauseTiming();
    if (ocean != nullptr) ocean->update(t_s, t_s + 1.0 / 60);
    for (std::byte& x : gameFrame) x = std::byte(std::to_integer<unsigned>(x) + 1);
    benchmark::DoNotOptimize(gameFrame.data());
    b.placeAt(t_s);
    state.ResumeTiming();
    const auto step = [&] {
      b.w.world.stepSimulation(btScalar(1.0 / 60), kSubstepsPerFrame, btScalar(1.0 / (60 * kSubstepsPerFrame)));
    };
    if (steps_s == nullptr)
      step();
    else
      *steps_s += secondsOf(step);
    benchmark::DoNotOptimize(b.body->getLinearVelocity());
    t_s += 1.0 / 60;
  }
  b.w.world.removeAction(&action);
  b.report(state);
}

void frameOnAnUpdatedSea(benchmark::State& state) {
  BenchBoat b(state, true);
  runFrames(state, b, *b.boat);
}

/// The boat's action timed as a whole, each of a frame's four substeps
/// apart: the rest of stepSimulation's time is Bullet's own.
class TimedAction final : public btActionInterface {
 public:
  explicit TimedAction(btActionInterface& inner) : inner_(inner) {}
  void updateAction(btCollisionWorld* world, btScalar step_s) override {
    substep_s[calls_++ % kSubstepsPerFrame] += secondsOf([&] { inner_.updateAction(world, step_s); });
  }
  void debugDraw(btIDebugDraw*) override {}
  std::array<double, kSubstepsPerFrame> substep_s{};  ///< each substep of a frame, summed over the frames [s]

 private:
  btActionInterface& inner_;
  std::size_t calls_ = 0;
};

/// frameOnAnUpdatedSea with the boat's stage profile on
/// (WaterAction::setProfiling) and its action timed: where a sea's frame
/// goes, against flat water's. Counters, µs a frame: each stage's, the
/// action's ("action"), Bullet's own ("bullet": the frame's wall time less
/// the action's), and the action's first substep after the update
/// ("first") against the mean of the other three ("later"). The clock
/// reads add to every figure: compare with frameOnAnUpdatedSea for the
/// frame's cost.
void frameStagesOnAnUpdatedSea(benchmark::State& state) {
  BenchBoat b(state, true);
  b.boat->setProfiling(true);
  TimedAction timed(*b.boat);
  double steps_s = 0;
  runFrames(state, b, timed, &steps_s);
  const auto perFrame = [&](double s) { return benchmark::Counter(1e6 * s, benchmark::Counter::kAvgIterations); };
  const SubstepProfile profile = b.boat->profile();
  for (std::size_t i = 0; i < kSubstepStageCount; ++i)
    if (profile.stage_s[i] > 0) state.counters[stageName(SubstepStage(i))] = perFrame(profile.stage_s[i]);
  const std::array<double, kSubstepsPerFrame>& s = timed.substep_s;
  const double action_s = std::accumulate(s.begin(), s.end(), 0.0);
  state.counters["action"] = perFrame(action_s);
  state.counters["bullet"] = perFrame(steps_s - action_s);
  state.counters["first"] = perFrame(s[0]);
  state.counters["later"] = perFrame((action_s - s[0]) / (kSubstepsPerFrame - 1));
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

// The 1k-triangle hull by default on each sea, its stages, with the caches
// as the last frame left them and emptied.
BENCHMARK(frameStagesOnAnUpdatedSea)
    ->ArgNames({"tris", "wavy", "patch", "terms", "cold"})
    ->ArgsProduct({{1000}, {0, 2, 5}, {3}, {31}, {0, 1}})
    ->Unit(benchmark::kMicrosecond);

}  // namespace
}  // namespace keel::test
