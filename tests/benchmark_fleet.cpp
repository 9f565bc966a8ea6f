// Scaling (docs/performance.md, "Many boats"): 1 to 1,000 boats on Gerstner waves, the whole
// Bullet step included, split into the water forces (WaterFleet's share)
// and Bullet's own work. Run:
//   build/tests/keel_bench_fleet --benchmark_min_time=2 --benchmark_repetitions=3
//   --benchmark_report_aggregates_only=true
#include "fleet_world.hpp"
#include "ocean_alongside.hpp"
#include "test_hulls.hpp"
#include "wall_clock.hpp"

#include <BulletCollision/BroadphaseCollision/btDbvtBroadphase.h>
#include <LinearMath/btQuickprof.h>
#include <benchmark/benchmark.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

namespace keel::test {
namespace {

/// A 10 m boat hull of about `triangles` triangles: (2 stations + 2)(2 perSide - 1).
Mesh boatOf(int triangles) {
  const int perSide = triangles <= 150 ? 3 : triangles <= 800 ? 6 : 11;
  const int stations = std::max(2, triangles / (2 * (2 * perSide - 1)) - 1);
  return boatHull(10, 3.5f, 2.5f, stations, perSide);
}

/// Boat i of a fleet laid out `side` boats to a row, 20 m apart, each
/// turned 0.7 rad about the vertical from the one before.
btTransform fleetPose(int i, int side) {
  return btTransform(btQuaternion(btVector3(0, 1, 0), btScalar(0.7 * i)),
                     btVector3(btScalar(20 * (i % side)), 0, btScalar(20 * (i / side))));
}

/// Bullet's own phases, timed through its profile zones (BT_PROFILE, on in
/// Debian's build): where its step goes, as counters "<phase>_ms".
struct BulletPhases {
  static constexpr std::array<std::pair<const char*, const char*>, 9> zones{{
      {"predictUnconstraintMotion", "predict_ms"},
      {"createPredictiveContacts", "ccd_ms"},
      {"updateAabbs", "aabbs_ms"},
      {"calculateOverlappingPairs", "pairs_ms"},
      {"dispatchAllCollisionPairs", "narrow_ms"},
      {"calculateSimulationIslands", "islands_ms"},
      {"solveConstraints", "solve_ms"},
      {"integrateTransforms", "integrate_ms"},
      {"updateActivationState", "activation_ms"},
  }};
  static inline std::array<double, zones.size()> seconds{};
  static inline std::array<std::size_t, 64> open{};  // the zone entered at each depth (size(): not timed)
  static inline std::array<std::chrono::steady_clock::time_point, 64> since{};
  static inline std::size_t depth = 0;
  static inline btEnterProfileZoneFunc* enterBefore = nullptr;
  static inline btLeaveProfileZoneFunc* leaveBefore = nullptr;
  static void enter(const char* name) {
    if (depth >= open.size()) return;
    std::size_t k = 0;
    while (k < zones.size() && std::strcmp(zones[k].first, name) != 0) ++k;
    open[depth] = k;
    if (k < zones.size()) since[depth] = std::chrono::steady_clock::now();
    ++depth;
  }
  static void leave() {
    if (depth == 0) return;
    --depth;
    if (depth < open.size() && open[depth] < zones.size())
      seconds[open[depth]] += std::chrono::duration<double>(std::chrono::steady_clock::now() - since[depth]).count();
  }
  /// Times the zones from now on.
  static void start() {
    seconds.fill(0);
    depth = 0;
    enterBefore = btGetCurrentEnterProfileZoneFunc();
    leaveBefore = btGetCurrentLeaveProfileZoneFunc();
    btSetCustomEnterProfileZoneFunc(enter);
    btSetCustomLeaveProfileZoneFunc(leave);
  }
  /// Stops timing and reports each zone's time a step.
  static void stop(benchmark::State& state, double steps) {
    btSetCustomEnterProfileZoneFunc(enterBefore);
    btSetCustomLeaveProfileZoneFunc(leaveBefore);
    for (std::size_t k = 0; k < zones.size(); ++k) state.counters[zones[k].second] = 1e3 * seconds[k] / steps;
  }
};

/// How the game sets up its Bullet world: 0, Bullet's defaults; 1, the
/// broadphase margin docs/integration.md advises for thousands of boats
/// (game::setBroadphaseMargin, 0.5 m); 2, that and no swept boxes (no body
/// uses continuous collision detection), which finds a fast boat's contact
/// a step later: not advised.
enum class WorldSetup { Default = 0, Margin = 1, MarginNotSwept = 2 };

void runFleet(benchmark::State& state, WorldSetup setup) {
  const int boats = int(state.range(0)), triangles = int(state.range(1)), threads = int(state.range(2));
  // 0: direct heights and every hydrodynamic term with the water velocity
  // per vertex (the full-detail default); 1: the cheap level of detail for
  // distant boats: a 3 m patch, hydrostatics, and damping by the submerged
  // fraction relative to the water velocity under the boat; 2: the far-boat
  // preset, keel::farBoatSettings (the same on columns); 3: the full detail
  // with a patch of 1 m cells for the heights; 4: that with one water
  // velocity per boat for the flow terms (every term still on).
  const bool cheap = state.range(3) == 1, far = state.range(3) == 2;
  World w;
  const btScalar bulletsMargin = setup == WorldSetup::Default ? gDbvtMargin : game::setBroadphaseMargin(btScalar(0.5));
  if (setup == WorldSetup::MarginNotSwept) w.world.getDispatchInfo().m_useContinuous = false;
  // 0: six Gerstner waves of Hs 1.5 m; 1: the real sea, 64 components of a
  // JONSWAP spectrum of Hs 2 m, Tp 7 s, as Gerstner waves; 2: as sines;
  // 3: the spectral ocean of that spectrum (its defaults), updated every
  // step inside the timed step; 4: the same answering by a particle solve
  // per point (SpectralQuery::ParticleSolve); 5: the ocean of 3, each next
  // frame's tiles prepared alongside Bullet's step and published after it
  // (docs/threads.md, "The ocean alongside the step"), timed with the step.
  const int sea = state.range(4) < 0 ? 0 : int(state.range(4));
  const bool alongside = sea == 5;
  std::shared_ptr<const WaterSurface> surface;
  std::shared_ptr<SpectralOcean> ocean;
  if (sea == 3 || sea == 4 || alongside) {
    ocean = std::make_shared<SpectralOcean>(
        WaveSpectrum::jonswap(2.0, 7.0),
        SpectralOceanSettings{.query = sea == 4 ? SpectralQuery::ParticleSolve : SpectralQuery::FixedPointTiles});
    surface = ocean;
  }
  if (sea == 0) surface = gerstnerSea(1.5, 6.0, 6, 5, 0.7);
  if (sea == 1) surface = gerstnerSea(2.0, 7.0, 64, 5, 0.9);
  if (sea == 2)
    surface = std::make_shared<SineSumSurface>(
        sampleSeaState(WaveSpectrum::jonswap(2.0, 7.0), {.meanDirection_rad = 0.3, .componentCount = 64, .seed = 5}));
  const auto hull = hullOf(boatOf(triangles));
  WaterFleet water(surface, threads);
  HydrostaticSettings settings;
  HydrodynamicSettings hydro;
  if (cheap) {
    settings.sampling = Sampling::Patch;
    settings.patchCellSize_m = 3.0f;
    hydro = HydrodynamicSettings::none();
    hydro.waterVelocity = WaterVelocitySampling::PerBoat;
    hydro.damping = true;
    hydro.linearDamping_Nspm = btScalar(0.4 * 1025 * hull->volume_m3());          // ~ mass x 1/s
    hydro.angularDamping_Nmsprad = btScalar(0.4 * 1025 * hull->volume_m3() * 4);  // ~ inertia x 1/s
  }
  if (state.range(3) == 3 || state.range(3) == 4) {
    settings.sampling = Sampling::Patch;
    settings.patchCellSize_m = 1.0f;
  }
  if (state.range(3) == 4) hydro.waterVelocity = WaterVelocitySampling::PerBoat;
  const btVector3 size = hull->boundsMax() - hull->boundsMin();
  const int side = int(std::ceil(std::sqrt(double(boats))));
  // "layout" 0: each body made just before its boat's water action, so the
  // boats' water state lies between the bodies in memory; 1: every body
  // made first, as a game loading a level might (docs/performance.md,
  // "Many boats": at 10,000 boats Bullet's own step depends on it).
  const bool bodiesFirst = state.range(5) == 1;
  const auto makeBody = [&](int i) {
    return w.addBox(size, btScalar(0.4 * 1025 * hull->volume_m3()), fleetPose(i, side));
  };
  if (bodiesFirst)
    for (int i = 0; i < boats; ++i) (void)makeBody(i);
  for (int i = 0; i < boats; ++i) {
    btRigidBody* body = bodiesFirst ? w.bodies[std::size_t(i)].get() : makeBody(i);
    WaterAction& boat = water.add(body, hull, settings);
    boat.setHydrodynamics(hydro);
    if (far) boat.setLevelOfDetail(farBoatSettings(*hull));
  }
  w.world.addAction(&water);
  const btScalar dt = btScalar(1.0 / 60);
  water.prime(dt);
  double clock_s = 0;
  // A frame: the ocean's tiles for it (a game's per-frame cost), then Bullet's
  // step; or the step with the next frame's tiles prepared alongside (their
  // time inside the step's). Returns the wall time of the update [s].
  const auto frame = [&] {
    double update_s = 0;
    if (alongside) {
      game::stepWithOceanAlongside(w.world, *ocean, clock_s, double(dt), 1);
    } else {
      if (ocean) {
        update_s = secondsOf([&] { ocean->update(clock_s, clock_s + double(dt)); });
      }
      w.world.stepSimulation(dt, 1, dt);
    }
    clock_s += double(dt);
    return update_s;
  };
  if (alongside) ocean->update(clock_s, clock_s + double(dt));
  for (int i = 0; i < 30; ++i) (void)frame();  // warm: buffers, contacts, islands
  double waterSeconds = 0, totalSeconds = 0, oceanSeconds = 0, leafUpdates = 0;
  BulletPhases::start();
  std::vector<double> stepSeconds;  // "each substep under 16.7 ms": the distribution, not just the mean
  stepSeconds.reserve(1 << 16);
  for (auto _ : state) {
    const double seconds = secondsOf([&] { oceanSeconds += frame(); });
    totalSeconds += seconds;
    stepSeconds.push_back(seconds);
    waterSeconds += water.lastUpdateWallTime_s();
    leafUpdates += double(w.broadphase.m_updates_ratio);
  }
  std::sort(stepSeconds.begin(), stepSeconds.end());
  const auto percentile = [&](double p) {
    return stepSeconds.empty() ? 0.0 : stepSeconds[std::size_t(p * double(stepSeconds.size() - 1))];
  };
  const double steps = double(state.iterations());
  BulletPhases::stop(state, steps);
  // The share of moved boxes whose broadphase leaf no longer held them, so
  // was taken out of its tree and put back (btDbvtBroadphase's running
  // ratio, averaged over the steps).
  state.counters["leaf_updates"] = leafUpdates / steps;
  state.counters["water_ms"] = 1e3 * waterSeconds / steps;
  state.counters["bullet_ms"] = 1e3 * (totalSeconds - waterSeconds - oceanSeconds) / steps;
  state.counters["ocean_ms"] = 1e3 * oceanSeconds / steps;
  state.counters["p99_step_ms"] = 1e3 * percentile(0.99);
  state.counters["slowest_step_ms"] = 1e3 * percentile(1.0);
  // Steps over a 60 Hz frame's 16.7 ms, of all timed.
  state.counters["steps_over_16_7ms"] = double(
      std::count_if(stepSeconds.begin(), stepSeconds.end(), [](double s) { return s > 1.0 / 60; }));
  state.counters["steps"] = double(stepSeconds.size());
  state.counters["us_per_boat"] = 1e6 * waterSeconds / steps / boats;
  state.counters["triangles"] = double(hull->triangles().size());
  w.world.removeAction(&water);
  gDbvtMargin = bulletsMargin;
}

void fleet(benchmark::State& state) { runFleet(state, WorldSetup::Default); }
void fleetWorld(benchmark::State& state) { runFleet(state, WorldSetup(state.range(6))); }

// Boats at ~500 triangles, all threads and one; triangles per hull at 100
// boats; then the cheap level of detail at every fleet size; the far-boat
// preset at 1,000 and 10,000 boats; then the real sea ("sea": 1 Gerstner,
// 2 sines) at full detail, direct, the cheap level and with a 1 m patch
// (lod 3); and the far-boat preset on the real sea of sines; then the
// spectral ocean ("sea" 3; 4 with a particle solve per point): full detail
// at 1,000 boats on all threads, and the far-boat preset at 10,000; and the
// full model with one water velocity per boat (lod 4) on the real seas.
// The far boats at 10,000 also with every body made before any boat
// ("layout" 1), and on the spectral ocean on one thread (its instruction
// counts do not depend on how threads share the boats).
BENCHMARK(fleet)
    ->ArgNames({"boats", "tris", "threads", "lod", "sea", "layout"})
    ->ArgsProduct({{1, 10, 100, 1000}, {500}, {0, 1}, {0}, {0}, {0}})
    ->ArgsProduct({{100}, {100, 2000}, {0}, {0}, {0}, {0}})
    ->ArgsProduct({{1, 10, 100, 1000}, {500}, {0}, {1}, {0}, {0}})
    ->ArgsProduct({{1000, 10000}, {500}, {0, 1}, {2}, {0}, {0, 1}})
    ->ArgsProduct({{1, 100, 1000}, {500}, {0, 1}, {0, 1, 3}, {1, 2}, {0}})
    ->ArgsProduct({{1000, 10000}, {500}, {0, 1}, {2}, {2}, {0, 1}})
    ->ArgsProduct({{1000}, {500}, {0}, {0, 3}, {3, 4}, {0}})
    ->ArgsProduct({{10000}, {500}, {0}, {2}, {3, 4, 5}, {0, 1}})
    ->ArgsProduct({{10000}, {500}, {1}, {2}, {3}, {0}})
    ->ArgsProduct({{1000}, {500}, {0}, {4}, {2, 3}, {0}})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

// The 10,000 far boats on the spectral ocean in a world set up as
// docs/integration.md advises ("world" 1), and without swept boxes (2); the
// "fleet" benchmark's are Bullet's defaults.
BENCHMARK(fleetWorld)
    ->ArgNames({"boats", "tris", "threads", "lod", "sea", "layout", "world"})
    ->ArgsProduct({{10000}, {500}, {0}, {2}, {3}, {0, 1}, {1, 2}})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

/// The 10,000 far boats of fleet/.../lod:2/sea:3/layout:0 three times, on
/// one spectral ocean: a world in Bullet's defaults, one with the broadphase
/// margin docs/integration.md advises (0.5 m) and one with that and no swept
/// boxes, stepped in turn, each first in turn, so that a loaded machine
/// slows them alike. Counters: each world's Bullet step and water, ms a
/// step, and the ratios of the Bullet steps to the default's over the run.
void fleetMarginInTurn(benchmark::State& state) {
  const auto ocean = std::make_shared<SpectralOcean>(WaveSpectrum::jonswap(2.0, 7.0), SpectralOceanSettings{});
  const auto hull = hullOf(boatOf(500));
  const btVector3 size = hull->boundsMax() - hull->boundsMin();
  const int boats = 10000, side = 100;
  struct Fleet {
    explicit Fleet(std::shared_ptr<const WaterSurface> surface) : water(std::move(surface), 0) {}
    World w;
    WaterFleet water;
    double bulletSeconds = 0, waterSeconds = 0, leafUpdates = 0;
  };
  std::array<std::unique_ptr<Fleet>, 3> fleets{std::make_unique<Fleet>(ocean), std::make_unique<Fleet>(ocean),
                                               std::make_unique<Fleet>(ocean)};
  fleets[2]->w.world.getDispatchInfo().m_useContinuous = false;
  for (auto& f : fleets) {
    for (int i = 0; i < boats; ++i) {
      btRigidBody* body = f->w.addBox(size, btScalar(0.4 * 1025 * hull->volume_m3()), fleetPose(i, side));
      f->water.add(body, hull).setLevelOfDetail(farBoatSettings(*hull));
    }
    f->w.world.addAction(&f->water);
  }
  const btScalar dt = btScalar(1.0 / 60);
  const std::array<btScalar, 3> margins{gDbvtMargin, btScalar(0.5), btScalar(0.5)};
  for (auto& f : fleets) f->water.prime(dt);
  double clock_s = 0;
  long frame = 0;
  const auto step = [&](bool timed) {
    ocean->update(clock_s, clock_s + double(dt));
    clock_s += double(dt);
    for (std::size_t k = 0; k < fleets.size(); ++k) {
      const std::size_t which = (std::size_t(frame) + k) % fleets.size();  // each first in turn
      Fleet& f = *fleets[which];
      (void)game::setBroadphaseMargin(margins[which]);
      const double seconds = secondsOf([&] { f.w.world.stepSimulation(dt, 1, dt); });
      if (!timed) continue;
      f.bulletSeconds += seconds - f.water.lastUpdateWallTime_s();
      f.waterSeconds += f.water.lastUpdateWallTime_s();
      f.leafUpdates += double(f.w.broadphase.m_updates_ratio);
    }
    ++frame;
  };
  for (int i = 0; i < 30; ++i) step(false);  // warm
  for (auto _ : state) step(true);
  (void)game::setBroadphaseMargin(margins[0]);
  const double steps = double(state.iterations());
  const std::array<const char*, 3> names{"default", "margin", "unswept"};
  for (std::size_t k = 0; k < fleets.size(); ++k) {
    state.counters[std::string("bullet_") + names[k] + "_ms"] = 1e3 * fleets[k]->bulletSeconds / steps;
    state.counters[std::string("water_") + names[k] + "_ms"] = 1e3 * fleets[k]->waterSeconds / steps;
    state.counters[std::string("ratio_") + names[k]] = fleets[k]->bulletSeconds / fleets[0]->bulletSeconds;
    state.counters[std::string("leaf_updates_") + names[k]] = fleets[k]->leafUpdates / steps;
  }
  for (auto& f : fleets) f->w.world.removeAction(&f->water);
}

BENCHMARK(fleetMarginInTurn)->Unit(benchmark::kMillisecond)->UseRealTime();

/// Bullet alone: 10,000 free boxes (a far boat's size, 20 m apart, moving),
/// with `spacer` bytes of other memory made between consecutive bodies, as a
/// program that makes each body's game or water state right after it does;
/// touched every step, as a water force touches its body. Shows what the
/// bodies' layout in memory costs Bullet's own step (docs/performance.md,
/// "Many boats", "Memory is what a big fleet costs").
void bulletLayout(benchmark::State& state) {
  const int boats = 10000, side = 100;
  const auto spacer = std::size_t(state.range(0));
  World w;
  w.world.setGravity(btVector3(0, 0, 0));
  std::vector<std::unique_ptr<char[]>> between;
  for (int i = 0; i < boats; ++i) {
    btRigidBody* body = w.addBox(btVector3(10, 3, 3.5f), 10000, fleetPose(i, side));
    body->setActivationState(DISABLE_DEACTIVATION);
    if (spacer > 0) between.push_back(std::make_unique<char[]>(spacer));
  }
  const btScalar dt = btScalar(1.0 / 60);
  int step = 0;
  double leafUpdates = 0;
  BulletPhases::start();
  for (auto _ : state) {
    const btScalar phase = btScalar(0.1 * step++);
    for (auto& b : w.bodies) b->setLinearVelocity(btVector3(0.1f * std::sin(phase), 0.2f * std::cos(phase), 0));
    w.world.stepSimulation(dt, 1, dt);
    leafUpdates += double(w.broadphase.m_updates_ratio);
  }
  BulletPhases::stop(state, double(state.iterations()));
  state.counters["leaf_updates"] = leafUpdates / double(state.iterations());
}

BENCHMARK(bulletLayout)->ArgName("spacer")->Arg(0)->Arg(2048)->Arg(12288)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace keel::test

BENCHMARK_MAIN();
