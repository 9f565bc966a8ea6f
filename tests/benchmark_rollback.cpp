// Rollback's cost (docs/determinism.md, "Rollback"): saving a boat's or a
// fleet's state into a ring buffer's slot used before, and restoring it, on
// a Gerstner sea; ns_per_boat is the time per boat. The bytes a state holds
// per boat: keel_allocation_tests' figures. Run:
//   build/tests/keel_bench_rollback --benchmark_min_time=0.5
#include "test_hulls.hpp"

#include <keel/water_fleet.hpp>

#include <benchmark/benchmark.h>

#include <memory>

namespace keel::test {
namespace {

/// `boats` boats of ~480 triangles, warm: range 0 the full detail on a
/// 0.5 m patch (its Gerstner grid history saved with it), 1 the far-boat
/// preset on columns, 2 the full detail with a compartment holed at its keel.
struct Fleet {
  World w;
  WaterFleet fleet{gerstnerSea(1.5, 6.0, 6, 5, 0.7), 1};
  Fleet(int boats, int kind) {
    const auto hull = hullOf(boatHull(10, 3.5f, 2.5f, 20, 6));
    for (int i = 0; i < boats; ++i) {
      const btTransform at(btQuaternion::getIdentity(), btVector3(btScalar(30 * i), 0, 0));
      WaterAction& boat = fleet.add(w.addBox(btVector3(10, 2.5f, 3.5f), 30000, at), hull,
                                    {.sampling = Sampling::Patch});
      if (kind == 1) boat.setLevelOfDetail(farBoatSettings(*hull));
      if (kind == 2) (void)boat.openHole(at.getOrigin() - btVector3(0, 1, 0), 0.05f);
    }
    w.world.addAction(&fleet);
    for (int k = 0; k < 4; ++k) w.world.stepSimulation(btScalar(1.0 / 240), 1, btScalar(1.0 / 240));
  }
  ~Fleet() { w.world.removeAction(&fleet); }
};

void save(benchmark::State& state) {
  Fleet f(int(state.range(0)), int(state.range(1)));
  WaterFleetState slot = f.fleet.saveState();
  for (auto _ : state) {
    f.fleet.saveState(slot);
    benchmark::DoNotOptimize(slot);
  }
  state.counters["ns_per_boat"] = benchmark::Counter(
      double(f.fleet.size()), benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}

void restore(benchmark::State& state) {
  Fleet f(int(state.range(0)), int(state.range(1)));
  const WaterFleetState slot = f.fleet.saveState();
  for (auto _ : state) f.fleet.restoreState(slot);
  state.counters["ns_per_boat"] = benchmark::Counter(
      double(f.fleet.size()), benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}

BENCHMARK(save)->ArgsProduct({{1, 64}, {0, 1, 2}})->ArgNames({"boats", "kind"});
BENCHMARK(restore)->ArgsProduct({{1, 64}, {0, 1, 2}})->ArgNames({"boats", "kind"});

}  // namespace
}  // namespace keel::test

BENCHMARK_MAIN();
