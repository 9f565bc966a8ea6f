// Hulls from Bullet shapes afloat (keel::hullFromShape): a sphere settles at
// the cap formula's draft, a compound whose children overlap is refused
// unless allowed and then floats on its union, and the docs' example floats
// a crate at its draft (hull_from_shape_test.cpp: the hulls' volumes and
// shapes).
#include "examples/hull_from_shape.hpp"
#include "solid_volumes.hpp"
#include "test_hulls.hpp"

#include <keel/hull_from_shape.hpp>

#include <btBulletDynamicsCommon.h>
#include <gtest/gtest.h>

#include <memory>
#include <string>

namespace keel::test {
namespace {

using namespace solids;  // the exact volumes

/// The depth [m] of a sphere cap of volume `fraction` of its sphere's
/// (design: V = pi h^2 (3R - h) / 3), by bisection.
double capDepth(double radius_m, double fraction) {
  double low = 0, high = 2 * radius_m;
  for (int i = 0; i < 100; ++i) {
    const double h = 0.5 * (low + high);
    (kPi * h * h * (3 * radius_m - h) / 3 < fraction * sphereVolume(radius_m) ? low : high) = h;
  }
  return 0.5 * (low + high);
}

/// The cap depth [m] at which a sphere of radius `radius_m`, its hull from
/// its btSphereShape, settles on flat water at relative density `s`: the
/// radius plus its centre's depth below the water.
double settledCapDepth(btScalar radius_m, double s) {
  World w;
  btSphereShape shape(radius_m);
  const auto hull = hullFromShape(shape);
  const btScalar mass = btScalar(s * 1025 * double(hull->volume_m3()));
  btVector3 inertia;
  shape.calculateLocalInertia(mass, inertia);
  btRigidBody::btRigidBodyConstructionInfo info(mass, nullptr, &shape, inertia);
  info.m_startWorldTransform.setOrigin(btVector3(0, btScalar(0.1), 0));
  btRigidBody body(info);
  body.setActivationState(DISABLE_DEACTIVATION);
  body.setDamping(btScalar(0.6), btScalar(0.6));
  w.world.addRigidBody(&body);
  WaterAction boat(&body, hull, std::make_shared<FlatSurface>(0.0));
  w.world.addAction(&boat);
  for (int i = 0; i < 240 * 40; ++i) w.world.stepSimulation(btScalar(1.0 / 240), 1, btScalar(1.0 / 240));
  EXPECT_TRUE(boat.status().ok()) << boat.status().describe();
  w.world.removeAction(&boat);
  w.world.removeRigidBody(&body);
  return double(radius_m) - double(body.getCenterOfMassPosition().y());
}

TEST(HullFromShape, SphereFloatsAtTheCapFormulasDraft) {
  // Half as dense as the water: half submerged, the cap as deep as the radius.
  const double half = settledCapDepth(btScalar(0.5), 0.5);
  reportFigure("sphere r 0.5 m at relative density 0.5: cap depth [m]", half, capDepth(0.5, 0.5));
  EXPECT_NEAR(half, capDepth(0.5, 0.5), 1e-4 * 0.5);
  // A quarter: the cap formula's root, which the polyhedron meets to its
  // departure from the sphere (a fifth of the chord error).
  const double quarter = settledCapDepth(btScalar(0.5), 0.25);
  reportFigure("sphere r 0.5 m at relative density 0.25: cap depth [m]", quarter, capDepth(0.5, 0.25));
  EXPECT_NEAR(quarter, capDepth(0.5, 0.25), 0.01 * capDepth(0.5, 0.25));
}

TEST(HullFromShape, OverlappingCompoundChildrenAreRefusedUnlessAllowed) {
  // A crate with a mast pushed through its lid.
  btBoxShape crate(btVector3(1, btScalar(0.5), 1));
  btCylinderShape mast(btVector3(btScalar(0.1), 1, btScalar(0.1)));
  btCompoundShape boat;
  boat.addChildShape(btTransform::getIdentity(), &crate);
  boat.addChildShape(btTransform(btQuaternion::getIdentity(), btVector3(0, 1, 0)), &mast);
  try {
    (void)hullFromShape(boat);
    ADD_FAILURE() << "overlapping children were accepted";
  } catch (const HullError& e) {
    const std::string message = e.what();
    EXPECT_NE(message.find("the compound's children overlap"), std::string::npos) << message;
    EXPECT_NE(message.find("HullOptions::overlappingParts"), std::string::npos) << message;
    EXPECT_EQ(e.counts().overlappingParts, 1u);
  }
  HullOptions options;
  options.overlappingParts = true;
  const auto hull = hullFromShape(boat, {}, options);
  EXPECT_TRUE(hull->partsOverlap());
  // The union: the crate and the mast above its lid.
  const double union_m3 = 4 + cylinderVolume(0.1, 1.5);
  reportFigure("crate and mast, union volume from columns [m^3]", double(hull->volume_m3()), union_m3);
  EXPECT_NEAR(double(hull->volume_m3()), union_m3, 0.01 * union_m3);
  // The example floats it (on columns).
  EXPECT_TRUE(game::hullOf(boat)->partsOverlap());
}

TEST(HullFromShape, ExampleFloatsACrateAtItsDraft) {
  // docs/integration.md, "Hulls from Bullet shapes": a 2 x 0.5 x 1.5 m
  // crate of 615 kg floats 615 / (1025 x 2 x 1.5) = 0.2 m deep.
  World w;
  btRigidBody* body = w.addBox(btVector3(2, btScalar(0.5), btScalar(1.5)), 615, btTransform::getIdentity());
  body->setDamping(btScalar(0.6), btScalar(0.6));
  const auto boat = game::floatBody(*body, std::make_shared<FlatSurface>(0.0));
  w.world.addAction(boat.get());
  for (int i = 0; i < 240 * 30; ++i) w.world.stepSimulation(btScalar(1.0 / 240), 1, btScalar(1.0 / 240));
  const double draft = 0.25 - double(body->getCenterOfMassPosition().y());
  reportFigure("the example's crate: draft [m]", draft, 0.2);
  EXPECT_NEAR(draft, 0.2, 1e-4 * 0.2);
  w.world.removeAction(boat.get());
}

}  // namespace
}  // namespace keel::test
