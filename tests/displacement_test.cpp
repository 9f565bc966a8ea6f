// The mass for a draft, heel and trim, and the draft for a mass
// (keel/mass_properties.hpp), against a box's closed forms and against
// Kerner's hydrostatics (keel::hydrostaticsAtPose).
#include "mass_test_support.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>
#include <string>

namespace keel::test {
namespace {

constexpr double kRho = 1025;
constexpr double kDeg = 3.14159265358979323846 / 180;
// A box L x D x B (x forward, y up, z starboard).
constexpr double L = 4, D = 1, B = 2;

TEST(Displacement, UprightBoxDisplacesLBT) {
  const auto hull = hullOf(box(btVector3(L, D, B), 2, btVector3(0.5f, 0.25f, 0)));
  for (double T : {0.0, 0.1, 0.25, 0.5, 1.0}) {
    EXPECT_NEAR(massForDraft_kg(*hull, T, kRho), kRho * L * B * T, kRel * kRho * L * B * D) << "T = " << T;
    if (T > 0) {
      EXPECT_NEAR(draftForMass_m(*hull, kRho * L * B * T, kRho), T, kRel) << "T = " << T;
    }
  }
  // Deeper than the hull: all of it.
  EXPECT_NEAR(massForDraft_kg(*hull, 3, kRho), kRho * L * B * D, kRel * kRho * L * B * D);
}

TEST(Displacement, HeeledAndTrimmedBoxDisplacesItsWallSidedSection) {
  const auto hull = hullOf(box(btVector3(L, D, B), 1));
  // Heel phi with the lowest corner at depth T: the section under water is
  // B (T - B sin(phi) / 2) / cos(phi) while both sides are wet and the deck dry.
  const double T = 0.6;
  for (double heel : {-10.0, 5.0, 10.0}) {
    const double phi = std::abs(heel) * kDeg;
    const double expected = kRho * L * B * (T - B * std::sin(phi) / 2) / std::cos(phi);
    EXPECT_NEAR(massForDraft_kg(*hull, T, kRho, {}, heel * kDeg), expected, kRel * expected) << heel;
    EXPECT_NEAR(draftForMass_m(*hull, expected, kRho, {}, heel * kDeg), T, kRel) << heel;
  }
  // Trim theta the same along the length.
  const double theta = 2 * kDeg;
  const double trimmed = kRho * B * L * (T - L * std::sin(theta) / 2) / std::cos(theta);
  EXPECT_NEAR(massForDraft_kg(*hull, T, kRho, {}, 0, theta), trimmed, kRel * trimmed);
  // Axes given another way round: z up, y forward.
  const HullAxes sideways{btVector3(0, 0, 1), btVector3(0, 1, 0)};
  EXPECT_NEAR(massForDraft_kg(*hull, T, kRho, sideways, 0, theta),
              kRho * B * L * (T - B * std::sin(theta) / 2) / std::cos(theta), kRel * trimmed);
}

TEST(Displacement, BoatHullAgreesWithKernersHydrostatics) {
  const auto hull = hullOf(boatHull(8, 2.5f, 1.2f));
  const double T = 0.45;
  const btScalar lowest = hull->boundsMin().y();
  const btTransform pose(btQuaternion::getIdentity(), btVector3(0, btScalar(-T) - lowest, 0));
  PoseQuery query;
  query.waterDensity_kgpm3 = btScalar(kRho);
  const PoseHydrostatics h = hydrostaticsAtPose(*hull, pose, FlatSurface(0.0), query);
  // The triangle model is exact in flat water too; float's sums limit it.
  EXPECT_NEAR(massForDraft_kg(*hull, T, kRho), h.displacement_kg, (kDouble ? 1e-9 : 1e-5) * h.displacement_kg);
}

TEST(Displacement, BadInputIsRefused) {
  const auto hull = hullOf(box(btVector3(L, D, B), 1));
  EXPECT_THROW((void)massForDraft_kg(*hull, -0.1, kRho), std::invalid_argument);
  EXPECT_THROW((void)massForDraft_kg(*hull, 0.1, 0), std::invalid_argument);
  EXPECT_THROW((void)massForDraft_kg(*hull, 0.1, kRho, {}, std::nan("")), std::invalid_argument);
  EXPECT_THROW((void)massForDraft_kg(*hull, 0.1, kRho, {btVector3(1, 0, 0), btVector3(1, 0, 0)}),
               std::invalid_argument);
  EXPECT_THROW((void)draftForMass_m(*hull, 0, kRho), std::invalid_argument);
  try {
    (void)draftForMass_m(*hull, 2 * kRho * L * B * D, kRho);
    ADD_FAILURE() << "a mass heavier than the hull wholly under did not throw";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("it sinks"), std::string::npos) << e.what();
  }
}

// The ballast for a design waterline against the box's closed forms: the
// displacement rho L B T less the structure; along x and z, the moments
// that put the whole's centre of mass over the centre of buoyancy (x 0.5,
// z 0: the box's centre line, off the origin along x).
TEST(Displacement, BallastForAWaterlineMakesUpTheDisplacementOverTheCentreOfBuoyancy) {
  const auto hull = hullOf(box(btVector3(L, D, B), 2, btVector3(0.5f, 0.25f, 0)));
  MassModel structure;
  structure.pointMass(500, btVector3(-1, 0, 0.5f)).pointMass(200, btVector3(1.5f, 0.5f, -0.25f));
  const double T = 0.3, height = -0.2;
  const Ballast b = ballastForWaterline(*hull, structure, T, height, kRho);
  const double displacement = kRho * L * B * T, ballast = displacement - 700;
  EXPECT_NEAR(b.mass_kg, ballast, kRel * displacement);
  EXPECT_NEAR(b.position_m.x(), (displacement * 0.5 - (500 * -1.0 + 200 * 1.5)) / ballast, kRel);
  EXPECT_NEAR(b.position_m.y(), height, kRel);
  EXPECT_NEAR(b.position_m.z(), -(500 * 0.5 + 200 * -0.25) / ballast, kRel);
  // With it the whole weighs the displacement, centred over the centre of buoyancy.
  structure.pointMass(b.mass_kg, b.position_m);
  const MassProperties m = structure.properties();
  EXPECT_NEAR(m.centreOfMass_m.x(), 0.5, kRel);
  EXPECT_NEAR(m.centreOfMass_m.z(), 0, kRel);
}

TEST(Displacement, BallastForAWaterlineRefusesWhatCannotFloatLevel) {
  const auto hull = hullOf(box(btVector3(L, D, B), 2, btVector3(0, 0.25f, 0)));
  MassModel steel;
  steel.shell(*hull, 0.008, 7850);  // 1.76 t: a 0.2 m draft displaces 1.64 t
  try {
    (void)ballastForWaterline(*hull, steel, 0.2, -0.2, kRho);
    ADD_FAILURE() << "no throw";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("the structure weighs"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("nothing is left for ballast"), std::string::npos) << e.what();
  }
  // An engine so far forward that no ballast inside the hull balances it.
  MassModel bowHeavy;
  bowHeavy.pointMass(3000, btVector3(2, 0, 0));
  EXPECT_THROW((void)ballastForWaterline(*hull, bowHeavy, 0.5, -0.2, kRho), std::invalid_argument);
  // A height above the hull.
  MassModel light;
  light.pointMass(100, btVector3(0, 0, 0));
  EXPECT_THROW((void)ballastForWaterline(*hull, light, 0.5, 2, kRho), std::invalid_argument);
  EXPECT_THROW((void)ballastForWaterline(*hull, light, -0.1, -0.2, kRho), std::invalid_argument);
  EXPECT_THROW((void)ballastForWaterline(*hull, light, 0.5, std::nan(""), kRho), std::invalid_argument);
}

}  // namespace
}  // namespace keel::test
