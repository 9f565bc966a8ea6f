#pragma once
// What the substep benchmarks share (tests/benchmark_substep.cpp,
// tests/benchmark_updated_sea.cpp, tests/benchmark_columns.cpp): hulls of a
// requested triangle count, the water of their `wavy` argument (flat, three
// sines, the real sea on each surface) and BenchBoat, one boat built from the
// benchmark's arguments.

#include "test_hulls.hpp"

#include <benchmark/benchmark.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <memory>
#include <string>
#include <vector>

namespace keel::test {

/// Hulls of about the requested triangle counts.
inline Mesh hullWithTriangles(int triangles) {
  if (triangles <= 12) return box(btVector3(4, 1.5f, 2));
  // Boxes give exact counts: 12 n^2 triangles.
  const int n = std::max(1, int(std::lround(std::sqrt(triangles / 12.0))));
  return box(btVector3(4, 1.5f, 2), n);
}

/// Three linear waves of 4 to 25 m, the library's SineSumSurface.
inline std::shared_ptr<WaterSurface> waves() {
  return std::make_shared<SineSumSurface>(std::vector<WaveComponent>{
      deepWaterWave(0.3, 25, 0.0, 0.0), deepWaterWave(0.2, 12, 0.7, 1.0), deepWaterWave(0.05, 4, -0.4, 2.0)});
}

/// The real sea of the benchmarks: 64 components of a JONSWAP spectrum of
/// Hs 2 m, Tp 7 s (sampleSeaState's default count).
inline std::vector<WaveComponent> realSea() {
  return sampleSeaState(WaveSpectrum::jonswap(2.0, 7.0), {.meanDirection_rad = 0.3, .componentCount = 64, .seed = 5});
}

/// The real sea's heights on a 200 m square grid of 0.5 m cells at t = 0: a
/// game's ocean handed to Keel as heights.
inline std::shared_ptr<WaterSurface> realSeaGrid() {
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
inline std::shared_ptr<WaterSurface> water(int sea) {
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

  /// `frames`: the boat's substeps follow one another (placeAt() a frame,
  /// as frameOnAnUpdatedSea); otherwise each jumps in time (reset()) and
  /// its patch samples the water at the substep's own time: the patch in
  /// time (HydrostaticSettings::patchSubstepsPerSample) would query the
  /// two lattice times around every jumped substep, which no game does.
  explicit BenchBoat(const benchmark::State& state, bool frames = false)
      : hull(hullOf(hullWithTriangles(int(state.range(0))))),
        body(w.addBox(btVector3(4, 1.5f, 2), 6000,
                      btTransform(btQuaternion(btVector3(1, 0, 0.3f).normalized(), 0.15f), btVector3(0, 0.1f, 0)))),
        surface(water(int(state.range(1)))) {
    // 0: direct; 1: a patch of 0.5 m cells; 2: of 1 m cells.
    // 3: Sampling::Auto (0.5 m cells when it picks the patch).
    HydrostaticSettings settings;
    settings.sampling = state.range(2) == 3 ? Sampling::Auto : state.range(2) != 0 ? Sampling::Patch : Sampling::Direct;
    settings.patchCellSize_m = state.range(2) == 2 ? 1.0f : 0.5f;  // 0.5 m: an eighth of the shortest wave (4 m)
    if (!frames) settings.patchSubstepsPerSample = 1;
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

}  // namespace keel::test
