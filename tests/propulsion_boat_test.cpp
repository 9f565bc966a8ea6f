// The harbour demo's tug on keel::Propulsion (demo/src/boat_type.cpp): its
// bollard pull, its top speed on flat water and its turning circle at full
// rudder, the figures docs/propulsion.md quotes.
#include "drive.hpp"
#include "media_boat.hpp"
#include "test_hulls.hpp"

#include <keel/propulsion.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <numbers>

namespace keel::test {
namespace {

constexpr double kRate_Hz = 120;

/// The demo's tug (demo/src/boat_type.cpp): 8 mm of steel, an 8 t engine,
/// ballast; a B4-70 screw of 1.6 m at 4.6 rev/s (276 rpm) and a 2 m^2 blade
/// of aspect ratio 1.5 turning 0.6 rad either way (the example's addDrive).
struct DemoTug {
  Boat boat = weigh("tug.obj", 0.008, 7850, 8000, btVector3(-3, -0.6f, 0));
  game::DriveSpec drive{.screw = {.diameter_m = 1.6, .pitchRatio = 1.0, .bladeAreaRatio = 0.7, .blades = 4},
                        .hub_m = btVector3(-6.6f, -1.3f, 0),
                        .rudder_m = btVector3(-6.9f, -1.1f, 0),
                        .rudderArea_m2 = 2.0};
  static constexpr double kRevolutions_ps = 4.6, kRudder_rad = 0.6;
};

/// The tug afloat at its design waterline on flat water, at 120 Hz.
struct TugAfloat {
  explicit TugAfloat(const DemoTug& tug) {
    for (const btVector3& v : tug.boat.hull->vertices()) shape.addPoint(v, false);
    shape.recalcLocalAabb();
    btRigidBody::btRigidBodyConstructionInfo info(btScalar(tug.boat.mass.mass_kg), nullptr, &shape,
                                                  tug.boat.mass.principalInertia_kgm2);
    info.m_startWorldTransform = tug.boat.mass.bodyToHull();
    body = std::make_unique<btRigidBody>(info);
    world.world.addRigidBody(body.get());
    boat = std::make_unique<WaterAction>(body.get(), tug.boat.hull, std::make_shared<FlatSurface>(0.0));
    boat->prime(kDt);
    world.world.addAction(boat.get());
    drive = game::addDrive(world.world, *boat, tug.boat.mass, tug.drive, kDt);
  }
  ~TugAfloat() {
    world.world.removeAction(drive.get());
    world.world.removeAction(boat.get());
    world.world.removeRigidBody(body.get());
  }
  void step() { world.world.stepSimulation(kDt, 1, kDt); }
  [[nodiscard]] double speed_mps() const {
    const btVector3 v = boat->linearVelocity_mps();
    return std::hypot(double(v.x()), double(v.z()));
  }
  /// The bow's heading in the horizontal plane [rad], towards +z positive.
  [[nodiscard]] double heading_rad() const {
    const btVector3 bow = body->getCenterOfMassTransform().getBasis() * drive->layout().forward;
    return std::atan2(double(bow.z()), double(bow.x()));
  }
  static constexpr btScalar kDt = btScalar(1.0 / kRate_Hz);
  World world;
  btConvexHullShape shape;
  std::unique_ptr<btRigidBody> body;
  std::unique_ptr<WaterAction> boat;
  std::unique_ptr<Propulsion> drive;
};

// Tied to a bollard (held still), the screw gives its open-water thrust at
// J = 0, less the thrust deduction.
TEST(DemoTug, BollardPull) {
  const DemoTug tug;
  TugAfloat run(tug);
  run.body->setLinearFactor(btVector3(0, 0, 0));
  run.body->setAngularFactor(btVector3(0, 0, 0));
  run.body->setLinearVelocity(btVector3(0, 0, 0));  // without the boat's first velocity change
  run.body->setAngularVelocity(btVector3(0, 0, 0));
  run.drive->setHelm({.revolutions_ps = DemoTug::kRevolutions_ps});
  for (int i = 0; i < 120; ++i) run.step();
  const PropulsionReport& r = run.drive->report();
  const double n = DemoTug::kRevolutions_ps;
  const double openWater = kSeaWaterDensity_kgpm3 * n * n * std::pow(1.6, 4) *
                           run.drive->propeller().openWater(0).thrust;
  reportFigure("demo tug: bollard pull [kN]", double(r.thrust_N.length()) / 1e3, (1 - 0.08) * openWater / 1e3);
  reportValue("demo tug: shaft power at bollard [kW]", 2 * std::numbers::pi * n * r.propeller.torque_Nm / 1e3);
  EXPECT_NEAR(double(r.thrust_N.length()), (1 - 0.08) * openWater, 1e-5 * openWater);
  EXPECT_EQ(r.propeller.emergence, 1);
}

// Full revolutions, rudder amidships, from rest on flat water: the speed
// where the thrust on the hull meets Keel's resistance; then hard to
// starboard: the advance and the tactical diameter (the track's advance
// along, and offset across, the first course when the heading has turned 90
// and 180 deg) and the steady turning diameter.
TEST(DemoTug, TopSpeedAndTurningCircle) {
  const DemoTug tug;
  TugAfloat run(tug);
  run.drive->setHelm({.revolutions_ps = DemoTug::kRevolutions_ps});
  double earlier = 0;
  for (int i = 0; i < int(150 * kRate_Hz); ++i) {
    run.step();
    if (i == int(130 * kRate_Hz)) earlier = run.speed_mps();
  }
  const double top = run.speed_mps();
  const PropulsionReport& r = run.drive->report();
  reportValue("demo tug: top speed [m/s]", top);
  reportValue("demo tug: top speed [kn]", top * 3600 / 1852);
  reportValue("demo tug: advance ratio J at top speed", r.propeller.advanceRatio);
  EXPECT_NEAR(top, earlier, 0.005 * top);  // steady
  // Steady: the thrust on the hull is the water's resistance along the course.
  const btVector3 course = run.boat->linearVelocity_mps().normalized();
  EXPECT_NEAR(double(run.boat->totalForce().force_N.dot(course)), -double(r.force_N.dot(course)),
              0.02 * double(r.thrust_N.length()));

  // Hard to starboard.
  const btVector3 start = run.body->getCenterOfMassPosition();
  const double heading0 = run.heading_rad();
  run.drive->setHelm({.revolutions_ps = DemoTug::kRevolutions_ps, .rudder_rad = DemoTug::kRudder_rad});
  double turned = 0, last = heading0, advance = 0, tactical = 0, rateSum = 0, speedSum = 0;
  btVector3 lo(1e9f, 0, 1e9f), hi(-1e9f, 0, -1e9f);
  int n = 0;
  for (int i = 0; i < int(400 * kRate_Hz) && turned < 4 * std::numbers::pi; ++i) {
    run.step();
    const double h = run.heading_rad();
    turned += std::remainder(h - last, 2 * std::numbers::pi);
    last = h;
    const btVector3 p = run.body->getCenterOfMassPosition() - start;
    if (advance == 0 && turned >= std::numbers::pi / 2) advance = double(p.x());
    if (tactical == 0 && turned >= std::numbers::pi) tactical = double(p.z());
    if (turned >= 2 * std::numbers::pi) {  // the second circle: steady
      lo.setMin(p), hi.setMax(p);
      rateSum += std::abs(double(run.boat->angularVelocity_radps().y()));
      speedSum += run.speed_mps();
      ++n;
    }
  }
  ASSERT_GE(turned, 4 * std::numbers::pi) << "the tug did not complete two circles";
  const double steady = 0.5 * double((hi.x() - lo.x()) + (hi.z() - lo.z()));
  const double fromRate = 2 * speedSum / rateSum;
  const double length = double(tug.boat.file->boundsMax().x() - tug.boat.file->boundsMin().x());
  reportValue("demo tug: length [m]", length);
  reportValue("demo tug: advance at 90 deg [m]", advance);
  reportValue("demo tug: tactical diameter at 180 deg [m]", tactical);
  reportValue("demo tug: steady turning diameter [m]", steady);
  reportValue("demo tug: steady turning speed [m/s]", speedSum / n);
  reportValue("demo tug: rudder angle of attack in the steady turn [deg]",
              r.rudder.coefficients.angleOfAttack_rad * 180 / std::numbers::pi);
  EXPECT_NEAR(fromRate, steady, 0.03 * steady);  // a circle: its extent is 2 V / r
  EXPECT_GT(steady, length);
  EXPECT_LT(steady, 10 * length);
  EXPECT_GT(tactical, 0.8 * steady);  // to starboard, about the circle's size
}

}  // namespace
}  // namespace keel::test
