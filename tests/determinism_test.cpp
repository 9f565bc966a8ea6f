// Fixed scenarios whose outcomes hash to a constant checked in here, one per
// precision, on every SIMD instruction set: in the manner of Box2D's
// test_determinism.c, which checks one hash on every platform
// (docs/determinism.md says what is the same across what, and why).
//
// Every scene (determinism_scene.hpp) floats four boats, which together run
// everything a substep computes (triangles with the water patch, columns,
// a level-of-detail switch, flooding, wave pressure, the hydrodynamic
// terms, a WaterFleet on two threads and a WaterAction of its own), on one
// of the surfaces Keel ships; the scenes' hashes are combined into one.
//
// Two tests:
// - FinalStateHashesToTheRecordedConstant steps a Bullet world and hashes
//   every body's final state: Keel's bits and Bullet's together. Bullet's
//   own depend on glibc's sin and cos (sinf and cosf in float), whose bits
//   differ between the variants glibc picks for the CPU
//   (docs/determinism.md, "Across glibc's variants").
// - KeelOutputHashesToTheRecordedConstant drives the same boats along
//   scripted poses (+ - * / of the time alone), calls the actions' substep
//   directly and hashes what Keel computes each substep: Keel's bits alone.
//   ctest runs it a second time as glibc runs on a CPU without FMA
//   (GLIBC_TUNABLES, tests/CMakeLists.txt), against the same constant.
//
// Any change to the arithmetic of the substep changes the hashes: a change
// meant to move no bit (a restructuring) must keep them; a change that moves
// bits on purpose updates the constants below and says why in its commit.
#include "determinism_scene.hpp"

#include <gtest/gtest.h>
#include <hwy/targets.h>

#include <cinttypes>
#include <cstdint>
#include <cstdio>

namespace keel::test {
namespace {

#if defined(BT_USE_DOUBLE_PRECISION)
constexpr std::uint64_t kWorldHash = 0xcf914de005a79bd0ull;
constexpr std::uint64_t kKeelHash = 0x855981787619e10aull;
#else
constexpr std::uint64_t kWorldHash = 0x7834608d59a3d856ull;
constexpr std::uint64_t kKeelHash = 0xa643d1b3e2530df8ull;
#endif

/// The end [s] of the frame that starts at the boats' clock `t_s` [s]:
/// kSceneSubsteps substeps later, as the clock adds them up.
double frameEnd(double t_s) {
  for (int i = 0; i < kSceneSubsteps; ++i) t_s += double(kSceneSubstep_s);
  return t_s;
}

/// Sea `sea`'s scene stepped by Bullet, a frame of kSceneSubsteps substeps
/// a call (or, `splitFrames`, a call a substep): the hash of every body's
/// final centre-of-mass transform and velocities, and of the boats' last
/// substep.
std::uint64_t worldScene(int sea, bool splitFrames) {
  World w;
  SceneSea water(sea);
  SceneBoats boats(w, water.surface());
  w.world.addAction(boats.fleet.get());
  w.world.addAction(boats.single.get());
  for (int frame = 0; frame < kSceneFrames; ++frame) {
    water.advance(boats.fleet->time_s(), frameEnd(boats.fleet->time_s()));
    boats.beforeFrame(frame);
    if (!splitFrames) w.world.stepSimulation(btScalar(kSceneFrame_s), kSceneSubsteps, kSceneSubstep_s);
    for (int substep = 0; splitFrames && substep < kSceneSubsteps; ++substep)
      w.world.stepSimulation(kSceneSubstep_s, 1, kSceneSubstep_s);
  }
  w.world.removeAction(boats.single.get());
  w.world.removeAction(boats.fleet.get());
  Fnv1a h;
  for (const btRigidBody* body : boats.bodies) {
    const btTransform& t = body->getCenterOfMassTransform();
    h.add(t.getOrigin());
    for (int r = 0; r < 3; ++r) h.add(t.getBasis()[r]);
    h.add(body->getLinearVelocity());
    h.add(body->getAngularVelocity());
  }
  boats.hashKeelOutput(h);
  return h.hash;
}

std::uint64_t worldScene(int sea) { return worldScene(sea, false); }
std::uint64_t worldSceneSplit(int sea) { return worldScene(sea, true); }

/// Boat `i`'s pose and velocities at substep `n`: polynomials in the time,
/// with + - * / alone (the turn is a quaternion Bullet normalises by
/// dividing), so their bits are the same on every machine.
void script(btRigidBody& body, const btVector3& start, int i, int n) {
  const btScalar s = btScalar(n) * kSceneSubstep_s, k = btScalar(i);
  const btVector3 moved(btScalar(0.8) * s, btScalar(0.3) * s * (s - btScalar(0.5)), btScalar(-0.2) * k * s);
  const btQuaternion turn(btScalar(0.1) * (s - btScalar(0.3)), btScalar(0.05) * k + btScalar(0.1) * s,
                          btScalar(0.04) * k * s, 1);
  body.setCenterOfMassTransform(btTransform(turn, start + moved));
  body.setLinearVelocity(btVector3(btScalar(0.8), btScalar(0.6) * s - btScalar(0.15), btScalar(-0.2) * k));
  body.setAngularVelocity(btVector3(btScalar(0.2), btScalar(0.1) + btScalar(0.05) * k, btScalar(0.04) * k));
}

/// Sea `sea`'s scene with the boats on scripted poses: each substep sets
/// every body, runs the fleet's and the single action's substep (the world
/// holds the bodies, and their gravity, but is never stepped) and hashes what
/// Keel computed.
std::uint64_t keelScene(int sea) {
  World w;
  SceneSea water(sea);
  SceneBoats boats(w, water.surface());
  std::vector<btVector3> start;
  for (const btRigidBody* body : boats.bodies) start.push_back(body->getCenterOfMassPosition());
  Fnv1a h;
  for (int frame = 0, n = 0; frame < kSceneFrames; ++frame) {
    water.advance(boats.fleet->time_s(), frameEnd(boats.fleet->time_s()));
    boats.beforeFrame(frame);
    for (int substep = 0; substep < kSceneSubsteps; ++substep, ++n) {
      for (std::size_t i = 0; i < start.size(); ++i) script(*boats.bodies[i], start[i], int(i), n);
      boats.fleet->updateAction(&w.world, kSceneSubstep_s);
      boats.single->updateAction(&w.world, kSceneSubstep_s);
      boats.hashKeelOutput(h);
    }
  }
  return h.hash;
}

/// Every sea's scene, their hashes combined.
template <std::uint64_t (*scene)(int)>
std::uint64_t everySea() {
  Fnv1a h;
  for (int sea = 0; sea < SceneSea::kCount; ++sea) h.add(scene(sea));
  return h.hash;
}

/// Runs `scenes` on every instruction set this CPU can run and the build
/// compiled, printing each one's hash, and expects each to be `expected`.
void expectOnEveryTarget(const char* what, std::uint64_t (*scenes)(), std::uint64_t expected) {
  struct BackToTheCpusChoice {
    ~BackToTheCpusChoice() { hwy::SetSupportedTargetsForTest(0); }
  } restore;
  const std::vector<std::int64_t> targets = hwy::SupportedAndGeneratedTargets();
  ASSERT_FALSE(targets.empty());
  for (const std::int64_t target : targets) {
    hwy::SetSupportedTargetsForTest(target);  // the next dispatch chooses `target`
    const std::uint64_t hash = scenes();
    std::printf("[  hash    ] %s, %s: 0x%016" PRIx64 "\n", what, hwy::TargetName(target), hash);
    EXPECT_EQ(hash, expected) << what << " on " << hwy::TargetName(target);
  }
}

// With KEEL_CROSS_ISA_DETERMINISM off, AVX2 and AVX-512 fuse their
// multiply-adds: each instruction set has bits of its own, and no constant.
#if KEEL_CROSS_ISA_DETERMINISM
constexpr bool kOneConstant = true;
#else
constexpr bool kOneConstant = false;
#endif

TEST(Determinism, FinalStateHashesToTheRecordedConstant) {
  if (!kOneConstant) GTEST_SKIP() << "built with KEEL_CROSS_ISA_DETERMINISM off";
  expectOnEveryTarget("world", everySea<worldScene>, kWorldHash);
}

TEST(Determinism, KeelOutputHashesToTheRecordedConstant) {
  if (!kOneConstant) GTEST_SKIP() << "built with KEEL_CROSS_ISA_DETERMINISM off";
  expectOnEveryTarget("Keel", everySea<keelScene>, kKeelHash);
}

// Bullet's fixed substeps, and Keel's force of each acting once in the
// next, make a frame of four substeps the same as four frames of one.
TEST(Determinism, FourFramesOfOneSubstepAreOneFrameOfFour) {
  EXPECT_EQ(everySea<worldSceneSplit>(), everySea<worldScene>());
}

TEST(Determinism, SameHashTwiceInOneProcess) {
  EXPECT_EQ(everySea<worldScene>(), everySea<worldScene>());
  EXPECT_EQ(everySea<keelScene>(), everySea<keelScene>());
}

}  // namespace
}  // namespace keel::test
