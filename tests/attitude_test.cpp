// Heel, trim and draft (keel/attitude.hpp, WaterAction::draft_m) against
// analytic poses: yaw, pitch and roll read back, in y-up and z-up worlds.
#include "test_hulls.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>

namespace keel::test {
namespace {

constexpr double kDeg = 3.14159265358979323846 / 180;
constexpr double kRho = 1025;

/// Rotation of `angle_deg` about `axis`.
btMatrix3x3 turn(const btVector3& axis, double angle_deg) {
  return btMatrix3x3(btQuaternion(axis.normalized(), btScalar(angle_deg * kDeg)));
}

const btVector3 kX(1, 0, 0), kY(0, 1, 0), kZ(0, 0, 1);

TEST(Attitude, HeelOfTenDegreesReadsTen) {
  // y up, bow +x, starboard +z: turning +10 deg about the bow puts starboard down.
  const btMatrix3x3 heeled = turn(kX, 10);
  EXPECT_NEAR(heel_rad(heeled, {}, kY) / kDeg, 10, 1e-4);
  EXPECT_NEAR(trim_rad(heeled, {}, kY) / kDeg, 0, 1e-4);
  EXPECT_NEAR(heel_rad(turn(kX, -10), {}, kY) / kDeg, -10, 1e-4);
}

TEST(Attitude, TrimOfFiveDegreesBowUpReadsFive) {
  const btMatrix3x3 trimmed = turn(kZ, 5);  // bow +x turns towards +y
  EXPECT_NEAR(trim_rad(trimmed, {}, kY) / kDeg, 5, 1e-4);
  EXPECT_NEAR(heel_rad(trimmed, {}, kY) / kDeg, 0, 1e-4);
}

TEST(Attitude, YawPitchRollReadBackWhateverTheHeading) {
  // R = yaw about up, then pitch about starboard, then roll about the bow.
  for (double yaw : {0.0, 37.0, -120.0, 180.0})
    for (double pitch : {-30.0, 0.0, 8.0, 60.0})
      for (double roll : {-170.0, -45.0, 0.0, 10.0, 95.0}) {
        const btMatrix3x3 pose = turn(kY, yaw) * turn(kZ, pitch) * turn(kX, roll);
        EXPECT_NEAR(heel_rad(pose, {}, kY) / kDeg, roll, 2e-3) << yaw << " " << pitch << " " << roll;
        EXPECT_NEAR(trim_rad(pose, {}, kY) / kDeg, pitch, 2e-3) << yaw << " " << pitch << " " << roll;
      }
}

TEST(Attitude, ZUpWorldAndOtherHullAxes) {
  // z up, bow +x: starboard is forward x up = -y; pitch bow up is a turn about -y.
  const HullAxes zUp{.forward = kX, .up = kZ};
  const btMatrix3x3 pose = turn(kZ, 30) * turn(-kY, 4) * turn(kX, 12);
  EXPECT_NEAR(heel_rad(pose, zUp, kZ) / kDeg, 12, 2e-3);
  EXPECT_NEAR(trim_rad(pose, zUp, kZ) / kDeg, 4, 2e-3);
  // A hull modelled bow along -z, deck along +y, axes neither unit nor
  // orthogonal: starboard is (-z) x y = +x, so a turn about the bow (-z)
  // by +7 deg puts it down.
  const HullAxes odd{.forward = btVector3(0, 0.3f, -2), .up = btVector3(0, 5, 0)};
  const btScalar tilt = btScalar(std::atan2(0.3, 2.0));  // the forward axis as given, above the deck plane
  const btMatrix3x3 level = turn(kX, -tilt / kDeg);      // makes that forward axis horizontal
  EXPECT_NEAR(trim_rad(level, odd, kY) / kDeg, 0, 2e-3);
  EXPECT_NEAR(heel_rad(turn(-kZ, 7), {.forward = -kZ, .up = kY}, kY * 9.81f) / kDeg, 7, 2e-3);
  EXPECT_THROW((void)heel_rad(level, {.forward = kX, .up = kX * 2}, kY), std::invalid_argument);
  EXPECT_THROW((void)trim_rad(level, {.forward = btVector3(0, 0, 0), .up = kY}, kY), std::invalid_argument);
}

/// A 2 m x 1 m x 1.5 m box of mass for draft T = 0.4 m, centre at `y`, turned by `q`.
struct Box {
  static constexpr btScalar L = 2, D = 1, B = 1.5, T = 0.4;
  Box(btScalar y_m, const btQuaternion& q)
      : body(world.addBox(btVector3(L, D, B), btScalar(kRho) * L * B * T, btTransform(q, btVector3(0, y_m, 0)))),
        boat(body, hullOf(box(btVector3(L, D, B))), [](btScalar, btScalar, double) { return btScalar(0); }) {}
  World world;
  btRigidBody* body;
  WaterAction boat;
};

TEST(Attitude, BoxAtDraftTReadsT) {
  Box b(Box::D / 2 - Box::T, btQuaternion::getIdentity());
  EXPECT_TRUE(std::isnan(b.boat.draft_m()));  // no substep yet
  b.boat.prime(btScalar(1.0 / 240));
  const Attitude a = attitude(b.boat);
  EXPECT_NEAR(a.draft_m, Box::T, 1e-6);
  EXPECT_NEAR(a.heel_rad, 0, 1e-6);
  EXPECT_NEAR(a.trim_rad, 0, 1e-6);
  // Lifted clear of the water by 0.25 m: the draft is the clearance, negative.
  b.body->setCenterOfMassTransform(btTransform(btQuaternion::getIdentity(), btVector3(0, Box::D / 2 + 0.25f, 0)));
  b.boat.prime(btScalar(1.0 / 240));
  EXPECT_NEAR(b.boat.draft_m(), -0.25, 1e-6);
}

TEST(Attitude, HeeledBoxReadsItsHeelAndItsLowestCornersDepth) {
  const double heel = 10;
  Box b(0.05f, btQuaternion(kX, btScalar(heel * kDeg)));
  b.boat.prime(btScalar(1.0 / 240));
  const Attitude a = attitude(b.boat);
  EXPECT_NEAR(a.heel_rad / kDeg, heel, 1e-4);
  EXPECT_NEAR(a.trim_rad / kDeg, 0, 1e-4);
  // The lowest corner: half the depth and half the beam, turned by the heel.
  const double lowest = 0.05 - (Box::D / 2 * std::cos(heel * kDeg) + Box::B / 2 * std::sin(heel * kDeg));
  EXPECT_NEAR(a.draft_m, -lowest, 1e-6);
  // Settled, the box stays upright at its draft.
  b.world.world.addAction(&b.boat);
  b.body->setCenterOfMassTransform(btTransform(btQuaternion::getIdentity(), btVector3(0, Box::D / 2 - Box::T, 0)));
  b.body->setLinearVelocity(btVector3(0, 0, 0));
  b.body->setAngularVelocity(btVector3(0, 0, 0));
  b.boat.prime(btScalar(1.0 / 240));
  for (int i = 0; i < 60; ++i) b.world.world.stepSimulation(btScalar(1.0 / 60), 4, btScalar(1.0 / 240));
  EXPECT_NEAR(b.boat.draft_m(), Box::T, 1e-3);
  b.world.world.removeAction(&b.boat);
}

}  // namespace
}  // namespace keel::test
