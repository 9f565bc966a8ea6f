// Keel's smallest hull against Jolt Physics's buoyancy, in one process
// (docs/performance.md, "Small hulls: against Jolt"): the 12-triangle box of
// keel_bench's substep/tris:12/wavy:0/patch:0/terms:0 (flat water,
// hydrostatics only), and Jolt's Body::ApplyBuoyancyImpulse on a Jolt box
// body of the same size, mass, pose, velocities and water. Built only when
// CMake is given -DKEEL_JOLT_ROOT=<a Jolt build outside this repository>
// (tests/benchmarks.cmake). Run, interleaved:
//   build/float/tests/keel_bench_jolt --benchmark_min_time=0.1 --benchmark_repetitions=21
//   --benchmark_enable_random_interleaving=true --benchmark_report_aggregates_only=true
// It first prints both bodies' velocity changes over one substep: the same
// job, the same answer to within Jolt's drag (on stderr: stdout is the
// benchmark's, JSON for scripts/bench-ab.py).
#include "test_hulls.hpp"

#include <Jolt/Jolt.h>  // before any other Jolt header

#include <Jolt/Core/Factory.h>
#include <Jolt/Physics/Body/Body.h>
#include <Jolt/Physics/Body/BodyCreationSettings.h>
#include <Jolt/Physics/Collision/Shape/BoxShape.h>
#include <Jolt/Physics/PhysicsSystem.h>
#include <Jolt/RegisterTypes.h>

#include <benchmark/benchmark.h>

#include <cstdio>
#include <memory>

namespace keel::test {
namespace {

// The box and its state, as keel_bench's substep benchmarks have them.
const btVector3 kSize_m(4, 1.5f, 2);  // full extents
constexpr float kMass_kg = 6000;
constexpr float kTimeStep_s = 1.0f / 240;
const btVector3 kAxis = btVector3(1, 0, 0.3f).normalized();
constexpr float kAngle_rad = 0.15f;
const btVector3 kCentre_m(0, 0.1f, 0);
const btVector3 kVelocity_mps(3, -0.5f, 0.2f);
const btVector3 kSpin_radps(0.1f, 0.2f, -0.1f);
// Jolt's drag coefficients in its water samples (Samples/Tests/Water).
constexpr float kJoltLinearDrag = 0.3f, kJoltAngularDrag = 0.05f;

/// Keel's boat: the substep benchmark's BenchBoat at tris:12, wavy:0,
/// patch:0, terms:0. Each substep starts from the same velocities, as
/// Jolt's does; the pose needs no reset, since the water's substep changes
/// only the body's velocities.
struct KeelBox {
  World w;
  std::shared_ptr<const Hull> hull = hullOf(box(kSize_m));
  btRigidBody* body = w.addBox(kSize_m, kMass_kg, btTransform(btQuaternion(kAxis, kAngle_rad), kCentre_m));
  std::unique_ptr<WaterAction> boat;
  unsigned instant = 0;

  KeelBox() {
    HydrostaticSettings settings;
    settings.sampling = Sampling::Direct;
    boat = std::make_unique<WaterAction>(body, hull, std::make_shared<FlatSurface>(), settings);
    boat->setHydrodynamics(HydrodynamicSettings::none());
  }
  /// One substep from the start state; the clock cycles as the benchmark's.
  void substep() {
    boat->setTime(5.0 + 0.37 * double(instant++ % 16));
    body->setLinearVelocity(kVelocity_mps);
    body->setAngularVelocity(kSpin_radps);
    boat->updateAction(&w.world, kTimeStep_s);
  }
};

JPH::Vec3 toJolt(const btVector3& v) { return JPH::Vec3(float(v.x()), float(v.y()), float(v.z())); }
btVector3 fromJolt(JPH::Vec3Arg v) { return btVector3(v.GetX(), v.GetY(), v.GetZ()); }

// A PhysicsSystem's layer interfaces for one layer of moving bodies.
class OneBroadPhaseLayer final : public JPH::BroadPhaseLayerInterface {
 public:
  JPH::uint GetNumBroadPhaseLayers() const override { return 1; }
  JPH::BroadPhaseLayer GetBroadPhaseLayer(JPH::ObjectLayer) const override { return JPH::BroadPhaseLayer(0); }
#if defined(JPH_EXTERNAL_PROFILE) || defined(JPH_PROFILE_ENABLED)
  const char* GetBroadPhaseLayerName(JPH::BroadPhaseLayer) const override { return "moving"; }
#endif
};
class EveryObjectVsBroadPhase final : public JPH::ObjectVsBroadPhaseLayerFilter {};
class EveryObjectPair final : public JPH::ObjectLayerPairFilter {};

/// Jolt's process-wide setup, once.
void initJolt() {
  static const bool done = [] {
    JPH::RegisterDefaultAllocator();
    JPH::Factory::sInstance = new JPH::Factory();
    JPH::RegisterTypes();
    return true;
  }();
  (void)done;
}

/// Jolt's boat: one dynamic box body of the same size, mass and pose in a
/// PhysicsSystem whose gravity is Keel's World's, pushed by
/// Body::ApplyBuoyancyImpulse on a level water plane at height 0.
struct JoltBox {
  OneBroadPhaseLayer layers;
  EveryObjectVsBroadPhase objectVsBroadPhase;
  EveryObjectPair objectPairs;
  std::unique_ptr<JPH::PhysicsSystem> system;
  JPH::Body* body = nullptr;
  JPH::Vec3 gravity;
  /// Jolt's buoyancy is the fluid's density over the body's (Body.h): 1025 kg/m^3 of sea water, as Keel's default.
  float buoyancy = float(kSeaWaterDensity_kgpm3) * float(kSize_m.x() * kSize_m.y() * kSize_m.z()) / kMass_kg;
  float linearDrag = kJoltLinearDrag, angularDrag = kJoltAngularDrag;

  JoltBox() {
    initJolt();
    system = std::make_unique<JPH::PhysicsSystem>();
    system->Init(4, 0, 4, 4, layers, objectVsBroadPhase, objectPairs);
    system->SetGravity(JPH::Vec3(0, -9.81f, 0));
    gravity = system->GetGravity();
    JPH::BodyCreationSettings settings(new JPH::BoxShape(toJolt(kSize_m * btScalar(0.5))),
                                       JPH::RVec3(toJolt(kCentre_m)), JPH::Quat::sRotation(toJolt(kAxis), kAngle_rad),
                                       JPH::EMotionType::Dynamic, 0);
    settings.mOverrideMassProperties = JPH::EOverrideMassProperties::CalculateInertia;
    settings.mMassPropertiesOverride.mMass = kMass_kg;
    body = system->GetBodyInterfaceNoLock().CreateBody(settings);
  }
  ~JoltBox() { system->GetBodyInterfaceNoLock().DestroyBody(body->GetID()); }
  JoltBox(const JoltBox&) = delete;
  JoltBox& operator=(const JoltBox&) = delete;

  /// One substep's buoyancy and drag impulses from the start state.
  void substep() {
    body->SetLinearVelocity(toJolt(kVelocity_mps));
    body->SetAngularVelocity(toJolt(kSpin_radps));
    body->ApplyBuoyancyImpulse(JPH::RVec3::sZero(), JPH::Vec3::sAxisY(), buoyancy, linearDrag, angularDrag,
                               JPH::Vec3::sZero(), gravity, kTimeStep_s);
  }
};

void keelBox(benchmark::State& state) {
  KeelBox b;
  for (auto _ : state) {
    b.substep();
    benchmark::DoNotOptimize(b.body->getLinearVelocity());
  }
  state.SetLabel("Keel: WaterAction::updateAction, the exact pressure integral");
}

void joltBox(benchmark::State& state) {
  JoltBox b;
  for (auto _ : state) {
    b.substep();
    benchmark::DoNotOptimize(b.body->GetLinearVelocity());
  }
  state.SetLabel("Jolt: Body::ApplyBuoyancyImpulse, drag 0.3 and 0.05");
}

BENCHMARK(keelBox);
BENCHMARK(joltBox);

/// Both bodies' velocity changes over one substep, and Jolt's without its
/// drag: the same job.
void printVelocityChanges() {
  KeelBox keel;
  keel.substep();
  JoltBox jolt;
  jolt.substep();
  JoltBox still;
  still.linearDrag = still.angularDrag = 0;
  still.substep();
  const auto print = [](const char* name, const btVector3& dv, const btVector3& dw) {
    std::fprintf(stderr, "%-26s dv (%+.6f, %+.6f, %+.6f) m/s  dw (%+.6f, %+.6f, %+.6f) rad/s\n", name, dv.x(), dv.y(),
                 dv.z(), dw.x(), dw.y(), dw.z());
  };
  std::fprintf(stderr, "Velocity changes over one substep of %.6f s:\n", double(kTimeStep_s));
  print("Keel", keel.body->getLinearVelocity() - kVelocity_mps, keel.body->getAngularVelocity() - kSpin_radps);
  print("Jolt", fromJolt(jolt.body->GetLinearVelocity()) - kVelocity_mps,
        fromJolt(jolt.body->GetAngularVelocity()) - kSpin_radps);
  print("Jolt without drag", fromJolt(still.body->GetLinearVelocity()) - kVelocity_mps,
        fromJolt(still.body->GetAngularVelocity()) - kSpin_radps);
  std::fprintf(stderr, "Keel's displaced volume %.6f m^3\n", double(keel.boat->hydrostatics().submergedVolume_m3));
}

}  // namespace
}  // namespace keel::test

int main(int argc, char** argv) {
  keel::test::printVelocityChanges();
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
