// The substep on its own: keel::detail::runSubstep on a snapshot of a body
// that is in no Bullet world, and the one-shot query
// keel::hydrostaticsAtPose, against the analytic box (docs/model.md §5).
#include "substep/substep.hpp"
#include "test_hulls.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>

namespace keel::test {
namespace {

constexpr btScalar kRho = 1025;
// Float sums over a few hundred terms: a few 1e-7 relative.
constexpr double kTol = sizeof(btScalar) == 4 ? 2e-6 : 1e-12;

/// A dynamic body of mass m at rest, centre of mass at `pose`, y-up gravity.
detail::BodySnapshot restingBody(const btTransform& pose, btScalar mass_kg) {
  detail::BodySnapshot b;
  b.centreOfMass = pose;
  b.linearVelocity_mps = b.angularVelocity_radps = btVector3(0, 0, 0);
  b.inverseMass_pkg = 1 / mass_kg;
  b.inverseInertia = btMatrix3x3::getIdentity() * (1 / mass_kg);
  b.gravity_mps2 = btVector3(0, -kG, 0);
  b.linearFactor = b.angularFactor = btVector3(1, 1, 1);
  return b;
}

TEST(Substep, RunsWithoutABulletWorld) {
  // Box L x D x B (x, y, z) at draft T: it displaces its own mass, so the
  // velocity change for the next substep is g dt up, divided by Bullet's
  // damping factor (1 - damping)^dt.
  const btScalar L = 4, D = 1, B = 2, T = btScalar(0.3), dt = btScalar(1.0 / 240);
  const auto hull = hullOf(box(btVector3(L, D, B), 4));
  const FlatSurface water;
  const HydrostaticSettings statics;
  const HydrodynamicSettings dynamics = HydrodynamicSettings::none();
  const detail::BoatModel boat{*hull, water, statics, dynamics};
  detail::BoatState state;
  state.allocate(*hull, statics);
  const btScalar mass = kRho * L * B * T;
  detail::BodySnapshot body = restingBody(btTransform(btQuaternion::getIdentity(), btVector3(0, D / 2 - T, 0)), mass);
  body.linearDamping = btScalar(0.6);
  ASSERT_TRUE(detail::runSubstep(boat, state, body, dt, 0));
  reportFigure("snapshot box force", state.total.force_N.y(), double(kRho * kG * L * B * T));
  EXPECT_NEAR(state.total.force_N.y(), kRho * kG * L * B * T, kTol * kRho * kG * L * B * T);
  EXPECT_NEAR(state.hydrostatics.centreOfBuoyancy_m.y(), -(D / 2 - T) - T / 2, kTol * D);
  EXPECT_LT(state.total.torque_Nm.length(), kTol * kRho * kG * L * B * T * L);
  const double compensated = double(kG) * double(dt) / std::pow(1 - 0.6, double(dt));
  EXPECT_NEAR(state.pendingLinear_mps.y(), compensated, 4 * kTol * compensated);
  EXPECT_TRUE(state.dampingCompensated);
  EXPECT_EQ(state.flags, StatusOk);
  EXPECT_EQ(state.status.substeps, 0u);  // an applied substep is counted by whoever applies it
}

TEST(Substep, RefusesAStaticBodyNoGravityAndANonFinitePose) {
  const auto hull = hullOf(box(btVector3(2, 1, 1)));
  const FlatSurface water;
  const HydrostaticSettings statics;
  const HydrodynamicSettings dynamics;
  const detail::BoatModel boat{*hull, water, statics, dynamics};
  detail::BoatState state;
  state.allocate(*hull, statics);
  detail::BodySnapshot body = restingBody(btTransform::getIdentity(), 500);
  body.staticOrKinematic = true;
  EXPECT_FALSE(detail::runSubstep(boat, state, body, btScalar(0.01), 0));
  EXPECT_EQ(state.status.flags, StatusStaticBody);
  body = restingBody(btTransform::getIdentity(), 500);
  body.gravity_mps2 = btVector3(0, 0, 0);
  EXPECT_FALSE(detail::runSubstep(boat, state, body, btScalar(0.01), 0));
  EXPECT_EQ(state.status.flags, StatusNoGravity);
  body = restingBody(btTransform::getIdentity(), 500);
  body.centreOfMass.setOrigin(btVector3(std::numeric_limits<btScalar>::quiet_NaN(), 0, 0));
  EXPECT_FALSE(detail::runSubstep(boat, state, body, btScalar(0.01), 0));
  EXPECT_EQ(state.status.flags, StatusNonFiniteBody);
  // An infinite entry of the basis, the origin finite: refused too.
  body = restingBody(btTransform::getIdentity(), 500);
  body.centreOfMass.getBasis()[1][2] = -std::numeric_limits<btScalar>::infinity();
  EXPECT_FALSE(detail::runSubstep(boat, state, body, btScalar(0.01), 0));
  EXPECT_EQ(state.status.flags, StatusNonFiniteBody);
  EXPECT_EQ(state.status.skippedSubsteps, 4u);
  EXPECT_EQ(state.pendingLinear_mps, btVector3(0, 0, 0));
}

TEST(HydrostaticsAtPose, UprightBoxDisplacementWaterplaneAndWaterline) {
  const btScalar L = 4, D = 1, B = 2;
  const auto hull = hullOf(box(btVector3(L, D, B), 3));
  for (const btScalar T : {btScalar(0.1), btScalar(0.5), btScalar(0.9)}) {
    const btVector3 centre(3, D / 2 - T, -2);
    const PoseHydrostatics h = hydrostaticsAtPose(*hull, btTransform(btQuaternion::getIdentity(), centre),
                                                  FlatSurface());
    const double volume = double(L * B * T);
    EXPECT_NEAR(h.pressure.submergedVolume_m3, volume, kTol * volume) << T;
    EXPECT_NEAR(h.displacement_kg, 1025 * volume, kTol * 1025 * volume) << T;
    EXPECT_NEAR(h.centreOfBuoyancy_m.y(), -T / 2, kTol * D) << T;
    EXPECT_NEAR(h.centreOfBuoyancy_m.x(), 3, kTol * L) << T;
    EXPECT_NEAR(h.waterplaneArea_m2, L * B, kTol * L * B) << T;
    EXPECT_NEAR(h.pressure.wettedArea_m2, L * B + 2 * (L + B) * T, kTol * L * B) << T;
    // The waterline: the box's rim at y = 0, 2 (L + B) long.
    double length = 0;
    for (const WaterlineSegment& s : h.waterline) {
      EXPECT_NEAR(centre.y() + s.a.y(), 0, kTol * D);
      length += double((s.b - s.a).length());
    }
    EXPECT_NEAR(length, 2 * double(L + B), kTol * double(L + B)) << T;
  }
}

TEST(HydrostaticsAtPose, HeeledBoxWaterplaneIsTheSectionOverCosine) {
  // Heeled by phi about its long axis with the waterline below the deck's
  // edge and above the bilge: the waterplane is L B / cos(phi).
  const btScalar L = 6, D = 2, B = 2;
  const auto hull = hullOf(box(btVector3(L, D, B), 2));
  for (const double phi : {0.1, 0.3, 0.5}) {
    const btTransform pose(btQuaternion(btVector3(1, 0, 0), btScalar(phi)), btVector3(0, 0.2f, 0));
    const PoseHydrostatics h = hydrostaticsAtPose(*hull, pose, FlatSurface());
    const double expected = double(L * B) / std::cos(phi);
    EXPECT_NEAR(h.waterplaneArea_m2, expected, kTol * expected) << phi;
  }
}

TEST(HydrostaticsAtPose, AgreesWithTheReferenceAtRandomPoses) {
  const auto hull = hullOf(boatHull(10, 3.5f, 2.5f, 20, 6));
  const auto sea = std::make_shared<SineSumSurface>(
      std::vector<WaveComponent>{deepWaterWave(0.3, 25, 0.0, 0.0), deepWaterWave(0.2, 12, 0.7, 1.0)});
  std::mt19937 random(3);
  std::uniform_real_distribution<float> unit(-1, 1);
  for (int trial = 0; trial < 10; ++trial) {
    const btVector3 axis = btVector3(unit(random), unit(random), unit(random)).normalized();
    const btTransform pose(btQuaternion(axis, 0.5f * unit(random)),
                           btVector3(5 * unit(random), 0.5f * unit(random), 0));
    PoseQuery q;
    q.gravity_mps2 = btVector3(0, -kG, 0);
    q.time_s = 1.5;
    const PoseHydrostatics fast = hydrostaticsAtPose(*hull, pose, *sea, q);
    const HydrostaticResult slow = hydrostaticsAt(*hull, pose, *sea, 1025, btScalar(1.5));
    const double scale = double(slow.force_N.length()) + 1;
    for (int k = 0; k < 3; ++k) {
      EXPECT_NEAR(fast.pressure.force_N[k], slow.force_N[k], 1e-5 * scale) << trial;
      EXPECT_NEAR(fast.pressure.torque_Nm[k], slow.torque_Nm[k], 1e-5 * scale * 10) << trial;
    }
    EXPECT_NEAR(fast.pressure.submergedVolume_m3, slow.submergedVolume_m3, 1e-5 * (slow.submergedVolume_m3 + 1));
  }
}

TEST(HydrostaticsAtPose, BadQueriesThrowWithAReason) {
  const auto hull = hullOf(box(btVector3(2, 1, 1)));
  PoseQuery q;
  q.gravity_mps2 = btVector3(0, 0, 0);
  EXPECT_THROW((void)hydrostaticsAtPose(*hull, btTransform::getIdentity(), FlatSurface(), q), std::invalid_argument);
  q = PoseQuery{};
  q.waterDensity_kgpm3 = -1;
  EXPECT_THROW((void)hydrostaticsAtPose(*hull, btTransform::getIdentity(), FlatSurface(), q), std::invalid_argument);
  const FunctionSurface nan([](btScalar, btScalar, double) { return std::numeric_limits<btScalar>::quiet_NaN(); });
  try {
    (void)hydrostaticsAtPose(*hull, btTransform::getIdentity(), nan);
    ADD_FAILURE() << "no throw";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("no finite water height"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace keel::test
