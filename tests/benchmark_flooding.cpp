// What flooding adds to a boat's substep: a 972-triangle box boat, full
// model, on flat water or three linear waves, with no compartments, four
// intact (dry) compartments, or four flooding ones (each holed, half full,
// joined by doors; or the hull itself cut at three bulkheads, "sliced" 1,
// and simplified, 2). The boat rolls and pitches (0.15 and 0.1 rad, periods
// of 4 and 5 s at 240 substeps a second) so the floodwater's level is
// solved anew every substep, as on a moving boat. Run:
//   build/tests/keel_bench --benchmark_filter=flooding --benchmark_min_time=0.2
#include "test_hulls.hpp"

#include <benchmark/benchmark.h>

#include <cmath>

namespace keel::test {
namespace {

/// Four compartments side by side along x, each 1 x 1.5 x 2 m.
std::vector<Compartment> fourCompartments(bool flooding) {
  std::vector<Compartment> out;
  for (int i = 0; i < 4; ++i) {
    const btScalar x = btScalar(i) - btScalar(1.5);
    static const char* const names[] = {"bow", "fore", "aft", "stern"};
    Compartment c{names[i], hullOf(box(btVector3(1, 1.5f, 2), 1, btVector3(x, 0, 0))), {}, 0, 0, 1};
    if (flooding) {
      c.water_m3 = c.space->volume_m3() / 2;
      c.openings.push_back(Opening{btVector3(x, -0.6f, 0.9f), 0.01f});
      if (i < 3) c.openings.push_back(Opening{btVector3(x + 0.5f, -0.3f, 0), 0.1f, 0.6f, 0, i + 1});
    }
    out.push_back(std::move(c));
  }
  return out;
}

/// The hull cut at three bulkheads (keel::bulkheadCompartments): four
/// compartments of the hull's own triangles (432 to 486 each, with the
/// bulkheads' caps), or simplified at 1 mm (12 each), flooding as
/// fourCompartments' do.
std::vector<Compartment> slicedCompartments(const Hull& hull, bool simplified) {
  const btScalar bulkheads[] = {-1, 0, 1};
  std::vector<Compartment> out = bulkheadCompartments(hull, btVector3(1, 0, 0), bulkheads,
                                                      simplified ? btScalar(1e-3) : btScalar(0));
  for (std::size_t i = 0; i < out.size(); ++i) {
    const btScalar x = btScalar(i) - btScalar(1.5);
    out[i].water_m3 = out[i].space->volume_m3() / 2;
    out[i].openings.push_back(Opening{btVector3(x, -0.6f, 0.9f), 0.01f});
    if (i < 3) out[i].openings.push_back(Opening{btVector3(x + 0.5f, -0.3f, 0), 0.1f, 0.6f, 0, int(i) + 1});
  }
  return out;
}

void flooding(benchmark::State& state) {
  const int compartments = int(state.range(0));  // 0 or 4
  const bool flooding = state.range(1) != 0;
  const bool wavy = state.range(2) != 0;
  const int sliced = int(state.range(3));  // 0: fourCompartments; 1: cut from the hull; 2: and simplified
  World w;
  const auto hull = hullOf(box(btVector3(4, 1.5f, 2), 9));
  btRigidBody* body = w.addBox(btVector3(4, 1.5f, 2), 6000, btTransform::getIdentity());
  std::shared_ptr<const WaterSurface> surface = std::make_shared<FlatSurface>();
  if (wavy)
    surface = std::make_shared<SineSumSurface>(std::vector<WaveComponent>{
        deepWaterWave(0.3, 25, 0.0, 0.0), deepWaterWave(0.2, 12, 0.7, 1.0), deepWaterWave(0.05, 4, -0.4, 2.0)});
  WaterAction boat(body, hull, surface);
  HydrodynamicSettings hydro;
  hydro.damping = true;
  boat.setHydrodynamics(hydro);
  if (compartments > 0)
    boat.setCompartments(sliced > 0 ? slicedCompartments(*hull, sliced == 2) : fourCompartments(flooding));
  const double step = 2 * 3.14159265358979 / 240;
  long k = 0;
  for (auto _ : state) {
    ++k;
    const btQuaternion roll(btVector3(1, 0, 0), btScalar(0.15 * std::sin(double(k % 960) * step / 4)));
    const btQuaternion pitch(btVector3(0, 0, 1), btScalar(0.1 * std::sin(double(k % 1200) * step / 5)));
    body->setCenterOfMassTransform(btTransform(roll * pitch, btVector3(0, 0.1f, 0)));
    body->setLinearVelocity(btVector3(3, -0.5f, 0.2f));
    body->setAngularVelocity(btVector3(0.1f, 0.2f, -0.1f));
    boat.updateAction(&w.world, btScalar(1.0 / 240));
    benchmark::DoNotOptimize(body->getLinearVelocity());
  }
  state.SetLabel(std::string(wavy ? "wavy/" : "flat/") + (compartments == 0 ? "no compartments"
                                                          : sliced == 1     ? "4 flooding, cut from the hull"
                                                          : sliced == 2     ? "4 flooding, cut and simplified"
                                                          : flooding        ? "4 flooding"
                                                                            : "4 dry"));
}

BENCHMARK(flooding)
    ->ArgNames({"compartments", "flooding", "wavy", "sliced"})
    ->ArgsProduct({{0}, {0}, {0, 1}, {0}})
    ->ArgsProduct({{4}, {0, 1}, {0, 1}, {0}})
    ->ArgsProduct({{4}, {1}, {0, 1}, {1, 2}})
    ->Unit(benchmark::kMicrosecond);

}  // namespace
}  // namespace keel::test
