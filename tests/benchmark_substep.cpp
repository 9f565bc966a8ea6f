// The whole per-boat substep: hulls of 12 to 20k
// triangles, flat and wavy water, direct and patch sampling. Run:
//   build/tests/keel_bench --benchmark_min_time=0.2 --benchmark_repetitions=5
//   --benchmark_report_aggregates_only=true
// KEEL_SIMD_TARGET=AVX2 (or AVX3, SSE4, SSSE3, SCALAR: Highway's names) runs
// the kernels of that instruction set instead of the CPU's best.
#include "test_hulls.hpp"

#include <benchmark/benchmark.h>
#include <hwy/targets.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace keel::test {
namespace {

/// Hulls of about the requested triangle counts.
Mesh hullWithTriangles(int triangles) {
  if (triangles <= 12) return box(btVector3(4, 1.5f, 2));
  // Boxes give exact counts: 12 n^2 triangles.
  const int n = std::max(1, int(std::lround(std::sqrt(triangles / 12.0))));
  return box(btVector3(4, 1.5f, 2), n);
}

/// Three linear waves of 4 to 25 m, the library's SineSumSurface.
std::shared_ptr<const WaterSurface> waves() {
  return std::make_shared<SineSumSurface>(std::vector<WaveComponent>{
      deepWaterWave(0.3, 25, 0.0, 0.0), deepWaterWave(0.2, 12, 0.7, 1.0), deepWaterWave(0.05, 4, -0.4, 2.0)});
}

void substep(benchmark::State& state) {
  const int triangles = int(state.range(0));
  const bool wavy = state.range(1) != 0;
  const Sampling sampling = state.range(2) != 0 ? Sampling::Patch : Sampling::Direct;
  // Hydrodynamic terms on, as bits: 1 viscous, 2 pressure drag, 4 slamming,
  // 8 air, 16 damping (31: the full model; 0: hydrostatics only).
  const int terms = int(state.range(3));
  const bool full = terms == 31;
  World w;
  const auto hull = hullOf(hullWithTriangles(triangles));
  btRigidBody* body = w.addBox(
      btVector3(4, 1.5f, 2), 6000,
      btTransform(btQuaternion(btVector3(1, 0, 0.3f).normalized(), 0.15f), btVector3(0, 0.1f, 0)));
  HydrostaticSettings settings;
  settings.sampling = sampling;
  settings.patchCellSize_m = 0.5f;  // an eighth of the shortest wave (4 m)
  std::shared_ptr<const WaterSurface> surface = wavy ? waves() : std::make_shared<FlatSurface>();
  WaterAction boat(body, hull, surface, settings);
  HydrodynamicSettings hydro = HydrodynamicSettings::none();
  hydro.viscous = terms & 1;
  hydro.pressureDrag = terms & 2;
  hydro.slamming = terms & 4;
  hydro.airResistance = terms & 8;
  hydro.damping = terms & 16;
  hydro.linearDamping_Nspm = 100;
  hydro.angularDamping_Nmsprad = 100;
  boat.setHydrodynamics(hydro);
  const btTransform start = body->getCenterOfMassTransform();
  for (auto _ : state) {
    // Keep the state fixed so every iteration does the same work.
    body->setCenterOfMassTransform(start);
    body->setLinearVelocity(btVector3(3, -0.5f, 0.2f));  // moving, so every drag term works
    body->setAngularVelocity(btVector3(0.1f, 0.2f, -0.1f));
    boat.updateAction(&w.world, btScalar(1.0 / 240));
    benchmark::DoNotOptimize(body->getLinearVelocity());
  }
  state.counters["triangles"] = double(hull->triangles().size());
  state.counters["pieces"] = double(boat.submergedPieces().size());
  static const char* const names[] = {"viscous", "pressure", "slamming", "air", "damping"};
  std::string model = full ? "full" : terms == 0 ? "hydrostatic" : "hydrostatic+";
  for (int bit = 0; bit < 5 && !full; ++bit)
    if (terms & (1 << bit)) model += names[bit];
  state.SetLabel(std::string(wavy ? "wavy" : "flat") + (sampling == Sampling::Patch ? "/patch" : "/direct") + "/" +
                 model);
}

// Every hull size, water and sampling, hydrostatics only and the full model;
// then each hydrodynamic term alone on the 1k-triangle hull.
BENCHMARK(substep)
    ->ArgNames({"tris", "wavy", "patch", "terms"})
    ->ArgsProduct({{12, 200, 1000, 5000, 20000}, {0, 1}, {0, 1}, {0, 31}})
    ->ArgsProduct({{1000}, {0, 1}, {0}, {1, 2, 4, 8, 16}})
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
    boat.setColumnHull(std::make_shared<ColumnHull>(*hull, columns));
    boat.setBuoyancyModel(BuoyancyModel::Columns);
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
