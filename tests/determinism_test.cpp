// A fixed scenario whose final state hashes to a constant checked in here,
// in the manner of Box2D's test_determinism.c: eight boats of three hulls on
// a Gerstner sea, every hydrodynamic term on, colliding with each other and
// with a pier, stepped for 10 s through a two-thread WaterFleet.
//
// Any change to the arithmetic of the substep changes the hash: a change
// meant to move no bit (a restructuring) must keep it; a change that moves
// bits on purpose updates the constants below and says why in its commit.
//
// The bits depend on the precision and on the SIMD instruction set the
// kernels run (their lane counts, and AVX-512's reciprocal square root
// estimate, differ), so there is one constant per precision and
// instruction set. They do not depend on the CPU's maker: the constants
// hold on Intel and on AMD (the kernels use no estimate that the
// instruction set leaves to the maker, simd-inl.hpp's inverseSqrt). The
// test checks every instruction set this CPU can run that has a constant,
// and fails when none has one. They do not depend on the optimisation
// level: the library is compiled with -ffp-contract=off, so the compiler
// never fuses a * b + c on its own (the kernels' explicit MulAdd are the
// only FMAs), and the Debug sanitizer build gives the Release bits. Bullet
// itself is Debian's prebuilt library.
#include "test_hulls.hpp"

#include <gtest/gtest.h>
#include <hwy/targets.h>

#include <cinttypes>
#include <cstdint>
#include <cstdio>
#include <cstring>

namespace keel::test {
namespace {

/// FNV-1a, 64-bit, over the bytes of each value.
struct Fnv1a {
  std::uint64_t hash = 14695981039346656037ull;
  void add(btScalar value) {
    unsigned char bytes[sizeof(btScalar)];
    std::memcpy(bytes, &value, sizeof value);
    for (unsigned char b : bytes) hash = (hash ^ b) * 1099511628211ull;
  }
  void add(const btVector3& v) {  // x, y, z: the fourth lane is padding
    add(v.x()), add(v.y()), add(v.z());
  }
};

/// The scenario, run once; returns the hash of every body's final
/// centre-of-mass transform and velocities.
std::uint64_t runScenario() {
  World w;
  const auto sea = gerstnerSea(2.0, 7.0, 6, 7, 0.8);
  const auto boat = hullOf(boatHull(6, 2.2f, 1.6f, 12, 4));
  const auto barge = hullOf(box(btVector3(5, 1.5f, 2.5f), 2));
  const auto buoy = hullOf(icosphere(0.8f, 2));
  // A pier the boats drift against: static, no water force.
  w.addBox(btVector3(30, 3, 2), 0, btTransform(btQuaternion::getIdentity(), btVector3(10, 0, -4)));
  WaterFleet fleet(sea, 2);
  for (int i = 0; i < 8; ++i) {
    const auto& hull = i % 3 == 0 ? barge : (i % 3 == 1 ? boat : buoy);
    const btVector3 size = hull->boundsMax() - hull->boundsMin();
    const btTransform at(btQuaternion(btVector3(0, 1, 0), 0.4f * btScalar(i)),
                         btVector3(btScalar(5 * (i % 4)), 0.2f, btScalar(3 * (i / 4))));
    btRigidBody* body = w.addBox(size, btScalar(0.5 * 1025 * hull->volume_m3()), at);
    body->setLinearVelocity(btVector3(0.5f * btScalar(i % 3) - 0.5f, 0, -1.5f));
    body->setAngularVelocity(btVector3(0.1f * btScalar(i % 4), 0, 0.2f));
    fleet.add(body, hull);
  }
  w.world.addAction(&fleet);
  for (int i = 0; i < 600; ++i) w.world.stepSimulation(btScalar(1.0 / 60), 4, btScalar(1.0 / 240));
  w.world.removeAction(&fleet);
  Fnv1a h;
  for (auto& body : w.bodies) {
    const btTransform& t = body->getCenterOfMassTransform();
    h.add(t.getOrigin());
    for (int r = 0; r < 3; ++r) h.add(t.getBasis()[r]);
    h.add(body->getLinearVelocity());
    h.add(body->getAngularVelocity());
  }
  return h.hash;
}

struct Expected {
  std::int64_t target;
  std::uint64_t hash;
};

#if defined(BT_USE_DOUBLE_PRECISION)
constexpr Expected kExpected[] = {
    {HWY_AVX3, 0x4563f9b70a0b0411ull},  {HWY_AVX2, 0x74628280f89378d4ull},   {HWY_SSE4, 0xe90302bc6f94e10eull},
    {HWY_SSSE3, 0xe90302bc6f94e10eull}, {HWY_SCALAR, 0x406595cf97ecf577ull},
};
#else
constexpr Expected kExpected[] = {
    {HWY_AVX3, 0x1d53eeb1e35e2aaeull},  {HWY_AVX2, 0x3f113d7b301d24ddull},   {HWY_SSE4, 0x9b414480992a0525ull},
    {HWY_SSSE3, 0x9b414480992a0525ull}, {HWY_SCALAR, 0x24d7fa4a2177ee72ull},
};
#endif

TEST(Determinism, FinalStateHashesToTheRecordedConstant) {
  int checked = 0;
  for (const std::int64_t target : hwy::SupportedAndGeneratedTargets()) {
    hwy::SetSupportedTargetsForTest(target);  // the next dispatch chooses `target`
    const std::uint64_t hash = runScenario();
    std::printf("[  hash    ] %s: 0x%016" PRIx64 "\n", hwy::TargetName(target), hash);
    for (const Expected& e : kExpected)
      if (e.target == target) {
        EXPECT_EQ(hash, e.hash) << "target " << hwy::TargetName(target);
        ++checked;
      }
  }
  hwy::SetSupportedTargetsForTest(0);  // back to the CPU's own choice
  EXPECT_GT(checked, 0) << "no recorded hash for any instruction set this CPU runs";
}

TEST(Determinism, SameHashTwiceInOneProcess) { EXPECT_EQ(runScenario(), runScenario()); }

}  // namespace
}  // namespace keel::test
