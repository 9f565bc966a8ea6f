// The WakeField's cost (docs/wakes.md, "Cost"): a harbour of boats making
// waves in a window, one 1/60 s frame at a time (each boat's substep, which
// leaves its sources, then the field's update), alone and together, over
// the window's size, its cells, its depth bands and the boats; then one
// boat's substep on the field against its substep on the ambient sea alone.
// Run:
//   build/float/tests/keel_bench_wake --benchmark_min_time=0.2 --benchmark_repetitions=5
//   --benchmark_report_aggregates_only=true --benchmark_enable_random_interleaving=true
#include "test_hulls.hpp"

#include <benchmark/benchmark.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <memory>
#include <numbers>
#include <string>
#include <vector>

namespace keel::test {
namespace {

constexpr double kFrame_s = 1.0 / 60;
constexpr double kSpeed_mps = 3;   // each boat's speed round its circle
constexpr double kCircle_m = 2.5;  // the circle's radius

/// The ambient sea of a `sea` argument: 0 flat water, 1 the spectral ocean
/// (JONSWAP Hs 2 m, Tp 7 s, its defaults, never updated: its t = 0 tile).
std::shared_ptr<const WaterSurface> ambientSea(int sea) {
  if (sea == 1) return std::make_shared<SpectralOcean>(WaveSpectrum::jonswap(2.0, 7.0));
  return std::make_shared<FlatSurface>();
}

/// `boats` captive boats of the fleet benchmark's hull scaled to 4 m (about
/// 480 triangles) on a square grid inside the window's absorbing band, each
/// going round a circle at kSpeed_mps, heading along its path; each floats
/// on the field, and makes waves in it when `makeWaves`.
struct Harbour {
  World w;
  std::shared_ptr<WakeField> field;
  std::shared_ptr<const Hull> hull = hullOf(boatHull(4, 1.5f, 1, 20, 6));
  std::vector<std::unique_ptr<WaterAction>> boats;
  std::vector<btRigidBody*> bodies;
  std::vector<btVector3> centres;
  double t_s = 0;

  Harbour(double size_m, double cell_m, int bands, int boatCount, int sea, bool makeWaves) {
    WakeFieldSettings ws;
    ws.size_m = size_m;
    ws.cellSize_m = cell_m;
    ws.depthBands = bands;
    field = std::make_shared<WakeField>(ambientSea(sea), ws);
    const int perSide = int(std::ceil(std::sqrt(double(boatCount))));
    const double inner = 0.75 * size_m - 2 * kCircle_m - 4, spacing = inner / perSide;
    for (int b = 0; b < boatCount; ++b) {
      const double east = -inner / 2 + spacing * (0.5 + b % perSide);
      const double south = -inner / 2 + spacing * (0.5 + b / perSide);
      centres.emplace_back(btScalar(east), 0, btScalar(south));
      bodies.push_back(w.addBox(btVector3(4, 1, 1.5f), 3000, btTransform::getIdentity()));
      boats.push_back(std::make_unique<WaterAction>(bodies.back(), hull, field));
      if (makeWaves) field->add(*boats.back());
    }
    for (int f = 0; f < 30; ++f) frame();  // warm: every buffer sized, the field holding waves
  }

  /// Each boat placed on its circle at the frame's start and its substep
  /// computed (its sources left for the field), as Bullet's one substep of
  /// the frame would.
  void substeps() {
    const double omega = kSpeed_mps / kCircle_m;
    for (std::size_t b = 0; b < boats.size(); ++b) {
      const double a = omega * t_s + 0.7 * double(b);
      const btVector3 at = centres[b] +
                           btVector3(btScalar(kCircle_m * std::cos(a)), 0, btScalar(kCircle_m * std::sin(a)));
      const btVector3 v(btScalar(-kSpeed_mps * std::sin(a)), 0, btScalar(kSpeed_mps * std::cos(a)));
      const btQuaternion heading(btVector3(0, 1, 0), btScalar(-std::atan2(double(v.z()), double(v.x()))));
      bodies[b]->setWorldTransform(btTransform(heading, at));
      bodies[b]->setLinearVelocity(v);
      bodies[b]->setAngularVelocity(btVector3(0, btScalar(-omega), 0));
      boats[b]->setTime(t_s);
      boats[b]->prime(btScalar(kFrame_s));
    }
  }
  void update() {
    field->update(t_s, t_s + kFrame_s);
    t_s += kFrame_s;
  }
  void frame() {
    substeps();
    update();
  }
};

/// The arguments: window [m], cell [cm], depth bands, boats, then what one
/// iteration times: 0 the whole frame (the substeps and the update), 1 the
/// update alone (the sources the boats left at the warm frames), 2 the
/// substeps alone, the boats making waves, 3 the substeps alone, the boats
/// floating on the field but making none.
void wakeFrame(benchmark::State& state) {
  const int part = int(state.range(4));
  Harbour h(double(state.range(0)), double(state.range(1)) / 100, int(state.range(2)), int(state.range(3)), 0,
            part != 3);
  for (auto _ : state) {
    if (part != 1) h.substeps();
    if (part <= 1)
      h.update();
    else
      h.t_s += kFrame_s;
    benchmark::DoNotOptimize(h.field->wakeHeight_m(0, 0, h.t_s));
  }
  static const char* const parts[] = {"frame", "update", "substeps", "substeps, no waves made"};
  state.SetLabel(std::string(parts[part]) + "/" + std::to_string(h.field->nodesPerSide()) + " nodes/" +
                 std::to_string(h.hull->triangles().size()) + " triangles a boat");
}

// CPU time is the process's (the update's transforms run on TBB's threads).
// The harbour's case (128 m, 0.5 m cells, 2 bands, 100 boats) in every part;
// then the window, the cells, the bands and the boats, one at a time.
BENCHMARK(wakeFrame)
    ->ArgNames({"size", "cell_cm", "bands", "boats", "part"})
    ->ArgsProduct({{128}, {50}, {2}, {100}, {0, 1, 2, 3}})
    ->ArgsProduct({{64, 256}, {50}, {2}, {100}, {1}})
    ->ArgsProduct({{128}, {100, 25}, {2}, {100}, {1}})
    ->ArgsProduct({{128}, {50}, {1, 3, 4}, {100}, {1}})
    ->ArgsProduct({{128}, {50}, {2}, {1, 10, 1000}, {0, 1, 2, 3}})
    ->MeasureProcessCPUTime()
    ->Unit(benchmark::kMillisecond);

/// Not a timing: the harbour's field after 30 frames of warming and 30
/// more (128 m, 0.5 m cells, 100 boats, the depth bands of the argument),
/// as a hash of its heights' bits at every node, in the label: a change
/// that keeps the field's bits keeps it.
void wakeBits(benchmark::State& state) {
  Harbour h(128, 0.5, int(state.range(0)), 100, 0, true);
  for (int f = 0; f < 30; ++f) h.frame();
  std::uint64_t hash = 14695981039346656037ULL;
  for (int j = 0; j < 256; ++j)
    for (int i = 0; i < 256; ++i) {
      const btScalar height = h.field->wakeHeight_m(btScalar(-64 + 0.5 * i), btScalar(-64 + 0.5 * j), h.t_s);
      std::uint32_t bits = 0;
      std::memcpy(&bits, &height, sizeof bits);
      hash = (hash ^ bits) * 1099511628211ULL;
    }
  for (auto _ : state) benchmark::DoNotOptimize(hash);
  state.SetLabel("heights' hash " + std::to_string(hash) + ", energy " + std::to_string(h.field->energy_J()) + " J");
}

BENCHMARK(wakeBits)->ArgNames({"bands"})->DenseRange(1, 4)->Iterations(1);

/// One boat's substep (Bullet's call, 1/240 s) with the default settings, on
/// the ambient sea alone (`field` 0) or on a field over it that the boat
/// makes waves in (1): the same hull, the same state before each iteration
/// (moving, so that it makes waves), the water's clock cycling as the
/// substep benchmark's does. `sea`: ambientSea()'s; `hull` 0 the harbour's
/// boat (about 480 triangles), 1 the 972-triangle box of docs/performance.md.
void boatSubstep(benchmark::State& state) {
  const int sea = int(state.range(0));
  const bool onField = state.range(1) != 0;
  World w;
  const auto hull = hullOf(state.range(2) == 0 ? boatHull(4, 1.5f, 1, 20, 6) : box(btVector3(4, 1.5f, 2), 9));
  const btTransform start(btQuaternion(btVector3(1, 0, 0.3f).normalized(), 0.15f), btVector3(0, 0.1f, 0));
  btRigidBody* body = w.addBox(btVector3(4, 1.5f, 2), 6000, start);
  const auto ambient = ambientSea(sea);
  const auto field = std::make_shared<WakeField>(ambient);
  WaterAction boat(body, hull, onField ? std::shared_ptr<const WaterSurface>(field) : ambient);
  if (onField) field->add(boat);
  auto reset = [&](unsigned instant) {
    body->setCenterOfMassTransform(start);
    body->setLinearVelocity(btVector3(3, -0.5f, 0.2f));
    body->setAngularVelocity(btVector3(0.1f, 0.2f, -0.1f));
    return 5.0 + 0.37 * double(instant % 16);
  };
  // Warm: the field holds the waves of a few substeps, and its last update
  // spans the instants the iterations query.
  for (unsigned i = 0; i < 8; ++i) {
    const double t = reset(i);
    boat.setTime(t);
    boat.updateAction(&w.world, btScalar(1.0 / 240));
    field->update(double(i) * kFrame_s, double(i + 1) * kFrame_s);
  }
  field->update(5.0, 5.0 + 0.37 * 16);
  unsigned instant = 0;
  for (auto _ : state) {
    boat.setTime(reset(instant++));
    boat.updateAction(&w.world, btScalar(1.0 / 240));
    benchmark::DoNotOptimize(body->getLinearVelocity());
  }
  state.counters["triangles"] = double(hull->triangles().size());
  state.counters["pieces"] = double(boat.submergedPieces().size());
  state.SetLabel(std::string(sea == 1 ? "spectral" : "flat") + (onField ? "/on the field" : "/ambient alone"));
}

BENCHMARK(boatSubstep)->ArgNames({"sea", "field", "hull"})->ArgsProduct({{0, 1}, {0, 1}, {0, 1}});

}  // namespace
}  // namespace keel::test

BENCHMARK_MAIN();
