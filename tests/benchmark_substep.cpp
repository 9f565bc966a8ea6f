// The whole per-boat substep: hulls of 12 to 20k
// triangles, flat and wavy water, direct and patch sampling; then the real
// seas (64 components of a JONSWAP spectrum, Hs 2 m) on each surface. Run:
//   build/tests/keel_bench --benchmark_min_time=0.2 --benchmark_repetitions=5
//   --benchmark_report_aggregates_only=true
// KEEL_SIMD_TARGET=AVX2 (or AVX3, SSE4, SSSE3, SCALAR: Highway's names) runs
// the kernels of that instruction set instead of the CPU's best. The boat and
// its water are tests/support/bench_boat.hpp's; a frame on an updated sea is
// tests/benchmark_updated_sea.cpp, the column model tests/benchmark_columns.cpp.
#include "bench_boat.hpp"

#include <benchmark/benchmark.h>
#include <hwy/targets.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>

namespace keel::test {
namespace {

/// The boat's action alone, called as Bullet calls it each substep.
void substep(benchmark::State& state) {
  BenchBoat b(state);
  for (auto _ : state) {
    b.reset();
    b.boat->updateAction(&b.w.world, btScalar(1.0 / 240));
    benchmark::DoNotOptimize(b.body->getLinearVelocity());
  }
  b.report(state);
}

/// The boat's action with the per-stage profile on (WaterAction::setProfiling):
/// what timing every stage costs, against `substep` at the same arguments.
void substepProfiled(benchmark::State& state) {
  BenchBoat b(state);
  b.boat->setProfiling(true);
  for (auto _ : state) {
    b.reset();
    b.boat->updateAction(&b.w.world, btScalar(1.0 / 240));
    benchmark::DoNotOptimize(b.body->getLinearVelocity());
  }
  b.report(state);
}

/// The boat's action reporting effect events (WaterAction::setEffects;
/// moving at 3 m/s, its bow pushes a bow wave), read and cleared each
/// substep: what the Effects stage costs, against `substep`.
void substepWithEffects(benchmark::State& state) {
  BenchBoat b(state);
  EffectSettings effects;
  effects.enabled = true;
  b.boat->setEffects(effects);
  std::size_t events = 0;
  for (auto _ : state) {
    b.reset();
    b.boat->updateAction(&b.w.world, btScalar(1.0 / 240));
    events += b.boat->effects().size();
    b.boat->clearEffects();
  }
  state.counters["events"] = benchmark::Counter(double(events), benchmark::Counter::kAvgIterations);
  b.report(state);
}

/// The same with Bullet included: one 1/240 s step of a world holding the
/// body and its action (stepSimulation's fixed cost, the body's
/// integration, the action), as a game steps it.
void substepWithBullet(benchmark::State& state) {
  BenchBoat b(state);
  b.body->setActivationState(DISABLE_DEACTIVATION);
  b.w.world.addAction(b.boat.get());
  for (auto _ : state) {
    b.reset();
    b.w.world.stepSimulation(btScalar(1.0 / 240), 0);  // no substeps: exactly one step of 1/240 s
    benchmark::DoNotOptimize(b.body->getLinearVelocity());
  }
  b.w.world.removeAction(b.boat.get());
  b.report(state);
}

// Every hull size, water and sampling, hydrostatics only and the full model;
// then each hydrodynamic term alone on the 1k-triangle hull; then the real
// sea on each surface (flat water for comparison), hulls of 12 to 3.9k
// triangles, direct and patches of 0.5 and 1 m, and the full model with one
// water velocity per boat ("wavy" is the sea: 2 sines, 3 Gerstner, 4 grid).
BENCHMARK(substep)
    ->ArgNames({"tris", "wavy", "patch", "terms"})
    ->ArgsProduct({{12, 200, 1000, 5000, 20000}, {0, 1}, {0, 1}, {0, 31}})
    ->ArgsProduct({{1000}, {0, 1}, {0}, {1, 2, 4, 8, 16}})
    ->ArgsProduct({{12, 500, 1000, 3700}, {0, 2, 3, 4}, {0, 1, 2, 3}, {0, 31, 63}})
    ->ArgsProduct({{12, 500, 1000, 3700}, {5, 6}, {0, 1, 2, 3}, {0, 31, 63}})
    ->Unit(benchmark::kMicrosecond);

// Profiled: the smallest and the 1k hull, flat water and 64 sines, hydrostatics and the full model.
BENCHMARK(substepProfiled)
    ->ArgNames({"tris", "wavy", "patch", "terms"})
    ->ArgsProduct({{12, 1000}, {0, 2}, {0}, {0, 31}})
    ->Unit(benchmark::kMicrosecond);

// With effect events: as the profiled.
BENCHMARK(substepWithEffects)
    ->ArgNames({"tris", "wavy", "patch", "terms"})
    ->ArgsProduct({{12, 1000}, {0, 2}, {0}, {0, 31}})
    ->Unit(benchmark::kMicrosecond);

// Bullet included: flat water and the real sea on the spectral ocean and as
// 64 sines, direct and on the 1 m patch, the full model with the water
// velocity at every vertex and per boat; and the full model with the added mass.
BENCHMARK(substepWithBullet)
    ->ArgNames({"tris", "wavy", "patch", "terms"})
    ->ArgsProduct({{12, 1000}, {0, 2, 5}, {0, 2}, {0, 31, 63}})
    ->ArgsProduct({{12, 1000}, {0, 2}, {0}, {95}})  // with the added mass
    ->Unit(benchmark::kMicrosecond);

/// Static head against wave pressure (PressureModel) on a 64-component
/// JONSWAP sea of Hs 2 m, Tp 8 s (sampleSeaState), as linear waves or
/// Gerstner waves, the 972-triangle box, the default model (hydrodynamics
/// included), direct and patch
/// sampling. The water's clock is held, so every iteration does the same
/// work. Compare with interleaved repetitions:
///   keel_bench --benchmark_filter=pressureModel --benchmark_repetitions=10
///   --benchmark_enable_random_interleaving=true --benchmark_report_aggregates_only=true
void pressureModel(benchmark::State& state) {
  const PressureModel pressure = state.range(0) != 0 ? PressureModel::WavePressure : PressureModel::StaticHead;
  const Sampling sampling = state.range(1) != 0 ? Sampling::Patch : Sampling::Direct;
  const bool gerstner = state.range(2) != 0;
  World w;
  const auto hull = hullOf(hullWithTriangles(1000));
  btRigidBody* body = w.addBox(
      btVector3(4, 1.5f, 2), 6000,
      btTransform(btQuaternion(btVector3(1, 0, 0.3f).normalized(), 0.15f), btVector3(0, 0.1f, 0)));
  HydrostaticSettings settings;
  settings.sampling = sampling;
  settings.patchCellSize_m = 0.5f;
  settings.pressure = pressure;
  std::shared_ptr<const WaterSurface> surface;
  if (gerstner) {
    surface = gerstnerSea(2, 8, 64, 1, 1);
  } else {
    SeaStateSettings sea;
    sea.gravity_mps2 = double(kG);
    surface = std::make_shared<SineSumSurface>(sampleSeaState(WaveSpectrum::jonswap(2, 8), sea));
  }
  WaterAction boat(body, hull, surface, settings);
  const btTransform start = body->getCenterOfMassTransform();
  for (auto _ : state) {
    body->setCenterOfMassTransform(start);
    body->setLinearVelocity(btVector3(3, -0.5f, 0.2f));
    body->setAngularVelocity(btVector3(0.1f, 0.2f, -0.1f));
    boat.setTime(5);
    boat.updateAction(&w.world, btScalar(1.0 / 240));
    benchmark::DoNotOptimize(body->getLinearVelocity());
  }
  state.counters["triangles"] = double(hull->triangles().size());
  state.counters["pieces"] = double(boat.submergedPieces().size());
  state.SetLabel(std::string(gerstner ? "gerstner64" : "sines64") +
                 (sampling == Sampling::Patch ? "/patch" : "/direct") +
                 (pressure == PressureModel::WavePressure ? "/wave pressure" : "/static head"));
}

BENCHMARK(pressureModel)
    ->ArgNames({"wave", "patch", "gerstner"})
    ->ArgsProduct({{0, 1}, {0, 1}, {0, 1}})
    ->Unit(benchmark::kMicrosecond);

/// The instruction set named by KEEL_SIMD_TARGET, if any: false when the name
/// is not one this build and CPU can run.
bool chooseSimdTarget() {
  const char* name = std::getenv("KEEL_SIMD_TARGET");
  if (name == nullptr) return true;
  for (const std::int64_t target : hwy::SupportedAndGeneratedTargets())
    if (std::strcmp(hwy::TargetName(target), name) == 0) {
      hwy::SetSupportedTargetsForTest(target);
      std::printf("SIMD target: %s\n", name);
      return true;
    }
  std::fprintf(stderr, "KEEL_SIMD_TARGET=%s: not an instruction set this build and CPU run; these are:", name);
  for (const std::int64_t target : hwy::SupportedAndGeneratedTargets())
    std::fprintf(stderr, " %s", hwy::TargetName(target));
  std::fprintf(stderr, "\n");
  return false;
}

}  // namespace
}  // namespace keel::test

int main(int argc, char** argv) {
  if (!keel::test::chooseSimdTarget()) return 2;
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
