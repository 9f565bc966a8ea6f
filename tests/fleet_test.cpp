// keel::WaterFleet: many boats computed in parallel,
// applied in a fixed order, bitwise identical for any thread count and to
// one WaterAction per boat.
#include "test_hulls.hpp"

#include <gtest/gtest.h>

#include <cstring>

namespace keel::test {
namespace {

struct Outcome {
  std::vector<btTransform> transforms;
  std::vector<btVector3> velocities;
  double floodwater_m3 = 0;  ///< water in all the boats at the end
};

/// 24 boats of two hulls in a 6 x 4 grid, close enough to collide, stepped
/// for 10 s. `threads` < 0: one WaterAction per boat instead of a fleet.
/// `holed`: every other boat is holed under its centre of mass at the start.
Outcome sail(int threads, bool holed = false) {
  World w;
  const auto surface = gerstnerSea(2.0, 7.0, 6, 11, 0.8);
  const auto a = hullOf(boatHull(6, 2.2f, 1.6f, 12, 4));
  const auto b = hullOf(box(btVector3(5, 1.5f, 2.5f), 2));
  std::unique_ptr<WaterFleet> fleet;
  std::vector<std::unique_ptr<WaterAction>> single;
  if (threads >= 0) fleet = std::make_unique<WaterFleet>(surface, threads);
  for (int i = 0; i < 24; ++i) {
    const auto& hull = i % 3 == 0 ? b : a;
    const btVector3 size = hull->boundsMax() - hull->boundsMin();
    btRigidBody* body = w.addBox(size, btScalar(0.45 * 1025 * hull->volume_m3()),
                                 btTransform(btQuaternion(btVector3(0, 1, 0), 0.3f * btScalar(i)),
                                             btVector3(btScalar(7 * (i % 6)), 0.3f, btScalar(4 * (i / 6)))));
    body->setAngularVelocity(btVector3(0.1f * btScalar(i % 4), 0, 0.2f));
    WaterAction* boat = nullptr;
    if (fleet) {
      boat = &fleet->add(body, hull);
    } else {
      single.push_back(std::make_unique<WaterAction>(body, hull, surface));
      boat = single.back().get();
      w.world.addAction(boat);
    }
    if (holed && i % 2 == 0) boat->openHole(body->getCenterOfMassPosition() - btVector3(0, 0.4f, 0), 0.02f);
  }
  if (fleet) w.world.addAction(fleet.get());
  for (int i = 0; i < 600; ++i) w.world.stepSimulation(btScalar(1.0 / 60), 1, btScalar(1.0 / 60));
  Outcome out;
  for (auto& body : w.bodies) {
    out.transforms.push_back(body->getCenterOfMassTransform());
    out.velocities.push_back(body->getLinearVelocity());
  }
  for (std::size_t i = 0; i < 24; ++i) {
    const WaterAction& boat = fleet ? fleet->boat(i) : *single[i];
    for (const CompartmentStatus& c : boat.flooding().compartments) out.floodwater_m3 += c.water_m3;
  }
  if (fleet) w.world.removeAction(fleet.get());
  for (auto& s : single) w.world.removeAction(s.get());
  return out;
}

bool bitwiseEqual(const Outcome& x, const Outcome& y) {
  if (x.transforms.size() != y.transforms.size()) return false;
  for (std::size_t i = 0; i < x.transforms.size(); ++i)
    if (std::memcmp(&x.transforms[i], &y.transforms[i], sizeof(btTransform)) != 0 ||
        std::memcmp(&x.velocities[i], &y.velocities[i], sizeof(btVector3)) != 0)
      return false;
  return true;
}

TEST(WaterFleet, BitwiseIdenticalForOneTwoAndEightThreads) {
  const Outcome one = sail(1);
  // The boats really moved about (the test is not of boats at rest).
  EXPECT_GT(one.velocities[0].length() + one.velocities[5].length(), 0.01f);
  EXPECT_TRUE(bitwiseEqual(one, sail(2)));
  EXPECT_TRUE(bitwiseEqual(one, sail(8)));
}

TEST(WaterFleet, SameAsOneActionPerBoat) { EXPECT_TRUE(bitwiseEqual(sail(1), sail(-1))); }

TEST(WaterFleet, FloodingBoatsBitwiseIdenticalForOneTwoAndEightThreads) {
  const Outcome one = sail(1, true);
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
