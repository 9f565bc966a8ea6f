// keel::CollisionHoling (docs/flooding.md, "In a game"): a box and a convex
// hull driven into a pier at 1 and 4 substeps per stepSimulation are holed
// once per impact, where they hit; a gentle touch holes nothing.
#include "test_hulls.hpp"

#include <gtest/gtest.h>

#include <BulletCollision/CollisionShapes/btConvexHullShape.h>

#include <cmath>
#include <stdexcept>
#include <string>

namespace keel::test {
namespace {

constexpr btScalar L = 6, D = 1.5f, B = 2, T = 1;  // box boat [m]: length x, depth y, beam z; draft
constexpr btScalar kGap_m = 0.5f;                  // from the bow to the pier's face
constexpr btScalar kThreshold_mps = 2.5f;

enum class Shape { Box, ConvexHull };

struct Ram {
  int holes = 0;
  btVector3 firstHole_world{0, 0, 0};
  btScalar firstSpeedChange_mps = 0;
};

/// A box boat (6 x 1.5 x 2 m at 1 m draft, one compartment per quarter of
/// its length) of `shape`, heading at `speed_mps` for a pier, stepped at
/// `substeps` per 1/60 s frame for `seconds`; sent at the pier again at
/// `again_s` when positive.
Ram ram(Shape shape, int substeps, btScalar speed_mps, double seconds = 3, double again_s = 0) {
  World w;
  const Mesh mesh = box(btVector3(L, D, B));
  const btScalar mass_kg = 1025 * L * B * T;
  const btTransform start(btQuaternion::getIdentity(), btVector3(0, D / 2 - T, 0));
  btRigidBody* body = nullptr;
  if (shape == Shape::Box) {
    body = w.addBox(btVector3(L, D, B), mass_kg, start);
  } else {
    // Bullet keeps a convex hull's contact points from when they came within
    // its margin, well before they touch: the helper must not care how old
    // a point is.
    auto hull = std::make_unique<btConvexHullShape>();
    for (const btVector3& p : mesh.vertices) hull->addPoint(p, false);
    hull->recalcLocalAabb();
    btVector3 inertia(0, 0, 0);
    hull->calculateLocalInertia(mass_kg, inertia);
    btRigidBody::btRigidBodyConstructionInfo info(mass_kg, nullptr, hull.get(), inertia);
    info.m_startWorldTransform = start;
    w.shapes.push_back(std::move(hull));
    w.bodies.push_back(std::make_unique<btRigidBody>(info));
    body = w.bodies.back().get();
    w.world.addRigidBody(body);
  }
  body->setActivationState(DISABLE_DEACTIVATION);
  body->setLinearVelocity(btVector3(speed_mps, 0, 0));
  w.addBox(btVector3(2, 8, 10), 0, btTransform(btQuaternion::getIdentity(), btVector3(L / 2 + kGap_m + 1, 0, 0)));
  WaterAction boat(body, hullOf(mesh), std::make_shared<FlatSurface>());
  boat.setCompartments(bulkheadCompartments(*boat.hull(), btVector3(1, 0, 0), std::vector<btScalar>{-L / 4, 0, L / 4}));
  CollisionHoling holing({.speedChange_mps = kThreshold_mps, .holeArea_m2 = btScalar(0.01)});
  holing.add(boat);
  w.world.addAction(&boat);
  w.world.addAction(&holing);
  const btScalar dt = btScalar(1.0 / (60 * substeps));
  bool sentAgain = false;
  for (int frame = 0; frame < int(seconds * 60); ++frame) {
    if (again_s > 0 && !sentAgain && frame >= int(again_s * 60)) {  // back to the start, and at the pier again
      body->setCenterOfMassTransform(start);
      body->setAngularVelocity(btVector3(0, 0, 0));
      body->setLinearVelocity(btVector3(speed_mps, 0, 0));
      sentAgain = true;
    }
    w.world.stepSimulation(btScalar(1.0 / 60), substeps, dt);
  }
  w.world.removeAction(&holing);
  w.world.removeAction(&boat);
  Ram r;
  r.holes = int(holing.holes().size());
  if (r.holes > 0)
    r.firstHole_world = holing.holes()[0].point_world, r.firstSpeedChange_mps = holing.holes()[0].speedChange_mps;
  return r;
}

struct Case {
  Shape shape;
  int substeps;
};

class CollisionHolingRam : public ::testing::TestWithParam<Case> {};

// A face hit at 4 m/s: the box's four points share the impulse, none of
// them alone changes the speed by 2.5 m/s, their sum does. One impact, one
// hole, at the bow's face.
TEST_P(CollisionHolingRam, HardImpactHolesTheBowOnce) {
  const Ram r = ram(GetParam().shape, GetParam().substeps, 4);
  EXPECT_EQ(r.holes, 1);
  EXPECT_NEAR(r.firstHole_world.x(), L / 2 + kGap_m, 0.1);  // the bow's face, at the pier
  if (GetParam().shape == Shape::Box) {
    // Four points across the face: their weighted mean on the centre line,
    // their sum the impact (the speed it stopped), not a quarter of it.
    EXPECT_NEAR(r.firstHole_world.z(), 0, 0.1);
    EXPECT_GT(r.firstSpeedChange_mps, 3.4);
  } else {
    // Bullet's convex-convex contact adds a point per substep: where it
    // touched first weighs most. The face, from side to side.
    EXPECT_LE(std::abs(r.firstHole_world.z()), B / 2 + 0.05f);
  }
}

// Two impacts 2 s apart: two holes, one each.
TEST_P(CollisionHolingRam, EachImpactHolesOnce) {
  EXPECT_EQ(ram(GetParam().shape, GetParam().substeps, 4, 4, 2).holes, 2);
}

TEST_P(CollisionHolingRam, GentleTouchMakesNoHole) {
  EXPECT_EQ(ram(GetParam().shape, GetParam().substeps, btScalar(0.5)).holes, 0);
}

INSTANTIATE_TEST_SUITE_P(CollisionHoling, CollisionHolingRam,
                         ::testing::Values(Case{Shape::Box, 1}, Case{Shape::Box, 4}, Case{Shape::ConvexHull, 1},
                                           Case{Shape::ConvexHull, 4}),
                         [](const ::testing::TestParamInfo<Case>& info) {
                           return std::string(info.param.shape == Shape::Box ? "Box" : "ConvexHull") +
                                  std::to_string(info.param.substeps) + "Substeps";
                         });

TEST(CollisionHoling, RefusesBadSettings) {
  EXPECT_THROW(CollisionHoling({.speedChange_mps = 0}), std::invalid_argument);
  EXPECT_THROW(CollisionHoling({.holeArea_m2 = -1}), std::invalid_argument);
  EXPECT_THROW(CollisionHoling({.dischargeCoefficient = btScalar(1.5)}), std::invalid_argument);
  EXPECT_THROW(CollisionHoling({.rearm_s = std::numeric_limits<btScalar>::infinity()}), std::invalid_argument);
}

}  // namespace
}  // namespace keel::test
