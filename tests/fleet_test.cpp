// keel::WaterFleet: many boats computed in parallel, bitwise identical for
// any thread count and to one WaterAction per boat; boats sharing a body
// applied in a fixed order.
#include "fleet_scenario.hpp"

#include <gtest/gtest.h>

namespace keel::test {
namespace {

/// The scenario of fleet_scenario.hpp; `holed`: every other boat is holed
/// under its centre of mass at the start.
FleetOutcome sail(int threads, bool holed = false) {
  if (!holed) return sailFleet(threads);
  return sailFleet(threads, [](std::size_t i, WaterAction& boat, btRigidBody& body, const Hull&) {
    if (i % 2 == 0) boat.openHole(body.getCenterOfMassPosition() - btVector3(0, 0.4f, 0), 0.02f);
  });
}

TEST(WaterFleet, BitwiseIdenticalForOneTwoAndEightThreads) {
  const FleetOutcome one = sail(1);
  // The boats really moved about (the test is not of boats at rest).
  EXPECT_GT(one.velocities[0].length() + one.velocities[5].length(), 0.01f);
  EXPECT_TRUE(bitwiseEqual(one, sail(2)));
  EXPECT_TRUE(bitwiseEqual(one, sail(8)));
}

TEST(WaterFleet, SameAsOneActionPerBoat) { EXPECT_TRUE(bitwiseEqual(sail(1), sail(-1))); }

TEST(WaterFleet, FloodingBoatsBitwiseIdenticalForOneTwoAndEightThreads) {
  const FleetOutcome one = sail(1, true);
  EXPECT_GT(one.floodwater_m3, 1.0);  // the holed boats took water
  EXPECT_TRUE(bitwiseEqual(one, sail(2, true)));
  EXPECT_TRUE(bitwiseEqual(one, sail(8, true)));
  EXPECT_TRUE(bitwiseEqual(one, sail(-1, true)));
}

/// Two boats on one body (two hulls of a catamaran given as two boats): both
/// computed from the body as it was, then applied in the order added, for
/// any thread count.
TEST(WaterFleet, BoatsSharingABodyAreComputedFirstAndAppliedInOrder) {
  struct Outcome {
    btVector3 velocity, pending0, pending1;
  };
  // `both`: boat 0 (hydrostatics only) and boat 1 (every term: its force
  // depends on the body's velocity) on the one body; else boat 1 alone.
  const auto run = [](int threads, bool both) {
    World w;
    WaterFleet fleet(std::make_shared<SineSumSurface>(std::vector<WaveComponent>{deepWaterWave(0.4, 20, 0.3, 0)}),
                     threads);
    const auto hull = hullOf(box(btVector3(4, 1, 1)));
    btRigidBody* body = w.addBox(btVector3(4, 1, 3), 3000, btTransform(btQuaternion(0.1f, 0, 0.05f)));
    body->setLinearVelocity(btVector3(1, -0.5f, 0.2f));
    if (both) fleet.add(body, hull).setHydrodynamics(HydrodynamicSettings::none());
    fleet.add(body, hull);
    fleet.updateAction(&w.world, btScalar(1.0 / 240));
    const std::size_t last = fleet.size() - 1;
    return Outcome{body->getLinearVelocity(), fleet.boat(0).pendingLinearVelocity_mps(),
                   fleet.boat(last).pendingLinearVelocity_mps()};
  };
  const Outcome alone = run(1, false);
  for (const int threads : {1, 2}) {
    const Outcome shared = run(threads, true);
    EXPECT_EQ(shared.pending1, alone.pending1) << "boat 1 saw boat 0's change: " << threads << " threads";
    EXPECT_EQ(shared.velocity, (btVector3(1, -0.5f, 0.2f) + shared.pending0) + shared.pending1);
  }
  EXPECT_NE(run(1, true).pending0, btVector3(0, 0, 0));
}

TEST(WaterFleet, AddRemoveAndValidate) {
  World w;
  WaterFleet fleet(std::make_shared<FlatSurface>(), 2);
  const auto hull = hullOf(box(btVector3(2, 1, 1)));
  btRigidBody* a = w.addBox(btVector3(2, 1, 1), 800, btTransform::getIdentity());
  btRigidBody* b = w.addBox(btVector3(2, 1, 1), 800, btTransform(btQuaternion::getIdentity(), btVector3(5, 0, 0)));
  fleet.add(a, hull);
  fleet.add(b, hull);
  EXPECT_EQ(fleet.size(), 2u);
  EXPECT_TRUE(fleet.remove(a));
  EXPECT_FALSE(fleet.remove(a));
  EXPECT_EQ(fleet.size(), 1u);
  EXPECT_EQ(fleet.boat(0).body(), b);
  EXPECT_THROW(fleet.setThreadCount(-1), std::invalid_argument);
  EXPECT_THROW(fleet.setThreadCount(kMaxFleetThreads + 1), std::invalid_argument);
  EXPECT_THROW(WaterFleet(std::make_shared<FlatSurface>(), kMaxFleetThreads + 1), std::invalid_argument);
  EXPECT_EQ(fleet.threadCount(), 2);
  EXPECT_THROW(WaterFleet(nullptr), std::invalid_argument);
  EXPECT_THROW(fleet.add(nullptr, hull), std::invalid_argument);
  fleet.updateAction(&w.world, 0);
  EXPECT_TRUE(fleet.boat(0).status().flags & StatusBadTimeStep);
}

/// Three 4 m x 1 m x 2 m boxes 10 m apart on a 0.5 m, 30 m wave, in a
/// fleet of two threads, for 1 s; then the middle box's body leaves the
/// world (`leaves`: still in the fleet; else it leaves the fleet too) and
/// the world steps 10 s more. Returns every body's final velocity and the
/// middle body's velocity as it left.
struct Departure {
  std::vector<btTransform> transforms;
  std::vector<btVector3> velocities;
  btVector3 leftWith;
  WaterStatus status;  // the middle boat's, when it stayed in the fleet
};
Departure departAt(bool staysInFleet) {
  World w;
  WaterFleet fleet(std::make_shared<SineSumSurface>(std::vector<WaveComponent>{deepWaterWave(0.5, 30, 0.2)}), 2);
  const btVector3 size(4, 1, 2);
  const auto hull = hullOf(box(size, 2));
  std::vector<btRigidBody*> bodies;
  for (int i = 0; i < 3; ++i) {
    bodies.push_back(w.addBox(size, btScalar(kSeaWaterDensity_kgpm3 * 4 * 2 * 0.4),
                              btTransform(btQuaternion(0.1f * i, 0.05f, 0), btVector3(btScalar(10 * i), 0, 0))));
    fleet.add(bodies.back(), hull);
  }
  w.world.addAction(&fleet);
  const auto step = [&](int frames) {
    for (int f = 0; f < frames; ++f) w.world.stepSimulation(btScalar(1.0 / 60), 4, btScalar(1.0 / 240));
  };
  step(60);
  w.world.removeRigidBody(bodies[1]);
  if (!staysInFleet) fleet.remove(bodies[1]);
  Departure d;
  d.leftWith = bodies[1]->getLinearVelocity();
  step(600);
  for (btRigidBody* b : bodies) {
    d.transforms.push_back(b->getCenterOfMassTransform());
    d.velocities.push_back(b->getLinearVelocity());
  }
  if (staysInFleet) d.status = fleet.boat(1).status();
  w.world.removeAction(&fleet);
  return d;
}

TEST(WaterFleet, ABoatWhoseBodyLeftTheWorldIsLeftAlone) {
  const Departure stayed = departAt(true), gone = departAt(false);
  // Bullet no longer integrates the body, so each velocity change stayed
  // on it: it gained 2.7 m/s in the 10 s before the fleet checked.
  EXPECT_EQ(stayed.velocities[1], stayed.leftWith);
  EXPECT_TRUE(stayed.status.flags & StatusNotInWorld) << stayed.status.describe();
  EXPECT_FALSE(stayed.status.ok());
  EXPECT_EQ(stayed.status.skippedSubsteps, 2400u);  // every substep of the 10 s
  EXPECT_NE(stayed.status.describe().find("not in the world"), std::string::npos) << stayed.status.describe();
  // The other boats are stepped as if it had left the fleet too.
  for (int i : {0, 2}) {
    EXPECT_EQ(stayed.transforms[i], gone.transforms[i]) << i;
    EXPECT_EQ(stayed.velocities[i], gone.velocities[i]) << i;
  }
}

}  // namespace
}  // namespace keel::test
