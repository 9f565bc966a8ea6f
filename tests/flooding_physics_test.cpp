// Flooding against the textbook (docs/flooding.md): the fill time through
// a hole by Torricelli's law, a slack tank's free-surface effect on the
// metacentric height, and the list of a box holed on one side of its
// centreline bulkhead.
#include "holed_box.hpp"
#include "test_hulls.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

namespace keel::test {
namespace {

constexpr double kRho = 1025;
constexpr double kPi = 3.14159265358979323846;

TEST(FloodingPhysics, FillsThroughAHoleInTorricellisTime) {
  // A 4 x 2 x 4 m box held with its keel 1.5 m deep; a 1 x 1 m compartment
  // from keel to deck, holed at its floor by a square hole of 40 cm^2:
  // dh/dt = Cd A sqrt(2 g (H - h)) / S, so the level reaches h at
  // t = 2 S (sqrt(H) - sqrt(H - h)) / (Cd A sqrt(2 g)).
  HoledBox scene;
  const double holeHeight_m = double(HoledBox::kHoleHeight_m);
  const double H = 1.5 - holeHeight_m / 2, S = 1, g = 9.81;
  const double cdA = 0.6 * double(HoledBox::kHoleArea_m2);  // HoledBox::kDischarge
  const double target = 0.75 * H;                           // level above the hole's centre [m]
  const double expected = 2 * S * (std::sqrt(H) - std::sqrt(H - target)) / (cdA * std::sqrt(2 * g));
  double t = 0, level = 0, before = 0;
  const double dt = 1.0 / 240;
  while (level < target && t < 2 * expected) {
    before = level;
    scene.stepHeld(dt);
    t += dt;
    level = scene.boat.flooding().compartments[0].water_m3 / S - holeHeight_m / 2;
  }
  const double crossing = t - dt * (level - target) / (level - before);  // interpolated in the last substep
  reportFigure("Torricelli fill time to 3/4 of the head [s]", crossing, expected);
  EXPECT_NEAR(crossing, expected, 0.01 * expected);
}

TEST(FloodingPhysics, SlackTankLowersTheMetacentricHeightByItsFreeSurface) {
  // Box 4 (x) x 2 (y, up) x 4 (z), keel 0.5 m below the centre of mass,
  // draft 0.8 m; a closed tank 2 x 0.5 x 3.2 m whose floor is 0.25 m above
  // the keel holds 1.6 m^3 of water. Heeled 1 degree about x at constant
  // displacement, the righting moment gives GM_eff, which is GM (the water
  // frozen) less i_fs / V, i_fs = l b^3 / 12 of the free surface.
  const double L = 4, B = 4, T = 0.8, tankL = 2, tankB = 3.2, tankH = 0.5, tankFloor = 0.25, water = 1.6;
  const double V = L * B * T, tankWater = water * kRho, mass = kRho * V - tankWater;
  const double keelBelowCentre = 0.5;
  World w;
  const btScalar phi = btScalar(1.0 * kPi / 180);
  const btQuaternion heel(btVector3(1, 0, 0), phi);
  // The waterplane's centre line (0.3 m above the centre of mass) stays at
  // the water's level: wall-sided, the displacement does not change.
  const btVector3 waterlineBody(0, btScalar(T - keelBelowCentre), 0);
  const btTransform pose(heel, -quatRotate(heel, waterlineBody));
  btRigidBody* body = w.addBox(btVector3(4, 2, 4), btScalar(mass), pose);
  auto hull = hullOf(box(btVector3(btScalar(L), 2, btScalar(B)), 1, btVector3(0, btScalar(1 - keelBelowCentre), 0)));
  auto tank = hullOf(box(btVector3(btScalar(tankL), btScalar(tankH), btScalar(tankB)), 1,
                         btVector3(0, btScalar(-keelBelowCentre + tankFloor + tankH / 2), 0)));
  WaterAction boat(body, hull, std::make_shared<FlatSurface>());
  boat.setCompartments({Compartment{"tank", tank, {}, 0, btScalar(water), 1}});
  boat.prime(btScalar(1.0 / 240));
  const double depth = water / (tankL * tankB);
  const double kgTotal = (mass * keelBelowCentre + tankWater * (tankFloor + depth / 2)) / (kRho * V);
  const double gmFrozen = T / 2 + B * B / (12 * T) - kgTotal;
  const double iFs = tankL * tankB * tankB * tankB / 12;
  const double expected = gmFrozen - iFs / V;
  const double measured = -double(boat.totalForce().torque_Nm.x()) / (kRho * 9.81 * V * std::sin(double(phi)));
  reportFigure("GM with a slack tank [m]", measured, expected);
  reportFigure("free-surface loss i_fs / V [m]", gmFrozen - measured, iFs / V);
  EXPECT_NEAR(measured, expected, 0.01 * expected);
}

// A wall-sided box L x B x D at draft T, centre of mass KG above the keel,
// with two transverse bulkheads and one on the centreline
// (keel::sideCompartments): its middle starboard compartment (l x b, its
// centre y_c off the centreline) holed at its floor. Lost buoyancy (Rawson
// and Tupper, Basic Ship Theory, ch. 4-5): the intact waterplane
// A' = L B - a, a = l b, sinks the box to T' = T L B / A', its centroid
// y_F = -a y_c / A' to port; I' its second moment about the fore-and-aft
// axis through it, BM' = I' / V, KB' = T' / 2, GM' = KB' + BM' - KG. A
// wall-sided waterplane turns about that axis at any heel without changing
// the volume, so the heel phi solves
// tan(phi) (GM' + BM' tan(phi)^2 / 2) = -y_F, exact while the deck and the
// bottom stay out of the waterplane.
TEST(FloodingPhysics, HoledSideCompartmentListsTheBoxByTheLostBuoyancy) {
  const double L = 4, B = 2, D = 1.5, T = 0.5, KG = 0.3;
  World w;
  btRigidBody* body = w.addBox(btVector3(btScalar(L), btScalar(D), btScalar(B)), btScalar(kRho * L * B * T),
                               btTransform(btQuaternion::getIdentity(), btVector3(0, btScalar(KG - T), 0)));
  body->setDamping(btScalar(0.5), btScalar(0.5));
  body->setActivationState(DISABLE_DEACTIVATION);
  const auto hull = hullOf(
      box(btVector3(btScalar(L), btScalar(D), btScalar(B)), 1, btVector3(0, btScalar(D / 2 - KG), 0)));
  WaterAction boat(body, hull, std::make_shared<FlatSurface>());
  const std::vector<btScalar> bulkheads{btScalar(-L / 6), btScalar(L / 6)};
  std::vector<Compartment> rooms = sideCompartments(*hull, btVector3(1, 0, 0), bulkheads, btVector3(0, 0, 1));
  ASSERT_EQ(rooms.size(), 6u);
  Compartment& holed = rooms[3];
  ASSERT_EQ(holed.name, "compartment 1 starboard");
  holed.openings.push_back(Opening{btVector3(0, btScalar(0.1 - KG), btScalar(B / 4)), btScalar(0.05)});
  boat.setCompartments(rooms);
  boat.prime(btScalar(1.0 / 240));
  w.world.addAction(&boat);
  for (int i = 0; i < 120 * 240; ++i) w.world.stepSimulation(btScalar(1.0 / 240), 1, btScalar(1.0 / 240));

  const double l = L / 3, b = B / 2, a = l * b, yc = B / 4, V = L * B * T;
  const double intact = L * B - a, sunk = T * L * B / intact, yF = -a * yc / intact;
  const double iCentreline = L * B * B * B / 12 - (l * b * b * b / 12 + a * yc * yc);
  const double bm = (iCentreline - intact * yF * yF) / V, gm = sunk / 2 + bm - KG;
  double t = -yF / gm;  // Newton from the small-angle heel
  for (int i = 0; i < 20; ++i) t -= (t * (gm + bm * t * t / 2) + yF) / (gm + 1.5 * bm * t * t);
  const double expected = std::atan(t);
  const Attitude at = attitude(boat);
  reportFigure("side compartment holed: heel [deg]", at.heel_rad * 180 / kPi, expected * 180 / kPi);
  EXPECT_NEAR(at.heel_rad, expected, 1e-4 * expected);  // to starboard, the holed side
  EXPECT_NEAR(at.trim_rad, 0, 1e-4);
  // The water inside stands at the sea's level: the compartment below T'
  // heeled, wall-sided about its centre (its centre y_c - y_F off the axis).
  const double inside = a * (sunk + (yc - yF) * t);
  reportFigure("side compartment holed: water [m^3]", boat.flooding().compartments[3].water_m3, inside);
  EXPECT_NEAR(boat.flooding().compartments[3].water_m3, inside, 1e-4 * inside);
  for (std::size_t c = 0; c < rooms.size(); ++c)
    if (c != 3) {
      EXPECT_EQ(boat.flooding().compartments[c].water_m3, 0) << rooms[c].name;
    }
  w.world.removeAction(&boat);
}

TEST(FloodingPhysics, CompartmentsRemovedLeaveNoFloodwaterWeight) {
  // A boat without compartments does not run the Flooding stage: the
  // floodwater's weight must go with them, not stay in the total force.
  HoledBox b;
  for (int i = 0; i < 240; ++i) b.stepHeld(1.0 / 240);
  const auto without = [&] { return b.boat.hydrostatics().force_N + b.boat.hydrodynamics().total().force_N; };
  const double weight_N = double(without().y() - b.boat.totalForce().force_N.y());
  // A second's inflow through the hole 1.5 m deep, Torricelli's rho g Cd A sqrt(2 g h) t (some 13 kg).
  const double g = double(kG),
               torricelli_N = 1025 * g * double(HoledBox::kDischarge * HoledBox::kHoleArea_m2) * std::sqrt(2 * g * 1.5);
  reportFigure("floodwater weight before the compartments are removed [N]", weight_N, torricelli_N);
  EXPECT_NEAR(weight_N, torricelli_N, 0.01 * torricelli_N);  // the level inside rises 13 mm
  b.boat.setCompartments({});
  b.stepHeld(1.0 / 240);
  // Float sums of some 200 kN: a few 1e-7 relative.
  const double tol_N = 1e-6 * double(b.boat.hydrostatics().force_N.length());
  EXPECT_NEAR(b.boat.totalForce().force_N.y(), without().y(), tol_N);
  EXPECT_LT(tol_N, weight_N / 10);
}

}  // namespace
}  // namespace keel::test
