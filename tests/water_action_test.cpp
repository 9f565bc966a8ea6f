// keel::WaterAction in a Bullet world:
// equilibrium with body damping, heave period, substep invariance, bad input.
#include "test_hulls.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <stdexcept>

namespace keel::test {
namespace {

constexpr double kRho = 1025;
constexpr double kPi = 3.14159265358979323846;

/// A floating box: L (x) by D (y) by B (z), mass for draft T.
struct FloatingBox {
  static constexpr btScalar L = 2, D = 1, B = 1.5, T = 0.4;
  FloatingBox(World& w, btScalar releaseAboveEquilibrium_m, const btQuaternion& q = btQuaternion::getIdentity())
      : hull(hullOf(box(btVector3(L, D, B)))) {
    body = w.addBox(btVector3(L, D, B), mass(),
                    btTransform(q, btVector3(0, equilibriumY() + releaseAboveEquilibrium_m, 0)));
  }
  static btScalar mass() { return btScalar(kRho) * L * B * T; }
  static btScalar equilibriumY() { return D / 2 - T; }  // centre height when the keel is at -T
  std::shared_ptr<const Hull> hull;
  btRigidBody* body;
};

btScalar flat(btScalar, btScalar, double) { return 0; }

TEST(WaterAction, SettlesAtTheDraftWithBodyDamping) {
  World w;
  FloatingBox fb(w, 0.15f);
  fb.body->setDamping(0.6f, 0.6f);
  WaterAction boat(fb.body, fb.hull, flat);
  w.world.addAction(&boat);
  for (int i = 0; i < 240 * 40; ++i) w.world.stepSimulation(btScalar(1.0 / 240), 1, btScalar(1.0 / 240));
  const double draft = FloatingBox::D / 2 - fb.body->getCenterOfMassPosition().y();
  const double expected = FloatingBox::mass() / (kRho * FloatingBox::L * FloatingBox::B);
  reportFigure("draft with damping (0.6, 0.6) [m]", draft, expected);
  EXPECT_NEAR(draft, expected, 1e-4 * expected);
  EXPECT_TRUE(boat.status().ok()) << boat.status().describe();
  EXPECT_NEAR(boat.hydrostatics().submergedVolume_m3, FloatingBox::mass() / kRho, 1e-4 * FloatingBox::mass() / kRho);
  w.world.removeAction(&boat);
}

TEST(WaterAction, SettlesAtTheDraftWithSeveralSubstepsPerCall) {
  // Damping and substeps together: 60 Hz frames of 4 substeps at 240 Hz.
  World w;
  FloatingBox fb(w, -0.1f);
  fb.body->setDamping(0.6f, 0.6f);
  WaterAction boat(fb.body, fb.hull, flat);
  w.world.addAction(&boat);
  for (int i = 0; i < 60 * 40; ++i) w.world.stepSimulation(btScalar(1.0 / 60), 4, btScalar(1.0 / 240));
  const double draft = FloatingBox::D / 2 - fb.body->getCenterOfMassPosition().y();
  EXPECT_NEAR(draft, FloatingBox::T, 1e-4 * FloatingBox::T);
  w.world.removeAction(&boat);
}

TEST(WaterAction, HeavePeriodWithoutDamping) {
  World w;
  FloatingBox fb(w, 0.01f);
  WaterAction boat(fb.body, fb.hull, flat);
  boat.setHydrodynamics(HydrodynamicSettings::none());
  w.world.addAction(&boat);
  const double dt = 1.0 / 240;
  // Upward crossings of the heave about equilibrium.
  CrossingPeriod crossings{FloatingBox::equilibriumY(), dt};
  crossings.add(fb.body->getCenterOfMassPosition().y());
  for (int i = 1; i <= 240 * 15; ++i) {
    w.world.stepSimulation(btScalar(dt), 1, btScalar(dt));
    crossings.add(fb.body->getCenterOfMassPosition().y());
  }
  ASSERT_GE(crossings.count, 8);
  const double period = crossings.period_s();
  const double expected = 2 * kPi * std::sqrt(FloatingBox::T / kG);
  reportFigure("heave period [s]", period, expected);
  EXPECT_NEAR(period, expected, 0.005 * expected);
  w.world.removeAction(&boat);
}

struct Snapshot {
  btTransform transform;
  btVector3 linear, angular;
};

Snapshot tumbleBox(const std::vector<std::pair<int, int>>& calls) {  // (calls, substeps per call)
  World w;
  FloatingBox fb(w, 0.3f, btQuaternion(btVector3(1, 2, 0.5f).normalized(), 0.6f));
  fb.body->setLinearVelocity(btVector3(0.5f, -1, 0.2f));
  fb.body->setAngularVelocity(btVector3(2, -1, 3));
  fb.body->setDamping(0.3f, 0.4f);
  WaterAction boat(fb.body, fb.hull, [](btScalar x, btScalar z, double t) {
    return btScalar(0.2 * std::sin(0.7 * x + 1.3 * t) + 0.1 * std::cos(0.5 * z));
  });
  w.world.addAction(&boat);
  const btScalar dt = btScalar(1.0 / 256);
  for (const auto& [count, substeps] : calls)
    for (int i = 0; i < count; ++i) w.world.stepSimulation(dt * btScalar(substeps), substeps, dt);
  w.world.removeAction(&boat);
  return {fb.body->getCenterOfMassTransform(), fb.body->getLinearVelocity(), fb.body->getAngularVelocity()};
}

bool bitwiseEqual(const Snapshot& a, const Snapshot& b) {
  return std::memcmp(&a.transform, &b.transform, sizeof(btTransform)) == 0 &&
         std::memcmp(&a.linear, &b.linear, sizeof(btVector3)) == 0 &&
         std::memcmp(&a.angular, &b.angular, sizeof(btVector3)) == 0;
}

TEST(WaterAction, TermsTurnedOffLeaveNoHydrodynamicForce) {
  // A substep clears the terms' forces only when the last one wrote them:
  // turned off, they must read zero from the next substep on, not the last.
  World w;
  FloatingBox fb(w, 0.05f);
  fb.body->setLinearVelocity(btVector3(3, 0, 0));
  WaterAction boat(fb.body, fb.hull, flat);
  w.world.addAction(&boat);
  for (int i = 0; i < 24; ++i) w.world.stepSimulation(btScalar(1.0 / 240), 1, btScalar(1.0 / 240));
  const double drag_N = boat.hydrodynamics().total().force_N.length();
  EXPECT_GT(drag_N, 1.0);  // skin friction and pressure drag on a wet box moving at 3 m/s
  boat.setHydrodynamics(HydrodynamicSettings::none());
  w.world.stepSimulation(btScalar(1.0 / 240), 1, btScalar(1.0 / 240));
  const HydrodynamicForces& h = boat.hydrodynamics();
  for (const ForceTorque* term : {&h.viscous, &h.pressureDrag, &h.slamming, &h.air, &h.damping, &h.hullLift}) {
    EXPECT_EQ(term->force_N, btVector3(0, 0, 0));
    EXPECT_EQ(term->torque_Nm, btVector3(0, 0, 0));
  }
  EXPECT_EQ(boat.totalForce().force_N, boat.hydrostatics().force_N);  // no compartments: no floodwater
  w.world.removeAction(&boat);
}

TEST(WaterAction, SubstepInvarianceIsBitwise) {
  const Snapshot one = tumbleBox({{512, 1}});
  const Snapshot four = tumbleBox({{128, 4}});
  const Snapshot ten = tumbleBox({{51, 10}, {2, 1}});
  // The box really tumbled and moved (the test is not of a body at rest).
  EXPECT_GT(one.transform.getOrigin().distance(btVector3(0, FloatingBox::equilibriumY(), 0)), 0.05f);
  EXPECT_TRUE(bitwiseEqual(one, four));
  EXPECT_TRUE(bitwiseEqual(one, ten));
  // A different schedule of the same total time (7 substeps, then 1) too.
  EXPECT_TRUE(bitwiseEqual(one, tumbleBox({{73, 7}, {1, 1}})));
}

TEST(WaterAction, ZUpWorldFloatsAtTheSameDraft) {
  World w(btVector3(0, 0, -9.81f));
  // The box's height (D) is now along z.
  const auto hull = hullOf(box(btVector3(FloatingBox::L, FloatingBox::B, FloatingBox::D)));
  btRigidBody* body = w.addBox(btVector3(FloatingBox::L, FloatingBox::B, FloatingBox::D), FloatingBox::mass(),
                               btTransform(btQuaternion::getIdentity(), btVector3(3, -2, 0.5f)));
  body->setDamping(0.6f, 0.6f);
  WaterAction boat(body, hull, flat);
  w.world.addAction(&boat);
  for (int i = 0; i < 240 * 40; ++i) w.world.stepSimulation(btScalar(1.0 / 240), 1, btScalar(1.0 / 240));
  EXPECT_NEAR(FloatingBox::D / 2 - body->getCenterOfMassPosition().z(), FloatingBox::T, 1e-4 * FloatingBox::T);
  EXPECT_NEAR(body->getCenterOfMassPosition().y(), -2, 1e-4);
  w.world.removeAction(&boat);
}

// --- bad input (point 5): never a NaN into Bullet, a readable status ------------

bool finiteBody(const btRigidBody& b) {
  const btTransform& t = b.getCenterOfMassTransform();
  for (int i = 0; i < 3; ++i)
    if (!std::isfinite(t.getOrigin()[i]) || !std::isfinite(b.getLinearVelocity()[i]) ||
        !std::isfinite(b.getAngularVelocity()[i]))
      return false;
  return true;
}

TEST(WaterActionBadInput, NonFiniteHeightsAreReplacedAndReported) {
  World w;
  FloatingBox fb(w, 0);
  WaterAction boat(fb.body, fb.hull, [](btScalar x, btScalar, btScalar) {
    return x > 0.5f ? std::numeric_limits<btScalar>::quiet_NaN() : btScalar(0);
  });
  w.world.addAction(&boat);
  for (int i = 0; i < 240; ++i) w.world.stepSimulation(btScalar(1.0 / 240), 1, btScalar(1.0 / 240));
  EXPECT_TRUE(finiteBody(*fb.body));
  EXPECT_TRUE(boat.status().flags & StatusNonFiniteHeight);
  EXPECT_GT(boat.status().nonFiniteHeights, 0u);
  EXPECT_EQ(boat.status().skippedSubsteps, 0u);
  EXPECT_NE(boat.status().describe().find("non-finite water height"), std::string::npos);
  // The replaced heights are the mean of the finite ones (0): it still floats.
  EXPECT_NEAR(FloatingBox::D / 2 - fb.body->getCenterOfMassPosition().y(), FloatingBox::T, 0.05);
  w.world.removeAction(&boat);
}

TEST(WaterActionBadInput, AllHeightsNonFiniteOrThrowingSkipsTheForce) {
  for (int mode = 0; mode < 2; ++mode) {
    World w;
    FloatingBox fb(w, 0);
    WaterAction boat(fb.body, fb.hull, [mode](btScalar, btScalar, double) -> btScalar {
      if (mode == 1) throw std::runtime_error("wave server down");
      return std::numeric_limits<btScalar>::infinity();
    });
    w.world.addAction(&boat);
    for (int i = 0; i < 24; ++i) w.world.stepSimulation(btScalar(1.0 / 240), 1, btScalar(1.0 / 240));
    EXPECT_TRUE(finiteBody(*fb.body));
    EXPECT_EQ(boat.status().skippedSubsteps, 24u);
    EXPECT_TRUE(boat.status().flags & (mode == 1 ? StatusSurfaceThrew : StatusNoFiniteHeight));
    EXPECT_FALSE(boat.status().ok());
    // Only gravity acted: free fall.
    EXPECT_LT(fb.body->getLinearVelocity().y(), -0.9f);
    w.world.removeAction(&boat);
  }
}

TEST(WaterActionBadInput, AForceBeyondTheScalarsRangeIsRefused) {
  // Water of the largest density the settings accept: the pressure force
  // overflows (pressure alone: no term, no added mass). Nothing is applied
  // and the status says why; the body falls under gravity alone.
  World w;
  FloatingBox fb(w, 0);
  HydrostaticSettings dense;
  dense.waterDensity_kgpm3 = std::numeric_limits<btScalar>::max();
  WaterAction boat(fb.body, fb.hull, std::make_shared<FlatSurface>(), dense);
  boat.setHydrodynamics(HydrodynamicSettings::none());
  w.world.addAction(&boat);
  w.world.stepSimulation(btScalar(1.0 / 240), 1, btScalar(1.0 / 240));
  EXPECT_TRUE(boat.status().flags & StatusNonFiniteForce) << boat.status().describe();
  EXPECT_TRUE(finiteBody(*fb.body));
  EXPECT_EQ(boat.pendingLinearVelocity_mps(), btVector3(0, 0, 0));
  EXPECT_EQ(boat.hydrostatics().force_N, btVector3(0, 0, 0));
  EXPECT_NEAR(fb.body->getLinearVelocity().y(), -kG / 240, 1e-6);
  w.world.removeAction(&boat);
}

TEST(WaterActionBadInput, DryAndSubmergedHullsAreReportedNotErrors) {
  World w;
  FloatingBox fb(w, 10);
  WaterAction boat(fb.body, fb.hull, flat);
  w.world.addAction(&boat);
  w.world.stepSimulation(btScalar(1.0 / 240), 1, btScalar(1.0 / 240));
  EXPECT_TRUE(boat.status().flags & StatusDry);
  EXPECT_TRUE(boat.status().ok());
  fb.body->setCenterOfMassTransform(btTransform(btQuaternion::getIdentity(), btVector3(0, -10, 0)));
  w.world.stepSimulation(btScalar(1.0 / 240), 1, btScalar(1.0 / 240));
  EXPECT_TRUE(boat.status().flags & StatusSubmerged);
  EXPECT_NEAR(boat.hydrostatics().force_N.y(), kRho * kG * fb.hull->volume_m3(),
              1e-5 * kRho * kG * fb.hull->volume_m3());
  w.world.removeAction(&boat);
}

TEST(WaterActionBadInput, FarFromTheOriginStillFloats) {
  World w;
  const auto hull = hullOf(box(btVector3(FloatingBox::L, FloatingBox::D, FloatingBox::B)));
  btRigidBody* body = w.addBox(btVector3(FloatingBox::L, FloatingBox::D, FloatingBox::B), FloatingBox::mass(),
                               btTransform(btQuaternion::getIdentity(), btVector3(1e5f, 0.2f, -1e5f)));
  body->setDamping(0.6f, 0.6f);
  for (Sampling sampling : {Sampling::Direct, Sampling::Patch}) {
    HydrostaticSettings settings;
    settings.sampling = sampling;
    WaterAction boat(body, hull, flat, settings);
    w.world.addAction(&boat);
    for (int i = 0; i < 240 * 30; ++i) w.world.stepSimulation(btScalar(1.0 / 240), 1, btScalar(1.0 / 240));
    EXPECT_TRUE(finiteBody(*body));
    EXPECT_TRUE(boat.status().ok()) << boat.status().describe();
    // Float spacing at 1e5 m is 8 mm horizontally; the draft is unaffected.
    EXPECT_NEAR(FloatingBox::D / 2 - body->getCenterOfMassPosition().y(), FloatingBox::T, 1e-3);
    EXPECT_NEAR(body->getCenterOfMassPosition().x(), 1e5f, 0.1f);
    w.world.removeAction(&boat);
  }
}

TEST(WaterActionBadInput, StaticAndZeroMassBodies) {
  World w;
  const auto hull = hullOf(box(btVector3(1, 1, 1)));
  btRigidBody* fixed = w.addBox(btVector3(1, 1, 1), 0, btTransform(btQuaternion::getIdentity(), btVector3(0, 0, 0)));
  WaterAction boat(fixed, hull, flat);
  w.world.addAction(&boat);
  w.world.stepSimulation(btScalar(1.0 / 60), 1, btScalar(1.0 / 60));
  EXPECT_TRUE(boat.status().flags & StatusStaticBody);
  EXPECT_EQ(fixed->getLinearVelocity(), btVector3(0, 0, 0));
  EXPECT_EQ(fixed->getCenterOfMassPosition(), btVector3(0, 0, 0));
  w.world.removeAction(&boat);
}

TEST(WaterActionBadInput, BadTimeStepsAreSkipped) {
  World w;
  FloatingBox fb(w, -0.2f);
  WaterAction boat(fb.body, fb.hull, flat);
  const btVector3 v0 = fb.body->getLinearVelocity();
  for (btScalar dt : {btScalar(0), btScalar(-1), std::numeric_limits<btScalar>::quiet_NaN(),
                      std::numeric_limits<btScalar>::infinity()}) {
    boat.updateAction(&w.world, dt);
    EXPECT_TRUE(boat.status().flags & StatusBadTimeStep);
    EXPECT_EQ(fb.body->getLinearVelocity(), v0);
  }
  EXPECT_EQ(boat.status().skippedSubsteps, 4u);
  EXPECT_EQ(boat.time_s(), 0.0);
}

TEST(WaterActionBadInput, NoGravity) {
  World w(btVector3(0, 0, 0));
  FloatingBox fb(w, -0.2f);
  WaterAction boat(fb.body, fb.hull, flat);
  boat.updateAction(&w.world, btScalar(1.0 / 60));
  EXPECT_TRUE(boat.status().flags & StatusNoGravity);
  EXPECT_EQ(fb.body->getLinearVelocity(), btVector3(0, 0, 0));
}

TEST(WaterActionBadInput, NonFiniteBodyIsNotTouched) {
  World w;
  FloatingBox fb(w, 0);
  WaterAction boat(fb.body, fb.hull, flat);
  fb.body->setCenterOfMassTransform(
      btTransform(btQuaternion::getIdentity(), btVector3(std::numeric_limits<btScalar>::quiet_NaN(), 0, 0)));
  boat.updateAction(&w.world, btScalar(1.0 / 60));
  EXPECT_TRUE(boat.status().flags & StatusNonFiniteBody);
  EXPECT_EQ(fb.body->getLinearVelocity(), btVector3(0, 0, 0));
}

TEST(WaterActionBadInput, ABodyOutsideTheWorldIsNotTouched) {
  World w;
  FloatingBox fb(w, -0.2f);  // 0.2 m deep: the water pushes it up
  WaterAction boat(fb.body, fb.hull, flat);
  w.world.removeRigidBody(fb.body);
  for (int i = 0; i < 4; ++i) boat.updateAction(&w.world, btScalar(1.0 / 60));
  EXPECT_TRUE(boat.status().flags & StatusNotInWorld);
  EXPECT_EQ(boat.status().skippedSubsteps, 4u);
  EXPECT_EQ(fb.body->getLinearVelocity(), btVector3(0, 0, 0));
  EXPECT_EQ(boat.time_s(), 4.0 * double(btScalar(1.0 / 60)));  // the clock still runs
  w.world.addRigidBody(fb.body);                               // back: floated again
  boat.updateAction(&w.world, btScalar(1.0 / 60));
  EXPECT_TRUE(boat.status().ok()) << boat.status().describe();
  EXPECT_GT(fb.body->getLinearVelocity().y(), 0);
}

TEST(WaterActionBadInput, ConstructorAndSettingsValidate) {
  World w;
  FloatingBox fb(w, 0);
  EXPECT_THROW(WaterAction(nullptr, fb.hull, flat), std::invalid_argument);
  EXPECT_THROW(WaterAction(fb.body, nullptr, flat), std::invalid_argument);
  EXPECT_THROW(WaterAction(fb.body, fb.hull, HeightFunction{}), std::invalid_argument);
  EXPECT_THROW(WaterAction(fb.body, fb.hull, std::shared_ptr<const WaterSurface>{}), std::invalid_argument);
  HydrostaticSettings bad;
  bad.waterDensity_kgpm3 = -1;
  EXPECT_THROW(WaterAction(fb.body, fb.hull, flat, bad), std::invalid_argument);
  WaterAction boat(fb.body, fb.hull, flat);
  bad = HydrostaticSettings{};
  bad.patchCellSize_m = 0;
  bad.sampling = Sampling::Patch;
  EXPECT_THROW(boat.setSettings(bad), std::invalid_argument);
  EXPECT_EQ(boat.settings().sampling, Sampling::Auto);  // unchanged: the default
}

// --- sleeping --------------------------------------------------------------------

TEST(WaterAction, BoatsOnMovingWaterNeverSleep) {
  World w;
  FloatingBox fb(w, 0);
  HydrostaticSettings settings;
  settings.allowSleepInStillWater = true;
  WaterAction boat(
      fb.body, fb.hull,
      [](btScalar x, btScalar, double t) {
        return btScalar(0.02 * std::sin(0.1 * x + 0.2 * t));  // a slow, low swell
      },
      settings);
  w.world.addAction(&boat);
  for (int i = 0; i < 60 * 10; ++i) {
    w.world.stepSimulation(btScalar(1.0 / 60), 1, btScalar(1.0 / 60));
    ASSERT_TRUE(fb.body->isActive()) << "asleep after " << i << " steps";
  }
  w.world.removeAction(&boat);
}

TEST(WaterAction, StillWaterSleepIsOptIn) {
  for (bool allow : {false, true}) {
    World w;
    FloatingBox fb(w, 0);
    fb.body->setDamping(0.6f, 0.6f);
    HydrostaticSettings settings;
    settings.allowSleepInStillWater = allow;
    WaterAction boat(fb.body, fb.hull, flat, settings);
    w.world.addAction(&boat);
    for (int i = 0; i < 60 * 10; ++i) w.world.stepSimulation(btScalar(1.0 / 60), 1, btScalar(1.0 / 60));
    EXPECT_EQ(fb.body->isActive(), !allow);
    w.world.removeAction(&boat);
  }
}

// --- debug draw --------------------------------------------------------------------

class CountingDrawer final : public btIDebugDraw {
 public:
  void drawLine(const btVector3&, const btVector3&, const btVector3&) override { ++lines; }
  void drawContactPoint(const btVector3&, const btVector3&, btScalar, int, const btVector3&) override {}
  void reportErrorWarning(const char*) override {}
  void draw3dText(const btVector3&, const char*) override {}
  void setDebugMode(int mode) override { mode_ = mode; }
  int getDebugMode() const override { return mode_; }
  int lines = 0;
  int mode_ = DBG_DrawWireframe;
};

TEST(WaterAction, DebugDrawShowsPiecesWaterlineAndForce) {
  World w;
  FloatingBox fb(w, 0);
  WaterAction boat(fb.body, fb.hull, flat);
  w.world.addAction(&boat);
  CountingDrawer drawer;
  w.world.setDebugDrawer(&drawer);
  w.world.stepSimulation(btScalar(1.0 / 60), 1, btScalar(1.0 / 60));
  const int before = drawer.lines;
  w.world.debugDrawWorld();
  const int expected = int(3 * boat.submergedPieces().size() + boat.waterline().size() + 1);
  EXPECT_GE(drawer.lines - before, expected);  // the box's own wireframe comes on top
  EXPECT_GT(boat.waterline().size(), 0u);
  w.world.setDebugDrawer(nullptr);
  w.world.removeAction(&boat);
}

}  // namespace
}  // namespace keel::test
