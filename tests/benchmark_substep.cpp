// The whole per-boat substep: hulls of 12 to 20k
// triangles, flat and wavy water, direct and patch sampling; then the real
// seas (64 components of a JONSWAP spectrum, Hs 2 m) on each surface. Run:
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
#include <memory>
#include <string>

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
std::shared_ptr<WaterSurface> waves() {
  return std::make_shared<SineSumSurface>(std::vector<WaveComponent>{
      deepWaterWave(0.3, 25, 0.0, 0.0), deepWaterWave(0.2, 12, 0.7, 1.0), deepWaterWave(0.05, 4, -0.4, 2.0)});
}

/// The real sea of the benchmarks: 64 components of a JONSWAP spectrum of
/// Hs 2 m, Tp 7 s (sampleSeaState's default count).
std::vector<WaveComponent> realSea() {
  return sampleSeaState(WaveSpectrum::jonswap(2.0, 7.0), {.meanDirection_rad = 0.3, .componentCount = 64, .seed = 5});
}

/// The real sea's heights on a 200 m square grid of 0.5 m cells at t = 0: a
/// game's ocean handed to Keel as heights.
std::shared_ptr<WaterSurface> realSeaGrid() {
  const SineSumSurface sea(realSea());
  const HeightGridLayout layout{
      .originEast_m = -100, .originNorth_m = -100, .cellSize_m = 0.5, .nodesEast = 401, .nodesNorth = 401};
  auto grid = std::make_shared<HeightGridSurface>(layout);
  std::vector<btScalar> u, v, h(std::size_t(401 * 401));
  for (int j = 0; j < 401; ++j)
    for (int i = 0; i < 401; ++i) u.push_back(btScalar(-100 + 0.5 * i)), v.push_back(btScalar(-100 + 0.5 * j));
  sea.heights(u.data(), v.data(), h.size(), 0, h.data());
  grid->setHeights(h, 0);
  return grid;
}

/// The water of a `sea` argument: 0 flat, 1 three sines, 2 the real sea as
/// sines, 3 as Gerstner waves (0.9 of the fold limit), 4 as a height grid,
/// 5 the spectral ocean of the same spectrum (128 x 128 tile, its defaults),
/// 6 the same answering by a particle solve per point (SpectralQuery::ParticleSolve).
std::shared_ptr<WaterSurface> water(int sea) {
  switch (sea) {
    case 1: return waves();
    case 2: return std::make_shared<SineSumSurface>(realSea());
    case 3: {
      const auto components = realSea();
      return std::make_shared<GerstnerSurface>(
          components, GerstnerSettings{.steepness = std::min(1.0, 0.9 * gerstnerSteepnessLimit(components))});
    }
    case 4: return realSeaGrid();
    case 5: return std::make_shared<SpectralOcean>(WaveSpectrum::jonswap(2.0, 7.0));
    case 6:
      return std::make_shared<SpectralOcean>(WaveSpectrum::jonswap(2.0, 7.0),
                                             SpectralOceanSettings{.query = SpectralQuery::ParticleSolve});
    default: return std::make_shared<FlatSurface>();
  }
}

/// One boat of the substep benchmarks, from their arguments: the hull of
/// `tris` triangles, the water of `wavy` (water()), the sampling of
/// `patch` and the hydrodynamic terms of `terms` (below).
struct BenchBoat {
  World w;
  std::shared_ptr<const Hull> hull;
  btRigidBody* body;
  std::shared_ptr<WaterSurface> surface;  // frameOnAnUpdatedSea updates a SpectralOcean
  std::unique_ptr<WaterAction> boat;
  btTransform start;
  unsigned instant = 0;  ///< reset()'s count

  explicit BenchBoat(const benchmark::State& state)
      : hull(hullOf(hullWithTriangles(int(state.range(0))))),
        body(w.addBox(btVector3(4, 1.5f, 2), 6000,
                      btTransform(btQuaternion(btVector3(1, 0, 0.3f).normalized(), 0.15f), btVector3(0, 0.1f, 0)))),
        surface(water(int(state.range(1)))) {
    // 0: direct; 1: a patch of 0.5 m cells; 2: of 1 m cells.
    // 3: Sampling::Auto (0.5 m cells when it picks the patch).
    HydrostaticSettings settings;
    settings.sampling = state.range(2) == 3 ? Sampling::Auto : state.range(2) != 0 ? Sampling::Patch : Sampling::Direct;
    settings.patchCellSize_m = state.range(2) == 2 ? 1.0f : 0.5f;  // 0.5 m: an eighth of the shortest wave (4 m)
    boat = std::make_unique<WaterAction>(body, hull, surface, settings);
    // Hydrodynamic terms on, as bits: 1 viscous, 2 pressure drag, 4
    // slamming, 8 air, 16 damping (31: the full model; 0: hydrostatics
    // only); 32: one water velocity per boat instead of one per vertex; 64:
    // the added mass.
    const auto terms = int(state.range(3));
    HydrodynamicSettings hydro = HydrodynamicSettings::none();
    hydro.viscous = terms & 1;
    hydro.pressureDrag = terms & 2;
    hydro.slamming = terms & 4;
    hydro.airResistance = terms & 8;
    hydro.damping = terms & 16;
    if (terms & 32) hydro.waterVelocity = WaterVelocitySampling::PerBoat;
    hydro.addedMass = terms & 64;
    hydro.linearDamping_Nspm = 100;
    hydro.angularDamping_Nmsprad = 100;
    boat->setHydrodynamics(hydro);
    start = body->getCenterOfMassTransform();
  }

  /// The same state before every iteration, so that each does the same work;
  /// the water's clock cycles through 16 instants 0.37 s apart from t = 5 s
  /// (about one peak period of the real sea), so that a wave's work is the
  /// same mean over any run long enough, not that of wherever the clock had
  /// run to. (The spectral ocean, never updated here, holds its t = 0 tile.)
  void reset() { placeAt(5.0 + 0.37 * double(instant++ % 16)); }

  /// The boat's clock at `t_s` [s] and its body at the start pose, moving.
  void placeAt(double t_s) {
    boat->setTime(t_s);
    body->setCenterOfMassTransform(start);
    body->setLinearVelocity(btVector3(3, -0.5f, 0.2f));  // moving, so every drag term works
    body->setAngularVelocity(btVector3(0.1f, 0.2f, -0.1f));
  }

  /// The counters and the label of the benchmark.
  void report(benchmark::State& state) const {
    const int terms = int(state.range(3));
    const bool full = (terms & 31) == 31;
    state.counters["triangles"] = double(hull->triangles().size());
    state.counters["pieces"] = double(boat->submergedPieces().size());
    static const char* const names[] = {"viscous", "pressure", "slamming", "air", "damping"};
    std::string model = full ? "full" : terms == 0 ? "hydrostatic" : "hydrostatic+";
    for (int bit = 0; bit < 5 && !full; ++bit)
      if (terms & (1 << bit)) model += names[bit];
    if (terms & 32) model += "/velocity per boat";
    if (terms & 64) model += "/added mass";
    static const char* const seas[] = {
        "flat", "wavy", "64 sines", "64 Gerstner", "grid of 64 sines", "spectral", "spectral, particle solve"};
    static const char* const samplings[] = {"/direct", "/patch 0.5 m", "/patch 1 m", "/auto"};
    state.SetLabel(std::string(seas[state.range(1)]) + samplings[state.range(2)] + "/" + model +
                   (boat->lastSampling() == Sampling::Patch ? " (patch)" : ""));
  }
};

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

/// A frame as a game runs it (docs/waves.md, "Update and threads"): the
/// water's update() for the frame (untimed: its own cost is
/// keel_bench_waves' spectralUpdate), then Bullet's four 1/240 s substeps
/// of the boat, whose water is then the frame's fresh tiles, not a tile the
/// caches have held since the last iteration. Per iteration: one frame, four
/// substeps; the water's clock runs on, 1/60 s a frame.
void frameOnAnUpdatedSea(benchmark::State& state) {
  BenchBoat b(state);
  auto* ocean = dynamic_cast<SpectralOcean*>(b.surface.get());
  b.body->setActivationState(DISABLE_DEACTIVATION);
  b.w.world.addAction(b.boat.get());
  double t_s = 5;
  for (auto _ : state) {
    state.PauseTiming();
    if (ocean != nullptr) ocean->update(t_s, t_s + 1.0 / 60);
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
// default (Auto, 0.5 m cells), the full model.
BENCHMARK(frameOnAnUpdatedSea)
    ->ArgNames({"tris", "wavy", "patch", "terms"})
    ->ArgsProduct({{12, 1000}, {0, 2, 5}, {0, 2, 3}, {31}})
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
