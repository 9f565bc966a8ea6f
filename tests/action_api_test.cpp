// One obvious way per task on a WaterAction: the full level of detail is a
// new action's settings, the telemetry is valid from construction, and a
// boat's own velocity needs no arithmetic with the pending change.
#include "test_hulls.hpp"

#include <keel/keel.hpp>

#include <gtest/gtest.h>

namespace keel::test {
namespace {

TEST(ActionApi, FullDetailIsANewActionsSettings) {
  World w;
  const auto hull = hullOf(box(btVector3(2, 1, 1)));
  btRigidBody* body = w.addBox(btVector3(2, 1, 1), 500, btTransform::getIdentity());
  WaterAction fresh(body, hull, std::make_shared<FlatSurface>());
  WaterAction switched(body, hull, std::make_shared<FlatSurface>());
  switched.setLevelOfDetail(farBoatSettings(*hull));
  switched.setLevelOfDetail(fullDetailSettings());
  EXPECT_EQ(switched.buoyancyModel(), fresh.buoyancyModel());
  EXPECT_EQ(switched.settings().sampling, fresh.settings().sampling);
  EXPECT_EQ(switched.settings().patchCellSize_m, fresh.settings().patchCellSize_m);
  EXPECT_TRUE(switched.hydrodynamicSettings() == fresh.hydrodynamicSettings());
  EXPECT_EQ(fullDetailSettings().sampling, HydrostaticSettings{}.sampling);
}

TEST(ActionApi, CentreOfMassIsTheBodysBeforeTheFirstSubstep) {
  World w;
  const auto hull = hullOf(box(btVector3(2, 1, 1)));
  const btTransform pose(btQuaternion(btVector3(0, 1, 0), 0.3f), btVector3(12, -0.25f, 7));
  btRigidBody* body = w.addBox(btVector3(2, 1, 1), 500, pose);
  const WaterAction boat(body, hull, std::make_shared<FlatSurface>());
  EXPECT_EQ(boat.centreOfMass(), pose.getOrigin());
}

TEST(ActionApi, LinearVelocityIsWhatBulletIntegrated) {
  World w;
  const auto hull = hullOf(box(btVector3(2, 1, 1)));
  btRigidBody* body = w.addBox(btVector3(2, 1, 1), 500, btTransform::getIdentity());
  body->setLinearVelocity(btVector3(2, 0, 0));
  WaterAction boat(body, hull, std::make_shared<FlatSurface>());
  boat.prime(btScalar(1.0 / 240));
  // The water's change for the next substep is already in the body's
  // velocity; the action's velocity is the body's as it was.
  EXPECT_GT(boat.pendingLinearVelocity_mps().length(), 0);
  EXPECT_EQ(boat.linearVelocity_mps(), btVector3(2, 0, 0));
  EXPECT_EQ(boat.angularVelocity_radps(), btVector3(0, 0, 0));
}

}  // namespace
}  // namespace keel::test
