// Input in the wrong units, flagged or refused where no boat can mean it:
// water heights in millimetres (StatusImplausibleDepth) and a shell thickness
// in millimetres (MassModel::shell).
#include "test_hulls.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <stdexcept>
#include <string>

namespace keel::test {
namespace {

constexpr double kRho = 1025;

/// The status and the pressure force of a 4 x 1 x 2 m box whose centre is
/// at `y_m` on flat water at `water_m`, after one substep.
struct BoxAt {
  BoxAt(btScalar y_m, double water_m)
      : body(world.addBox(btVector3(4, 1, 2), 2000, btTransform(btQuaternion::getIdentity(), btVector3(0, y_m, 0)))),
        boat(body, hullOf(box(btVector3(4, 1, 2))), std::make_shared<FlatSurface>(water_m)) {
    boat.prime(btScalar(1.0 / 240));
  }
  World world;
  btRigidBody* body;
  WaterAction boat;
};

bool says(const std::string& text, const char* words) { return text.find(words) != std::string::npos; }

TEST(WrongUnits, WaterHeightsInMillimetresAreFlagged) {
  // The water 1 m up, given in millimetres: a box afloat at 1 m is 1000 m
  // under it, deeper than any boat goes.
  const BoxAt box(1, 1000);
  const WaterStatus& status = box.boat.status();
  std::printf("[  figure  ] water at 1000 over a box at 1 m: %s\n", status.describe().c_str());
  EXPECT_TRUE(status.flags & StatusImplausibleDepth);
  EXPECT_FALSE(status.ok());
  EXPECT_TRUE(says(status.describe(), "millimetres")) << status.describe();
  // The force is still a closed hull's under water, rho g V.
  const double archimedes = kRho * double(kG) * 8;
  EXPECT_NEAR(box.boat.hydrostatics().force_N.y(), archimedes, 1e-5 * archimedes);
}

TEST(WrongUnits, ASubmarineAndABoatOnLandAreNotFlagged) {
  // Within kPlausibleHead_m beyond the hull's reach (radius sqrt(21) / 2 =
  // 2.29 m) of the water: a hull under the sea; one metre further: flagged.
  const auto radius = btScalar(std::sqrt(21.0) / 2);
  for (const btScalar depth : {btScalar(50), radius + btScalar(kPlausibleHead_m) - 1}) {
    const BoxAt submarine(-depth, 0);
    EXPECT_TRUE(submarine.boat.status().ok()) << depth << ": " << submarine.boat.status().describe();
    EXPECT_TRUE(submarine.boat.status().flags & StatusSubmerged) << depth;
  }
  const BoxAt deeper(-(radius + btScalar(kPlausibleHead_m) + 1), 0);
  EXPECT_TRUE(deeper.boat.status().flags & StatusImplausibleDepth);
  // High above the water (on land, or lifted by a crane): dry, nothing wrong.
  const BoxAt onLand(1000, 0);
  EXPECT_TRUE(onLand.boat.status().ok()) << onLand.boat.status().describe();
  EXPECT_TRUE(onLand.boat.status().flags & StatusDry);
}

TEST(WrongUnits, AShellThicknessInMillimetresIsRefused) {
  // A 4 x 1 x 2 m box: V = 8 m^3, A = 28 m^2. 8 mm of steel weigh
  // 7850 * 28 * 0.008 = 1758.4 kg; 8 "m" would weigh 1758 t, more than the
  // box filled solid with steel (62.8 t): no shell is thicker than V / A.
  const auto hull = hullOf(box(btVector3(4, 1, 2), 2));
  const double steel = 7850, bound_m = 8.0 / 28;
  EXPECT_NEAR(MassModel().shell(*hull, 0.008, steel).properties().mass_kg, 1758.4, 1e-6 * 1758.4);
  EXPECT_NO_THROW(MassModel().shell(*hull, bound_m * (1 - 1e-6), steel));
  EXPECT_THROW(MassModel().shell(*hull, bound_m * (1 + 1e-6), steel), std::invalid_argument);
  try {
    MassModel().shell(*hull, 8, steel);
    ADD_FAILURE() << "a shell 8 m thick on a box 1 m deep was taken";
  } catch (const std::invalid_argument& e) {
    std::printf("[  figure  ] %s\n", e.what());
    for (const char* words : {"shell: the thickness [m] 8 ", "28 m^2", "(8 m^3)", "thicker than 0.285714 m",
                              "millimetres? 8 mm is 0.008 m"})
      EXPECT_TRUE(says(e.what(), words)) << words << " in: " << e.what();
  }
}

}  // namespace
}  // namespace keel::test
