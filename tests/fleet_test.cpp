// keel::WaterFleet: many boats computed in parallel,
// applied in a fixed order, bitwise identical for any thread count and to
// one WaterAction per boat.
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
  EXPECT_THROW(WaterFleet(nullptr), std::invalid_argument);
  EXPECT_THROW(fleet.add(nullptr, hull), std::invalid_argument);
  fleet.updateAction(&w.world, 0);
  EXPECT_TRUE(fleet.boat(0).status().flags & StatusBadTimeStep);
}

}  // namespace
}  // namespace keel::test
