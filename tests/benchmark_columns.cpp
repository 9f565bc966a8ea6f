// The column model (docs/columns.md) against the triangles, and the cost
// of building a ColumnHull. Run:
//   build/tests/keel_bench --benchmark_filter='columns|columnBuild' --benchmark_min_time=0.2
//   --benchmark_repetitions=5 --benchmark_report_aggregates_only=true
#include "bench_boat.hpp"

#include <benchmark/benchmark.h>

#include <cstddef>
#include <memory>
#include <string>

namespace keel::test {
namespace {

/// The column model (docs/columns.md) against the triangles on the same
/// hull: `hull` 0 is Zephyr's 4.7 m x 0.7 m boat as a box (192
/// triangles), 1 a 10 m boat hull (484 triangles); `model` 0 triangles,
/// 1 columns at the default cell (about 330), 2 columns at half that cell
/// (about 1,320: the difference is the cost per column), 3 columns at the
/// default cell without the damping, 4 columns at the default cell with
/// flat ends (ColumnSettings::slopedEnds false). Hydrostatics and damping (but 3),
/// direct sampling.
void columns(benchmark::State& state) {
  const bool boatShape = state.range(0) != 0, wavy = state.range(1) != 0;
  const int model = int(state.range(2));
  World w;
  const auto hull = hullOf(boatShape ? boatHull(10, 3.5f, 2.5f, 20, 6) : box(btVector3(4.7f, 1, 0.7f), 4));
  const btVector3 size = hull->boundsMax() - hull->boundsMin();
  btRigidBody* body = w.addBox(
      size, btScalar(0.4 * 1025) * hull->volume_m3(),
      btTransform(btQuaternion(btVector3(1, 0, 0.3f).normalized(), 0.1f), btVector3(0, 0.1f, 0)));
  std::shared_ptr<const WaterSurface> surface = wavy ? waves() : std::make_shared<FlatSurface>();
  WaterAction boat(body, hull, surface);
  HydrodynamicSettings hydro = HydrodynamicSettings::none();
  hydro.damping = model != 3;
  hydro.linearDamping_Nspm = 100;
  hydro.angularDamping_Nmsprad = 100;
  hydro.waterVelocity = WaterVelocitySampling::PerBoat;
  boat.setHydrodynamics(hydro);
  if (model > 0) {
    ColumnSettings columns{0, model == 2 ? 1320u : 330u};
    columns.slopedEnds = model != 4;
    LevelOfDetail lod = boat.levelOfDetail();
    lod.model = BuoyancyModel::Columns;
    lod.columns = std::make_shared<ColumnHull>(*hull, columns);
    boat.setLevelOfDetail(lod);
  }
  const btTransform start = body->getCenterOfMassTransform();
  for (auto _ : state) {
    body->setCenterOfMassTransform(start);
    body->setLinearVelocity(btVector3(3, -0.5f, 0.2f));
    body->setAngularVelocity(btVector3(0.1f, 0.2f, -0.1f));
    boat.updateAction(&w.world, btScalar(1.0 / 240));
    benchmark::DoNotOptimize(body->getLinearVelocity());
  }
  state.counters["triangles"] = double(hull->triangles().size());
  state.counters["columns"] = model > 0 ? double(boat.columnHull()->columns().size()) : 0.0;
  state.SetLabel(std::string(wavy ? "wavy" : "flat") + (model == 0 ? "/triangles" : "/columns") +
                 (model == 3   ? "/no damping"
                  : model == 4 ? "/flat ends"
                               : ""));
}

BENCHMARK(columns)
    ->ArgNames({"boat", "wavy", "model"})
    ->ArgsProduct({{0, 1}, {0, 1}, {0, 1, 2}})
    ->ArgsProduct({{0, 1}, {0}, {3, 4}})
    ->Unit(benchmark::kMicrosecond);

/// Building a ColumnHull once (docs/columns.md, "Overlapping parts"): the
/// 10 m boat hull of `columns` alone (`cabin` 0), or with a 4 x 1.2 x 2.4 m
/// cabin box of 192 triangles sunk into it (`cabin` 1: their union), at the
/// default cell (`fine` 0) or half of it (`fine` 1); `hull` 1 builds the
/// keel::Hull instead (its checks, and with the cabin the union's volume).
void columnBuild(benchmark::State& state) {
  const bool cabin = state.range(0) != 0, fine = state.range(1) != 0, hullOnly = state.range(2) != 0;
  const Mesh boat = boatHull(10, 3.5f, 2.5f, 20, 6);
  const Mesh mesh = cabin ? joined(boat, box(btVector3(4, btScalar(1.2), btScalar(2.4)), 4, btVector3(0, 1, 0))) : boat;
  HullOptions options;
  options.overlappingParts = cabin;
  const Hull hull(mesh.vertices, mesh.triangles, options);
  ColumnSettings settings;
  settings.cellSize_m = ColumnHull(hull).cellSize_m() / (fine ? 2 : 1);
  std::size_t count = 0;
  for (auto _ : state) {
    if (hullOnly) {
      const Hull built(mesh.vertices, mesh.triangles, options);
      count = built.triangles().size();
    } else {
      const ColumnHull columns(hull, settings);
      count = columns.columns().size();
    }
    benchmark::DoNotOptimize(count);
  }
  state.counters[hullOnly ? "triangles" : "columns"] = double(count);
  state.counters["overlap"] = hull.partsOverlap() ? 1.0 : 0.0;
}

BENCHMARK(columnBuild)
    ->ArgNames({"cabin", "fine", "hull"})
    ->ArgsProduct({{0, 1}, {0, 1}, {0}})
    ->ArgsProduct({{0, 1}, {0}, {1}})
    ->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace keel::test
