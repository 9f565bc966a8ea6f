// keel::Propulsion on a Bullet body: its forces act exactly once per
// substep, whatever the substeps per call,
// bollard pull is the open-water thrust, and bad input never reaches Bullet
// (docs/propulsion.md).
#include "test_hulls.hpp"

#include <keel/propulsion.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <memory>
#include <numbers>
#include <stdexcept>
#include <utility>
#include <vector>

namespace keel::test {
namespace {

constexpr double kRho = 1025;

/// A 6 m x 2 m pontoon, 1 m deep, floating at 0.3 m on flat water, with a
/// 0.5 m screw and a rudder under its stern.
struct Pontoon {
  static constexpr btScalar kMass_kg = btScalar(kRho * 6 * 2 * 0.3);
  explicit Pontoon(World& w) {
    body = w.addBox(btVector3(6, 1, 2), kMass_kg, btTransform(btQuaternion::getIdentity(), btVector3(0, 0.2f, 0)));
  }
  btRigidBody* body = nullptr;
  std::shared_ptr<const Hull> hull = hullOf(box(btVector3(6, 1, 2), 4));
};

const Propeller kScrew({.diameter_m = 0.5, .pitchRatio = 1.0, .bladeAreaRatio = 0.55, .blades = 4});
const Rudder kRudder({.area_m2 = 0.3, .aspectRatio = 1.5});
const PropulsionLayout kLayout{
    .propeller_m = btVector3(-3.2f, -0.8f, 0), .rudder_m = btVector3(-3.6f, -0.8f, 0), .rudderSpan_m = 0.6};

struct Snapshot {
  btTransform transform;
  btVector3 linear, angular;
};

bool bitwiseEqual(const Snapshot& a, const Snapshot& b) {
  return std::memcmp(&a.transform, &b.transform, sizeof(btTransform)) == 0 &&
         std::memcmp(&a.linear, &b.linear, sizeof(btVector3)) == 0 &&
         std::memcmp(&a.angular, &b.angular, sizeof(btVector3)) == 0;
}

/// The pontoon driven ahead and steered for 2,400 substeps of 1/240 s,
/// `perCall` per stepSimulation, with damping.
Snapshot drive(int perCall) {
  World w;
  Pontoon p(w);
  p.body->setDamping(0.2f, 0.3f);
  WaterAction boat(p.body, p.hull, std::make_shared<LevelWater>(0));
  Propulsion drive(boat, kScrew, kRudder, kLayout);
  drive.setHelm({.revolutions_ps = 12, .rudder_rad = 0.3});
  w.world.addAction(&boat);
  w.world.addAction(&drive);  // after the boat, which then reads the velocity Bullet integrated
  const btScalar dt = btScalar(1.0 / 240);
  for (int i = 0; i < 2400 / perCall; ++i) w.world.stepSimulation(dt * btScalar(perCall), perCall, dt);
  EXPECT_EQ(drive.report().flags, StatusOk);
  EXPECT_GT(drive.report().propeller.thrust_N, 0);
  w.world.removeAction(&drive);
  w.world.removeAction(&boat);
  return {p.body->getCenterOfMassTransform(), boat.linearVelocity_mps(), boat.angularVelocity_radps()};
}

TEST(Propulsion, ActsOncePerSubstepWhateverTheSubstepsPerCall) {
  const Snapshot one = drive(1), two = drive(2), four = drive(4);
  reportValue("pontoon at 12 rev/s, rudder 0.3 rad, after 10 s: speed [m/s]", one.linear.length());
  reportValue("pontoon at 12 rev/s, rudder 0.3 rad, after 10 s: yaw rate [rad/s]", one.angular.y());
  EXPECT_TRUE(bitwiseEqual(one, two));
  EXPECT_TRUE(bitwiseEqual(one, four));
  EXPECT_GT(one.linear.length(), 1);
  EXPECT_LT(one.angular.y(), -0.05);  // rudder to starboard: the bow turns to starboard (+z), about -y
}

// Without damping, the momentum the body gains is the sum of the forces the
// action reported, each times one substep: none acts twice, none is lost.
TEST(Propulsion, MomentumIsTheReportedForcesTimesTheSubstep) {
  for (const int perCall : {1, 2, 4}) {
    World w;
    Pontoon p(w);
    p.body->setLinearFactor(btVector3(1, 0, 1));  // no gravity's fall: no water action here
    p.body->setAngularFactor(btVector3(0, 0, 0));
    Propulsion drive(p.body, std::make_shared<LevelWater>(10), kScrew, kRudder, kLayout);
    drive.setHelm({.revolutions_ps = 10, .rudder_rad = 0.2});
    w.world.addAction(&drive);
    struct Sum {
      Propulsion* drive;
      btVector3 impulse_Ns{0, 0, 0};
    } sum{&drive};
    w.world.setInternalTickCallback(
        [](btDynamicsWorld* world, btScalar dt) {
          auto* s = static_cast<Sum*>(world->getWorldUserInfo());
          s->impulse_Ns += s->drive->report().force_N * btVector3(1, 0, 1) * dt;
        },
        &sum);
    const btScalar dt = btScalar(1.0 / 240);
    for (int i = 0; i < 480 / perCall; ++i) w.world.stepSimulation(dt * btScalar(perCall), perCall, dt);
    const btVector3 momentum = p.body->getLinearVelocity() * Pontoon::kMass_kg;
    if (perCall == 1) reportFigure("momentum after 2 s [N s]", momentum.x(), sum.impulse_Ns.x());
    EXPECT_NEAR(momentum.x(), sum.impulse_Ns.x(), 1e-4 * std::abs(sum.impulse_Ns.x())) << perCall;
    EXPECT_NEAR(momentum.z(), sum.impulse_Ns.z(), 1e-4 * std::abs(sum.impulse_Ns.x())) << perCall;
    EXPECT_GT(sum.impulse_Ns.x(), 0);
    w.world.removeAction(&drive);
  }
}

// Held still, the screw gives its bollard thrust, rho n^2 D^4 K_T(0), less
// the thrust deduction, at the hub along the shaft.
TEST(Propulsion, BollardPullIsTheOpenWaterThrustLessTheDeduction) {
  World w;
  Pontoon p(w);
  p.body->setLinearFactor(btVector3(0, 0, 0));
  p.body->setAngularFactor(btVector3(0, 0, 0));
  Propulsion drive(p.body, std::make_shared<LevelWater>(0), kScrew, kRudder, kLayout);
  drive.setHelm({.revolutions_ps = 12});
  w.world.addAction(&drive);
  w.world.stepSimulation(btScalar(1.0 / 60), 4, btScalar(1.0 / 240));
  const double expected = (1 - 0.08) * kRho * 144 * std::pow(0.5, 4) * kScrew.openWater(0).thrust;
  reportFigure("pontoon's bollard pull at 12 rev/s [N]", drive.report().thrust_N.x(), expected);
  EXPECT_NEAR(drive.report().thrust_N.x(), expected, 1e-5 * expected);
  EXPECT_NEAR(drive.report().immersion_m, 0.6, 1e-5);
  EXPECT_GT(drive.report().rudder.inflowSpeed_mps, 1);  // the race reaches the rudder at bollard
  w.world.removeAction(&drive);
}

/// Water whose height is NaN.
class NaNWater final : public WaterSurface {
 public:
  btScalar height(btScalar, btScalar, double) const override { return std::numeric_limits<btScalar>::quiet_NaN(); }
};

TEST(Propulsion, NonFiniteInputIsRefusedOrReportedNeverApplied) {
  World w;
  Pontoon p(w);
  const double nan = std::numeric_limits<double>::quiet_NaN();
  Propulsion drive(p.body, std::make_shared<NaNWater>(), kScrew, kRudder, kLayout);
  EXPECT_THROW(drive.setHelm({.revolutions_ps = nan}), std::invalid_argument);
  EXPECT_THROW(drive.setHelm({.rudder_rad = std::numeric_limits<double>::infinity()}), std::invalid_argument);
  EXPECT_EQ(drive.helm().revolutions_ps, 0);
  PropulsionLayout bad = kLayout;
  bad.propeller_m.setX(btScalar(nan));
  EXPECT_THROW(Propulsion(p.body, std::make_shared<LevelWater>(0), kScrew, kRudder, bad), std::invalid_argument);
  bad = kLayout;
  bad.up = bad.forward;
  EXPECT_THROW(Propulsion(p.body, std::make_shared<LevelWater>(0), kScrew, kRudder, bad), std::invalid_argument);

  // NaN water: reported, and no force.
  drive.setHelm({.revolutions_ps = 12, .rudder_rad = 0.3});
  p.body->setLinearVelocity(btVector3(2, 0, 0));
  drive.updateAction(&w.world, btScalar(1.0 / 240));
  EXPECT_TRUE(drive.report().flags & StatusNonFiniteHeight);
  EXPECT_EQ(drive.report().force_N, btVector3(0, 0, 0));
  EXPECT_EQ(p.body->getLinearVelocity(), btVector3(2, 0, 0));

  // A body gone non-finite is left as it is, and said so.
  Propulsion onWater(p.body, std::make_shared<LevelWater>(0), kScrew, kRudder, kLayout);
  onWater.setHelm({.revolutions_ps = 12});
  p.body->setAngularVelocity(btVector3(0, btScalar(nan), 0));
  onWater.updateAction(&w.world, btScalar(1.0 / 240));
  EXPECT_TRUE(onWater.report().flags & StatusNonFiniteBody);
  EXPECT_EQ(p.body->getLinearVelocity(), btVector3(2, 0, 0));
  p.body->setAngularVelocity(btVector3(0, 0, 0));
  onWater.updateAction(&w.world, btScalar(nan));
  EXPECT_EQ(onWater.report().flags, StatusBadTimeStep);
  onWater.updateAction(&w.world, btScalar(1.0 / 240));
  EXPECT_EQ(onWater.report().flags, StatusOk);
  EXPECT_GT(p.body->getLinearVelocity().x(), 2);
}

}  // namespace
}  // namespace keel::test
