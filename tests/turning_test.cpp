// A hull in a steady turn: its heel against Rawson & Tupper's turning-heel
// formula (docs/model.md, "The hull's lift and turning").
#include "debug_drawer.hpp"
#include "media_boat.hpp"
#include "test_hulls.hpp"

#include <keel/attitude.hpp>
#include <keel/mass_properties.hpp>
#include <keel/propulsion.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <memory>
#include <numbers>
#include <stdexcept>
#include <string>

namespace keel::test {
namespace {

constexpr double kRho = 1025;

/// A turn's figures: heel positive outward [deg], the mean speed [m/s] and radius [m].
struct Turn {
  double heel_deg = 0, peakInward_deg = 0, peakOutward_deg = 0, speed_mps = 0, radius_m = 0;
};

/// What pushes and steers the boat each substep: `steering` is false before
/// the turn begins.
using Drive = std::function<void(btRigidBody& body, bool steering, btScalar dt_s)>;

/// A drive of `thrust_N` along the bow from `propeller_m` (body frame) and,
/// once steering, a yaw couple `yaw_Nm` about the world's up.
Drive thrustAndCouple(const Boat& b, double thrust_N, const btVector3& propeller_m, double yaw_Nm) {
  const btVector3 forward = b.mass.directionInBody(btVector3(1, 0, 0)), propeller = b.mass.pointInBody(propeller_m);
  return [=](btRigidBody& body, bool steering, btScalar dt) {
    const btMatrix3x3& basis = body.getCenterOfMassTransform().getBasis();
    body.applyImpulse(basis * forward * btScalar(thrust_N * dt), basis * propeller);
    if (steering) body.applyTorqueImpulse(btVector3(0, 1, 0) * btScalar(yaw_Nm * dt));
  };
}

/// A keel::Propulsion for turn(): its parts, where they sit on the boat, and
/// its helm before and after the turn begins.
struct Screw {
  Propeller propeller;
  Rudder rudder;
  PropulsionLayout layout;
  Helm straight, turning;
};

/// Runs `boat` from `v0_mps` ahead at 120 Hz for `seconds`, steering after
/// `straight_s`, by `drive` or, when given, `screw`; the mean heel, speed and
/// radius over the last `average_s`.
Turn turn(const Boat& b, const Drive& drive, double v0_mps, double straight_s, double seconds, double average_s,
          bool lift, const Screw* screw = nullptr) {
  World world;
  btConvexHullShape shape;
  for (const btVector3& v : b.hull->vertices()) shape.addPoint(v, false);
  shape.recalcLocalAabb();
  btRigidBody::btRigidBodyConstructionInfo info(btScalar(b.mass.mass_kg), nullptr, &shape,
                                                b.mass.principalInertia_kgm2);
  info.m_startWorldTransform = b.mass.bodyToHull();
  btRigidBody body(info);
  const HullAxes axes = b.mass.axesInBody({.forward = btVector3(1, 0, 0), .up = btVector3(0, 1, 0)});
  body.setLinearVelocity(btVector3(btScalar(v0_mps), 0, 0));
  world.world.addRigidBody(&body);
  WaterAction action(&body, b.hull, std::make_shared<FlatSurface>(0.0));
  HydrodynamicSettings h = action.hydrodynamicSettings();
  h.hullLift = lift;
  action.setHydrodynamics(h);
  const btScalar dt = btScalar(1.0 / 120);
  action.prime(dt);
  world.world.addAction(&action);
  std::unique_ptr<Propulsion> propulsion;
  if (screw) {
    propulsion = std::make_unique<Propulsion>(action, screw->propeller, screw->rudder, screw->layout);
    propulsion->setHelm(screw->straight);
    propulsion->prime(dt);
    world.world.addAction(propulsion.get());
  }
  Turn t;
  double heelSum = 0, speedSum = 0, rateSum = 0;
  int n = 0;
  const int steps = int(seconds * 120), straight = int(straight_s * 120), from = steps - int(average_s * 120);
  for (int i = 0; i < steps; ++i) {
    if (drive) drive(body, i >= straight, dt);
    if (propulsion && i == straight) propulsion->setHelm(screw->turning);
    world.world.stepSimulation(dt, 1, dt);
    const double heel = attitude(action, axes).heel_rad * 180 / std::numbers::pi;
    const double rate = action.angularVelocity_radps().y();
    const double outward = rate > 0 ? heel : -heel;  // a turn to port (+y) throws the boat to starboard (+heel)
    if (i >= straight)
      t.peakInward_deg = std::min(t.peakInward_deg, outward), t.peakOutward_deg = std::max(t.peakOutward_deg, outward);
    if (i >= from) {
      heelSum += outward;
      speedSum += btVector3(action.linearVelocity_mps().x(), 0, action.linearVelocity_mps().z()).length();
      rateSum += std::abs(rate);
      ++n;
    }
  }
  t.heel_deg = heelSum / n;
  t.speed_mps = speedSum / n;
  t.radius_m = t.speed_mps / (rateSum / n);
  if (propulsion) world.world.removeAction(propulsion.get());
  world.world.removeAction(&action);
  world.world.removeRigidBody(&body);
  return t;
}

/// Rawson & Tupper's steady turning heel [deg], outward: tan phi = V^2 (KG - T/2) / (g R GM).
double formulaHeel_deg(const Boat& b, const Turn& t, double* gmOut, double* kgOut) {
  // G above the keel, upright at the design waterline (the file's y = 0).
  const double kg = double(b.mass.centreOfMass_m.y()) + b.draft_m;
  // GM from the righting lever at a small heel (2 degrees) about the waterline's centre.
  const double phi = 2 * std::numbers::pi / 180;
  const btTransform heeled = btTransform(btQuaternion(btVector3(1, 0, 0), btScalar(phi))) * b.mass.bodyToHull();
  const PoseHydrostatics p = hydrostaticsAtPose(*b.hull, heeled, FlatSurface(0.0));
  const double gz = std::abs(double(p.pressure.centreOfBuoyancy_m.z()));
  const double gm = gz / std::sin(phi);
  *gmOut = gm, *kgOut = kg;
  return std::atan(t.speed_mps * t.speed_mps * (kg - b.draft_m / 2) / (9.81 * t.radius_m * gm)) * 180 /
         std::numbers::pi;
}

// A 10 x 2 x 2 m box at a draft of 1 m, moving at u = 4 m/s along its length
// and v = 0.5 m/s across: Jones' lift (pi/2) rho T^2 |u| v against v, at the
// centre of buoyancy 0.5 m down, ahead and astern alike; its debug arrow.
TEST(Turning, HullLiftIsJonesSlenderWingAtTheCentreOfBuoyancy) {
  for (const btScalar u : {btScalar(4), btScalar(-4)}) {
    World world;
    btRigidBody* body = world.addBox(btVector3(10, 2, 2), 20500, btTransform::getIdentity());
    body->setLinearVelocity(btVector3(u, 0, btScalar(0.5)));
    WaterAction action(body, hullOf(box(btVector3(10, 2, 2), 2)), std::make_shared<FlatSurface>(0.0));
    HydrodynamicSettings h = HydrodynamicSettings::none();
    h.hullLift = true;
    action.setHydrodynamics(h);
    action.prime(btScalar(1.0 / 120));
    const ForceTorque& lift = action.hydrodynamics().hullLift;
    const double expected = -std::numbers::pi / 2 * kRho * 1 * 4 * 0.5;
    reportFigure("box, hull lift across [N]", double(lift.force_N.z()), expected);
    EXPECT_NEAR(lift.force_N.z(), expected, 1e-5 * std::abs(expected));
    EXPECT_EQ(lift.force_N.x(), 0);
    EXPECT_EQ(lift.force_N.y(), 0);
    EXPECT_NEAR(lift.torque_Nm.x(), -0.5 * expected, 1e-5 * std::abs(expected));
    EXPECT_NEAR(lift.torque_Nm.y(), 0, 1e-5 * std::abs(expected));
    EXPECT_NEAR(lift.torque_Nm.z(), 0, 1e-5 * std::abs(expected));
    // Drawn in violet from the centre of buoyancy, at the arrows' scale.
    action.debugForceScale_Npm = 1000;
    game::LineList drawer;
    drawer.setDebugMode(btIDebugDraw::DBG_DrawWireframe);
    action.debugDraw(&drawer);
    int arrows = 0;
    for (const auto& line : drawer.lines)
      if (line.colour.distance(btVector3(0.5f, 0, 1)) < 1e-6f) {
        ++arrows;
        EXPECT_LT(line.from.distance(btVector3(0, btScalar(-0.5), 0)), 1e-5);
        EXPECT_LT((line.to - line.from - lift.force_N / 1000).length(), 1e-5);
      }
    EXPECT_EQ(arrows, 1);
  }
}

// A 10 m boat hull with round bilges (test_hulls' boatHull), its body
// origin on the waterline, drifting to starboard (+z) at 0.5 m/s while it makes
// 2 m/s ahead (Froude number 0.2), not rolling: Kerner's pressure drag alone
// rolls it starboard up, into the drift; with the hull's lift the roll moment
// is the lateral forces' at the centre of buoyancy, starboard down.
TEST(Turning, ACrossFlowsDragActsAtTheCentreOfBuoyancyInRoll) {
  World world;
  const auto hull = hullOf(boatHull(10, 3.5f, 2.5f, 20, 6));
  btRigidBody* body = world.addBox(hull->boundsMax() - hull->boundsMin(), 2e4f, btTransform::getIdentity());
  body->setLinearVelocity(btVector3(2, 0, btScalar(0.5)));
  WaterAction action(body, hull, std::make_shared<FlatSurface>(0.0));
  action.prime(btScalar(1.0 / 120));
  const HydrodynamicForces& f = action.hydrodynamics();
  EXPECT_EQ(f.clampScale, 1);
  EXPECT_EQ(f.energyScale, 1);
  const btVector3 centre = action.hydrostatics().centreOfBuoyancy_m, roll(1, 0, 0);
  const btVector3 cross = btVector3(0, 0, f.pressureDrag.force_N.z()) + f.hullLift.force_N;
  const double moved = f.pressureDrag.torque_Nm.x() + f.hullLift.torque_Nm.x(), wanted = centre.cross(cross).dot(roll);
  reportValue("boat hull drifting: the pressure drag's own roll moment [N m]", f.pressureDrag.torque_Nm.x());
  reportFigure("boat hull drifting: the roll moment with the hull's lift [N m]", moved, wanted);
  EXPECT_LT(f.pressureDrag.torque_Nm.x(), 0);
  EXPECT_GT(wanted, 0);
  EXPECT_NEAR(moved, wanted, 1e-5 * std::abs(wanted));
}

/// The tug's steady turn (60 kN at its propeller, a yaw couple of 100 kN m)
/// without and with the hull's lift, its figures reported under `name`.
struct TugTurns {
  Turn before, after;
  double formula_deg = 0, gm_m = 0, kg_m = 0;
};

TugTurns tugTurns(const Boat& tug, const std::string& name) {
  const btVector3 propeller(-6.6f, -1.3f, 0);
  TugTurns t;
  const Drive drive = thrustAndCouple(tug, 60000, propeller, 1e5);
  t.before = turn(tug, drive, 5.0, 5, 75, 15, false);
  t.after = turn(tug, drive, 5.0, 5, 75, 15, true);
  const double beforeFormula = formulaHeel_deg(tug, t.before, &t.gm_m, &t.kg_m);
  t.formula_deg = formulaHeel_deg(tug, t.after, &t.gm_m, &t.kg_m);
  auto report = [&](const std::string& what, double measured, double expected) {
    if (expected == 0)
      reportValue((name + what).c_str(), measured);
    else
      reportFigure((name + what).c_str(), measured, expected);
  };
  report(": GM [m]", t.gm_m, 0);
  report(": KG [m]", t.kg_m, 0);
  report(" without the hull's lift: speed [m/s]", t.before.speed_mps, 0);
  report(" without the hull's lift: radius [m]", t.before.radius_m, 0);
  report(" without the hull's lift: steady heel, outward [deg]", t.before.heel_deg, beforeFormula);
  report(" without the hull's lift: transient heel, inward [deg]", t.before.peakInward_deg, 0);
  report(": speed [m/s]", t.after.speed_mps, 0);
  report(": radius [m]", t.after.radius_m, 0);
  report(": steady heel, outward [deg]", t.after.heel_deg, t.formula_deg);
  report(": transient heel, inward [deg]", t.after.peakInward_deg, 0);
  report(": transient heel, outward [deg]", t.after.peakOutward_deg, 0);
  return t;
}

// media/tug.obj as a hull read from its file (game::loadHull, docs/integration.md):
// uniformly dense, at its design waterline, G 1.89 m above the keel at a draft of
// 1.8 m, GM 0.51 m. It settles into a turn of about 50 m radius at 5.4 m/s.
TEST(Turning, ADisplacementHullHeelsOutwardAsRawsonAndTupperSay) {
  const TugTurns t = tugTurns(weigh("tug.obj", 0, 0, 0, btVector3(0, 0, 0)), "tug");
  EXPECT_LT(t.before.heel_deg, 0);  // Kerner's drag alone heels it into the turn
  EXPECT_GT(t.formula_deg, 5);
  EXPECT_NEAR(t.after.heel_deg, t.formula_deg, 0.3 * t.formula_deg);
}

// media/tug.obj as the harbour demo weighs it (demo/src/boat_type.cpp): 8 mm
// of steel, an 8 t engine, ballast below half the draft, G 0.86 m above the
// keel, below half its draft of 1.8 m, so that the formula's heel is inward
// and small. Kerner's drag alone heels it 3 degrees into the same turn.
TEST(Turning, ATugBallastedLowHeelsLittle) {
  const Boat tug = weigh("tug.obj", 0.008, 7850, 8000, btVector3(-3, -0.6f, 0));
  const TugTurns t = tugTurns(tug, "demo's tug");
  EXPECT_LT(t.kg_m, tug.draft_m / 2);
  EXPECT_LT(t.before.heel_deg, -2);
  EXPECT_NEAR(t.after.heel_deg, t.formula_deg, 0.5);
}

// The uniformly dense tug on the harbour demo's drive (demo/src/boat_type.cpp:
// a B4-70 screw of 1.6 m at full revolutions, 2 m^2 of rudder hard over), as
// a game steers it: the rudder's own force, low and aft, heels it in, which
// the formula leaves out, so it heels out less than the formula says.
TEST(Turning, ATugOnItsRudderHeelsOutward) {
  const Boat tug = weigh("tug.obj", 0, 0, 0, btVector3(0, 0, 0));
  const Screw screw{.propeller = Propeller({.diameter_m = 1.6, .pitchRatio = 1.0, .bladeAreaRatio = 0.7, .blades = 4}),
                    .rudder = Rudder({.area_m2 = 2.0, .aspectRatio = 1.5}),
                    .layout = {.forward = tug.mass.directionInBody(btVector3(1, 0, 0)),
                               .up = tug.mass.directionInBody(btVector3(0, 1, 0)),
                               .propeller_m = tug.mass.pointInBody(btVector3(-6.6f, -1.3f, 0)),
                               .rudder_m = tug.mass.pointInBody(btVector3(-6.9f, -1.1f, 0)),
                               .rudderSpan_m = std::sqrt(1.5 * 2.0)},
                    .straight = {.revolutions_ps = 4.6},
                    .turning = {.revolutions_ps = 4.6, .rudder_rad = 0.6}};
  const Turn before = turn(tug, nullptr, 5.0, 5, 75, 15, false, &screw);
  const Turn after = turn(tug, nullptr, 5.0, 5, 75, 15, true, &screw);
  double gm = 0, kg = 0;
  const double formula = formulaHeel_deg(tug, after, &gm, &kg);
  reportFigure("tug on its rudder without the hull's lift: steady heel, outward [deg]", before.heel_deg,
               formulaHeel_deg(tug, before, &gm, &kg));
  reportValue("tug on its rudder without the hull's lift: speed [m/s]", before.speed_mps);
  reportValue("tug on its rudder without the hull's lift: radius [m]", before.radius_m);
  reportValue("tug on its rudder without the hull's lift: transient heel, inward [deg]", before.peakInward_deg);
  reportValue("tug on its rudder: speed [m/s]", after.speed_mps);
  reportValue("tug on its rudder: radius [m]", after.radius_m);
  reportFigure("tug on its rudder: steady heel, outward [deg]", after.heel_deg, formula);
  reportValue("tug on its rudder: transient heel, inward [deg]", after.peakInward_deg);
  reportValue("tug on its rudder: transient heel, outward [deg]", after.peakOutward_deg);
  EXPECT_LT(before.heel_deg, -3);
  EXPECT_GT(after.heel_deg, formula / 2);
  EXPECT_LT(after.heel_deg, formula);
}

// media/speedboat.obj as the harbour demo weighs it, planing at Froude number
// 1.3 (10.7 m/s on 7 m) in a turn of about 80 m: its planing bottom's pressure
// still leans it in (or keeps it upright), where a displacement hull heels out.
TEST(Turning, APlaningHullStillLeansIn) {
  const Boat boat = weigh("speedboat.obj", 0.008, 1800, 350, btVector3(-2.6f, -0.1f, 0));
  const Turn t = turn(boat, thrustAndCouple(boat, 5000, btVector3(-3.6f, -0.45f, 0), 3000), 12.0, 5, 40, 10, true);
  const double length_m = double(boat.file->boundsMax().x() - boat.file->boundsMin().x());
  reportValue("speedboat, planing turn: Froude number", t.speed_mps / std::sqrt(9.81 * length_m));
  reportValue("speedboat, planing turn: radius [m]", t.radius_m);
  reportValue("speedboat, planing turn: steady heel, outward [deg]", t.heel_deg);
  EXPECT_GT(t.speed_mps / std::sqrt(9.81 * length_m), 1);
  EXPECT_LT(t.heel_deg, 0.5);
}

}  // namespace
}  // namespace keel::test
