// The debug force arrows' default scale (docs/integration.md, "Debug
// drawing"): a boat's weight is one hull radius long, so the buoyancy arrow
// of a boat afloat at rest is its hull's radius long, a 4 m box's as a 15 m
// tug's; debugForceScale_Npm, when set, wins.
#include "debug_drawer.hpp"
#include "hull_from_file.hpp"
#include "test_hulls.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

namespace keel::test {
namespace {

constexpr btScalar kDt = btScalar(1.0 / 240);

/// The lengths [m] of the buoyancy arrows (red, from the centre of
/// buoyancy) `boat` draws.
std::vector<btScalar> buoyancyArrows_m(WaterAction& boat) {
  game::LineList drawer;
  drawer.setDebugMode(btIDebugDraw::DBG_DrawWireframe);
  boat.debugDraw(&drawer);
  const btVector3 red(1, 0.2f, 0.1f);
  std::vector<btScalar> lengths;
  for (const auto& line : drawer.lines)
    if (line.colour.distance(red) < 1e-6f) lengths.push_back(line.from.distance(line.to));
  return lengths;
}

/// A body on flat water at 0 whose centre of mass is at `y_m` with the
/// hull upright, made to weigh what the water bears at that pose (it floats
/// there at rest), its action primed.
struct Afloat {
  Afloat(std::shared_ptr<const Hull> hull, btScalar y_m)
      : body(world.addBox(hull->boundsMax() - hull->boundsMin(), 1,
                          btTransform(btQuaternion::getIdentity(), btVector3(0, y_m, 0)))),
        boat(body, std::move(hull), std::make_shared<LevelWater>(0)) {
    boat.prime(kDt);
    buoyancy_N = boat.hydrostatics().force_N.length();
    setMass(buoyancy_N / kG);
  }
  void setMass(btScalar mass_kg) {
    btVector3 inertia;
    body->getCollisionShape()->calculateLocalInertia(mass_kg, inertia);
    body->setMassProps(mass_kg, inertia);
  }
  World world;
  btRigidBody* body;
  WaterAction boat;
  btScalar buoyancy_N = 0;
};

TEST(DebugArrows, AFloatingBoxsBuoyancyArrowIsItsHullRadiusLong) {
  // A 4 x 1 x 2 m box at draft 0.25 m: B = rho g L B T = 20.1 kN, its
  // radius the half diagonal sqrt(4^2 + 1^2 + 2^2) / 2 = 2.29 m.
  Afloat box(hullOf(keel::test::box(btVector3(4, 1, 2), 2)), btScalar(0.25));
  const double buoyancy = 1025 * double(kG) * 4 * 2 * 0.25, radius = std::sqrt(21.0) / 2;
  EXPECT_NEAR(box.buoyancy_N, buoyancy, 1e-5 * buoyancy);
  EXPECT_NEAR(box.boat.hull()->radius_m(), radius, 1e-6 * radius);
  ASSERT_EQ(buoyancyArrows_m(box.boat).size(), 1u);
  reportFigure("box's buoyancy arrow [m]", buoyancyArrows_m(box.boat)[0], radius);
  EXPECT_NEAR(buoyancyArrows_m(box.boat)[0], radius, 1e-5 * radius);
  // Twice as heavy (sinking): the same buoyancy is half the weight.
  box.setMass(2 * box.buoyancy_N / kG);
  EXPECT_NEAR(buoyancyArrows_m(box.boat)[0], radius / 2, 1e-5 * radius);
}

TEST(DebugArrows, AFloatingTugsBuoyancyArrowIsItsHullRadiusLong) {
  const game::LoadedHull tug = game::loadHull(std::string(KEEL_MEDIA_DIR) + "/tug.obj");
  // The file's origin is on the design waterline: the centre of mass goes
  // where it lies above it.
  Afloat afloat(tug.hull, tug.centreOfMass_m.y());
  const btScalar radius = tug.hull->radius_m();
  ASSERT_EQ(buoyancyArrows_m(afloat.boat).size(), 1u);
  reportFigure("tug's buoyancy arrow [m]", buoyancyArrows_m(afloat.boat)[0], radius);
  EXPECT_NEAR(buoyancyArrows_m(afloat.boat)[0], radius, 1e-5 * radius);
  // A scale of the user's own wins: 10 kN per metre draws its buoyancy
  // tens of metres long.
  afloat.boat.debugForceScale_Npm = 1e4;
  std::printf("[  figure  ] tug's buoyancy %.0f N, 1 m per 10 kN: %.1f m\n", double(afloat.buoyancy_N),
              double(buoyancyArrows_m(afloat.boat)[0]));
  EXPECT_NEAR(buoyancyArrows_m(afloat.boat)[0], afloat.buoyancy_N / 1e4, 1e-6 * afloat.buoyancy_N / 1e4);
  afloat.boat.debugForceScale_Npm = -1;  // no arrows
  EXPECT_TRUE(buoyancyArrows_m(afloat.boat).empty());
}

}  // namespace
}  // namespace keel::test
