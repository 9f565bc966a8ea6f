// The example of docs/mass.md: a GRP box boat with an engine and cast iron
// in its bilge, weighed, moved into its body frame, and floated at the
// draft keel::draftForMass_m predicts.
#include "boat_mass.hpp"
#include "test_hulls.hpp"

#include <gtest/gtest.h>

#include <BulletCollision/CollisionShapes/btConvexHullShape.h>

namespace keel::test {
namespace {

TEST(BoatMass, GrpBoxWithBallastWeighsItsPartsAndFloatsAtItsDraft) {
  // 4 x 1 x 2 m, drawn with its origin on a waterline 0.25 m above the keel
  // (every length exact in float, so both precisions weigh the same boat).
  const auto fileHull = hullOf(box(btVector3(4, 1, 2), 2, btVector3(0, 0.25f, 0)));
  const btVector3 engine(0, 0.125f, 0);
  const game::WeighedBoat boat = game::weighBoat(*fileHull, 300, engine);
  const double shell = 2 * (4 * 1 + 1 * 2 + 4 * 2) * 0.008 * 1800, iron = 4 * 2 * 0.1 * 7200;
  const double mass = shell + 300 + iron;
  const double tol = std::is_same_v<btScalar, double> ? 1e-9 : 1e-6;
  EXPECT_NEAR(boat.mass.mass_kg, mass, tol * mass);
  const double centre_m = (shell * 0.25 + 300 * 0.125 + iron * -0.2) / mass;
  EXPECT_NEAR(boat.mass.centreOfMass_m.y(), centre_m, tol);
  const double draft_m = mass / (1025 * 4 * 2);
  EXPECT_NEAR(boat.draft_m, draft_m, tol);
  // The hull in the body frame: the keel lies centre_m + 0.25 below the origin.
  EXPECT_NEAR(boat.hull->boundsMin().y(), -0.25 - centre_m, 1e-5);

  // Floated: the file's frame starts where the water is at the predicted draft.
  World world;
  btConvexHullShape shape;
  for (const btVector3& v : boat.hull->vertices()) shape.addPoint(v, false);
  shape.recalcLocalAabb();
  const btTransform fileInWorld(btQuaternion::getIdentity(), btVector3(0, btScalar(0.25 - draft_m), 0));
  const auto body = game::makeBody(boat, shape, fileInWorld);
  world.world.addRigidBody(body.get());
  WaterAction action(body.get(), boat.hull, std::make_shared<FlatSurface>(0.0));
  action.prime(btScalar(1.0 / 240));  // water force from the first substep: no drop
  world.world.addAction(&action);
  for (int i = 0; i < 600; ++i) world.world.stepSimulation(btScalar(1.0 / 60), 4, btScalar(1.0 / 240));
  EXPECT_NEAR(action.draft_m(), draft_m, 1e-4 * draft_m);
  EXPECT_NEAR(body->getCenterOfMassPosition().y(), 0.25 - draft_m + centre_m, 1e-4);
  world.world.removeAction(&action);
  world.world.removeRigidBody(body.get());
}

}  // namespace
}  // namespace keel::test
