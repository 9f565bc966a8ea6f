// docs/flooding.md's example: bulkheads, and a hole where a boat hits a pier hard.
#include "flooding.hpp"
#include "test_hulls.hpp"

#include <gtest/gtest.h>

namespace keel::test {
namespace {

/// A 6 x 1.5 x 2 m box boat at its 1 m draft heading for a pier at
/// `speed_mps`, with four compartments, stepped at four substeps a frame;
/// the number of holes made and the water in the boat after 10 s.
std::pair<int, double> ram(btScalar speed_mps) {
  World w;
  const btScalar L = 6, D = 1.5f, B = 2, T = 1;
  btRigidBody* body = w.addBox(btVector3(L, D, B), 1025 * L * B * T, btTransform::getIdentity());
  body->setCenterOfMassTransform(btTransform(btQuaternion::getIdentity(), btVector3(0, D / 2 - T, 0)));
  body->setLinearVelocity(btVector3(speed_mps, 0, 0));
  w.addBox(btVector3(1, 4, 10), 0, btTransform(btQuaternion::getIdentity(), btVector3(L / 2 + 1, 0, 0)));  // the pier
  WaterAction boat(body, hullOf(box(btVector3(L, D, B))), std::make_shared<FlatSurface>());
  game::addBulkheads(boat, btVector3(1, 0, 0), 4);
  w.world.addAction(&boat);
  int holes = 0;
  {
    game::HardContactHoles damage(w.world, btScalar(2.5), btScalar(0.01));
    damage.holing.add(boat);
    for (int i = 0; i < 600; ++i) w.world.stepSimulation(btScalar(1.0 / 60), 4, btScalar(1.0 / 240));
    holes = int(damage.holing.holes().size());
  }
  double water = 0;
  for (const CompartmentStatus& c : boat.flooding().compartments) water += c.water_m3;
  EXPECT_EQ(boat.compartments().size(), 4u);
  w.world.removeAction(&boat);
  return {holes, water};
}

TEST(Examples, HardContactHolesTheBowAndItFloods) {
  const auto [holes, water] = ram(4);
  EXPECT_EQ(holes, 1);  // one impact, one hole, under the waterline
  EXPECT_GT(water, 0.05);
}

TEST(Examples, GentleContactMakesNoHole) {
  const auto [holes, water] = ram(btScalar(0.3));
  EXPECT_EQ(holes, 0);
  EXPECT_EQ(water, 0);
}

}  // namespace
}  // namespace keel::test
