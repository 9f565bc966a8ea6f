// The example of docs/mass.md: a GRP box boat with an engine and cast iron
// in its bilge, weighed, moved into its body frame, and floated at the
// draft keel::draftForMass_m predicts.
#include "boat_mass.hpp"
#include "ballast.hpp"
#include "hull_from_file.hpp"
#include "test_hulls.hpp"

#include <gtest/gtest.h>

#include <BulletCollision/CollisionShapes/btConvexHullShape.h>
#include <assimp/postprocess.h>
#include <assimp/scene.h>
#include <assimp/Importer.hpp>

#include <cmath>
#include <numbers>

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
  // The body is on the principal axes: the file's bow and deck mapped into it.
  EXPECT_NEAR(attitude(action, boat.axes).trim_rad, 0, 1e-3);
}

// media/tug.obj weighed as the harbour demo weighs it (demo/src/boat_type.cpp):
// 8 mm of steel, an 8 t engine aft and low, and ballast below half the draft
// making up the displacement at the design waterline. Its principal axes are
// turned from the file's in pitch, so a body on them drawn level reads a
// trim unless the file's axes are mapped into it.
TEST(BoatMass, TugsFileAxesMappedToItsBodyReadLevelAndThrustAlongTheBow) {
  Assimp::Importer importer;
  const aiScene* scene = importer.ReadFile(KEEL_MEDIA_DIR "/tug.obj", aiProcess_Triangulate);
  ASSERT_NE(scene, nullptr);
  btTriangleMesh mesh;
  game::appendObject(*scene, "hull", mesh);
  const Hull file(mesh);
  const double draft_m = -double(file.boundsMin().y());
  MassModel model;
  model.shell(file, 0.008, 7850).pointMass(8000, btVector3(-3, -0.6f, 0));
  model.ballastBelow(file, btVector3(0, 1, 0), -draft_m / 2, 0, RegionDensity::Adds);
  const double rest_kg = massForDraft_kg(file, draft_m, 1025) - model.massMoments().zeroth;
  model.setDensity(2, rest_kg / model.parts()[2].geometry.zeroth);
  const MassProperties m = model.properties();

  // The file drawn level in a y-up world: the body at fileInWorld * bodyToHull.
  const btMatrix3x3 bodyToWorld = m.bodyToHull().getBasis();
  const btVector3 up(0, 1, 0);
  const HullAxes fileAxes{.forward = btVector3(1, 0, 0), .up = up};
  const double degrees = 180 / std::numbers::pi;
  const double assumed_deg = trim_rad(bodyToWorld, fileAxes, up) * degrees;
  const double mapped_deg = trim_rad(bodyToWorld, m.axesInBody(fileAxes), up) * degrees;
  reportFigure("tug: trim read with the file's axes on the principal body [deg]", assumed_deg, 0);
  EXPECT_GT(std::abs(assumed_deg), 2);  // the principal axes' turn in pitch
  EXPECT_NEAR(mapped_deg, 0, 1e-4);
  EXPECT_NEAR(heel_rad(bodyToWorld, m.axesInBody(fileAxes), up), 0, 1e-6);
  // A propeller pushing along the mapped bow pushes along the file's bow, level.
  const btVector3 thrust = bodyToWorld * m.directionInBody(fileAxes.forward);
  EXPECT_NEAR(thrust.x(), 1, 1e-6);
  EXPECT_NEAR(thrust.y(), 0, 1e-6);
  // Points: the file's frame and the body's, both ways.
  const btVector3 propeller(-6.6f, -1.3f, 0);
  EXPECT_LT((m.hullToBody() * propeller - m.pointInBody(propeller)).length(), 1e-5);
  EXPECT_LT((m.bodyToHull() * m.pointInBody(propeller) - propeller).length(), 1e-5);
}

// docs/mass.md's ballast: a GRP box 4 x 1 x 2 m drawn with its origin on a
// waterline 0.25 m above the keel, an engine aft and to starboard, ballasted
// for a draft of 0.35 m, made a body on its principal axes (the lead and the
// engine turn them) and floated: it settles at that draft, level.
TEST(BoatMass, BallastForADesignWaterlineFloatsTheBoatLevelThere) {
  const auto fileHull = hullOf(box(btVector3(4, 1, 2), 2, btVector3(0, 0.25f, 0)));
  const double draft_m = 0.35;
  const MassModel model = game::ballastedBoat(*fileHull, 300, btVector3(-1.5f, 0.1f, 0.3f), draft_m);
  const MassProperties m = model.properties();
  EXPECT_NEAR(m.mass_kg, 1025 * 4 * 2 * draft_m, 1e-9 * m.mass_kg);
  // Over the centre of buoyancy (0, -0.075, 0): the lead makes up the engine's moments.
  const double tol = std::is_same_v<btScalar, double> ? 1e-9 : 1e-6;
  EXPECT_NEAR(m.centreOfMass_m.x(), 0, tol);
  EXPECT_NEAR(m.centreOfMass_m.z(), 0, tol);

  World world;
  const auto hull = toBodyFrame(*fileHull, m.bodyToHull());
  btConvexHullShape shape;
  for (const btVector3& v : hull->vertices()) shape.addPoint(v, false);
  shape.recalcLocalAabb();
  btRigidBody::btRigidBodyConstructionInfo info(btScalar(m.mass_kg), nullptr, &shape, m.principalInertia_kgm2);
  info.m_startWorldTransform = btTransform(btQuaternion::getIdentity(), btVector3(0, btScalar(0.25 - 0.3), 0)) *
                               m.bodyToHull();  // 5 cm too deep, to settle from
  btRigidBody body(info);
  body.setDamping(btScalar(0.5), btScalar(0.5));
  world.world.addRigidBody(&body);
  WaterAction action(&body, hull, std::make_shared<FlatSurface>(0.0));
  action.prime(btScalar(1.0 / 240));
  world.world.addAction(&action);
  for (int i = 0; i < 1800; ++i) world.world.stepSimulation(btScalar(1.0 / 60), 4, btScalar(1.0 / 240));
  const Attitude a = attitude(action, m.axesInBody({.forward = btVector3(1, 0, 0), .up = btVector3(0, 1, 0)}));
  reportFigure("ballasted box: draft [m]", double(a.draft_m), draft_m);
  reportFigure("ballasted box: trim [rad]", a.trim_rad, 0);
  reportFigure("ballasted box: heel [rad]", a.heel_rad, 0);
  EXPECT_NEAR(a.draft_m, draft_m, 1e-5 * draft_m);
  EXPECT_NEAR(a.trim_rad, 0, 1e-6);
  EXPECT_NEAR(a.heel_rad, 0, 1e-6);
  world.world.removeAction(&action);
  world.world.removeRigidBody(&body);
}

}  // namespace
}  // namespace keel::test
