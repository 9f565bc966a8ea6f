// The added-mass model's cost per call (docs/model.md, "Added mass"): a
// 972-triangle box boat (2 x 1 x 3 m, each face 9 x 9 squares) floating
// (the wet part's moments and one ellipsoid), just under the surface (the
// whole hull's moments and two ellipsoids: the blend) and deep (one), with
// the whole hull's moments integrated or kept (`kept`). The
// substep calls it once per boat when HydrodynamicSettings::addedMass is
// on; Lamb's ellipsoid alone. Run:
//   build/tests/keel_bench --benchmark_filter=addedMass --benchmark_min_time=0.2
#include <keel/added_mass.hpp>

#include "added_mass/added_mass.hpp"
#include "test_hulls.hpp"

#include <benchmark/benchmark.h>

namespace keel::test {
namespace {

void addedMassBelow(benchmark::State& state) {
  const auto hull = hullOf(box(btVector3(2, 1, 3), 9));
  const double heights[] = {0.1, 0.7, 5.0};  // floating, just under (0.2 m), deep
  const double h = heights[state.range(0)];
  const btVector3 up = btVector3(btScalar(0.05), 1, btScalar(0.1)).normalized();
  const Moments whole = volumeMoments(*hull);
  const Moments* kept = state.range(1) ? &whole : nullptr;
  for (auto _ : state) benchmark::DoNotOptimize(detail::addedMassBelowPlane(*hull, up, h, 1025, kept));
  state.SetLabel(std::to_string(hull->triangles().size()) + " triangles");
}
BENCHMARK(addedMassBelow)
    ->ArgNames({"floating0_under1_deep2", "kept"})
    ->ArgsProduct({{0, 1, 2}, {0, 1}})
    ->Unit(benchmark::kMicrosecond);

/// Lamb's ellipsoid alone (three R_D, and three more near a round section):
/// what the model adds to the moments' pass, per ellipsoid.
void addedMassEllipsoid(benchmark::State& state) {
  double a = 1.5;
  for (auto _ : state) {
    benchmark::DoNotOptimize(ellipsoidAddedMass(a, 1, 0.4, 1025));
    a = a == 1.5 ? 1.6 : 1.5;
  }
}
BENCHMARK(addedMassEllipsoid)->Unit(benchmark::kMicrosecond);

}  // namespace
}  // namespace keel::test
