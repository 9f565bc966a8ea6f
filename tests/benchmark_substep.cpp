// The whole per-boat substep (issue 2, point 7): hulls of 12 to 20k
// triangles, flat and wavy water, direct and patch sampling. Run:
//   build/tests/keel_bench --benchmark_min_time=0.2 --benchmark_repetitions=5
//   --benchmark_report_aggregates_only=true
#include "test_hulls.hpp"

#include <benchmark/benchmark.h>

#include <cmath>

namespace keel::test {
namespace {

/// Hulls of about the requested triangle counts.
Mesh hullWithTriangles(int triangles) {
  if (triangles <= 12) return box(btVector3(4, 1.5f, 2));
  // Boxes give exact counts: 12 n^2 triangles.
  const int n = std::max(1, int(std::lround(std::sqrt(triangles / 12.0))));
  return box(btVector3(4, 1.5f, 2), n);
}

class Waves final : public WaterSurface {
 public:
  btScalar height(btScalar x, btScalar z, btScalar t) const override {
    return btScalar(0.3 * std::sin(0.5 * x - 1.1 * t) + 0.2 * std::sin(0.37 * z + 0.2 * x - 0.9 * t) +
                    0.05 * std::cos(1.7 * x + 0.4 * z - 2.0 * t));
  }
};

void substep(benchmark::State& state) {
  const int triangles = int(state.range(0));
  const bool wavy = state.range(1) != 0;
  const Sampling sampling = state.range(2) != 0 ? Sampling::Patch : Sampling::Direct;
  World w;
  const auto hull = hullOf(hullWithTriangles(triangles));
  btRigidBody* body = w.addBox(btVector3(4, 1.5f, 2), 6000,
                               btTransform(btQuaternion(btVector3(1, 0, 0.3f).normalized(), 0.15f), btVector3(0, 0.1f, 0)));
  HydrostaticSettings settings;
  settings.sampling = sampling;
  settings.patchCellSize_m = 0.25f;
  std::shared_ptr<const WaterSurface> surface = wavy ? std::shared_ptr<const WaterSurface>(std::make_shared<Waves>())
                                                     : std::make_shared<LevelWater>();
  WaterAction boat(body, hull, surface, settings);
  const btTransform start = body->getCenterOfMassTransform();
  for (auto _ : state) {
    // Keep the state fixed so every iteration does the same work.
    body->setCenterOfMassTransform(start);
    body->setLinearVelocity(btVector3(0, 0, 0));
    body->setAngularVelocity(btVector3(0, 0, 0));
    boat.updateAction(&w.world, btScalar(1.0 / 240));
    benchmark::DoNotOptimize(body->getLinearVelocity());
  }
  state.counters["triangles"] = double(hull->triangles().size());
  state.counters["pieces"] = double(boat.submergedPieces().size());
  state.SetLabel(std::string(wavy ? "wavy" : "flat") + (sampling == Sampling::Patch ? "/patch" : "/direct"));
}

BENCHMARK(substep)
    ->ArgNames({"tris", "wavy", "patch"})
    ->ArgsProduct({{12, 200, 1000, 5000, 20000}, {0, 1}, {0, 1}})
    ->Unit(benchmark::kMicrosecond);

}  // namespace
}  // namespace keel::test

BENCHMARK_MAIN();
