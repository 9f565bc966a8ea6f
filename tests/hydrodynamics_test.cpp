// Kerner part 2 (docs/model.md §2): the hydrodynamic terms, on their
// own and in a Bullet world with the shipped wave surfaces.
#include "reference.hpp"
#include "substep/clamp.hpp"
#include "test_hulls.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>

namespace keel::test {
using namespace keel::reference;  // the scalar oracle
namespace {

/// Triangle (a, b, c) wholly under the water at 1 m, as cutHull gives it.
Piece wholeTriangle(const btVector3& a, const btVector3& b, const btVector3& c) {
  const btVector3 s = areaVector_m2(a, b, c);
  return {{a, b, c}, {1, 1, 1}, 0, {}, s, s.length()};
}

constexpr double kRho = 1025;
constexpr double kPi = 3.14159265358979323846;
constexpr btScalar kDt = btScalar(1.0 / 240);

void step(World& w, int substeps) {
  for (int i = 0; i < substeps; ++i) w.world.stepSimulation(kDt, 1, kDt);
}

/// A box L (x) by D (y) by B (z) floating at draft T, with its action.
struct Boat {
  Boat(World& w, btScalar L, btScalar D, btScalar B, btScalar T, std::shared_ptr<const WaterSurface> water,
       const HydrodynamicSettings& hydro, btScalar y0 = 0, int tessellation = 1)
      : L(L), D(D), B(B), T(T), hull(hullOf(box(btVector3(L, D, B), tessellation))) {
    body = w.addBox(btVector3(L, D, B), mass(),
                    btTransform(btQuaternion::getIdentity(), btVector3(0, D / 2 - T + y0, 0)));
    action = std::make_unique<WaterAction>(body, hull, std::move(water));
    action->setHydrodynamics(hydro);
    w.world.addAction(action.get());
    action->prime(kDt);  // the first substep feels the water too
    world = &w.world;
  }
  ~Boat() { world->removeAction(action.get()); }
  btScalar mass() const { return btScalar(kRho) * L * B * T; }
  btScalar heave() const { return body->getCenterOfMassPosition().y() - (D / 2 - T); }
  btScalar L, D, B, T;
  std::shared_ptr<const Hull> hull;
  btRigidBody* body;
  std::unique_ptr<WaterAction> action;
  btDiscreteDynamicsWorld* world;
};

HydrodynamicSettings only(bool viscous, bool pressure, bool slamming, bool air) {
  HydrodynamicSettings s = HydrodynamicSettings::none();
  s.viscous = viscous;
  s.pressureDrag = pressure;
  s.slamming = slamming;
  s.airResistance = air;
  return s;
}

// --- the terms on their own -------------------------------------------------

TEST(Hydrodynamics, IttcLine) {
  EXPECT_NEAR(ittc1957FrictionCoefficient(1e7), 0.075 / 25.0, 1e-9);
  EXPECT_NEAR(ittc1957FrictionCoefficient(1e9), 0.075 / 49.0, 1e-9);
  // Held below Rn = 1e5, where the line diverges.
  EXPECT_EQ(ittc1957FrictionCoefficient(10), ittc1957FrictionCoefficient(1e5));
  EXPECT_EQ(ittc1957FrictionCoefficient(0), ittc1957FrictionCoefficient(1e5));
}

TEST(Hydrodynamics, ViscousForceIsTangential) {
  // One piece in the y = 0 plane (normal +y) moving obliquely through it.
  const Piece p = wholeTriangle(btVector3(0, 0, 0), btVector3(0, 0, 1), btVector3(1, 0, 0));
  const btVector3 water[1] = {btVector3(0, 0, 0)};
  PieceFlow flow[1];
  pieceFlows({&p, 1}, btVector3(3, 4, 0), btVector3(0, 0, 0), water, flow);
  ASSERT_NEAR(flow[0].normal.y(), 1, 1e-6);
  const ForceTorque f = viscousForce(flow, 1000, 0.01f);
  EXPECT_NEAR(f.force_N.y(), 0, 1e-6);  // no normal part
  // 1/2 rho Cf A |v|^2 against the tangential motion (-x): 0.5*1000*0.01*0.5*25.
  EXPECT_NEAR(f.force_N.x(), -62.5, 1e-3);
}

TEST(Hydrodynamics, PressureDragAndSuctionDirections) {
  const Piece front = wholeTriangle(btVector3(0, 0, 0), btVector3(0, 1, 0), btVector3(0, 0, 1));  // normal +x
  const btVector3 water[1] = {btVector3(0, 0, 0)};
  PieceFlow flow[1];
  HydrodynamicSettings s;
  s.pressureLinear_Pa = 10;
  s.pressureQuadratic_Pa = 20;
  s.suctionLinear_Pa = 1;
  s.suctionQuadratic_Pa = 2;
  s.pressureFalloff = s.suctionFalloff = 1;
  pieceFlows({&front, 1}, btVector3(2, 0, 0), btVector3(0, 0, 0), water, flow);  // moving into the water
  ForceTorque f = pressureDragForce(flow, s);
  EXPECT_NEAR(f.force_N.x(), -(10 * 2 + 20 * 4) * 0.5, 1e-4);                     // A = 0.5 m^2, cos = 1
  pieceFlows({&front, 1}, btVector3(-2, 0, 0), btVector3(0, 0, 0), water, flow);  // moving away: suction
  f = pressureDragForce(flow, s);
  EXPECT_NEAR(f.force_N.x(), (1 * 2 + 2 * 4) * 0.5, 1e-4);
  // Against the water's own velocity: water flowing at the still face is drag too.
  const btVector3 current[1] = {btVector3(-2, 0, 0)};
  pieceFlows({&front, 1}, btVector3(0, 0, 0), btVector3(0, 0, 0), current, flow);
  EXPECT_NEAR(pressureDragForce(flow, s).force_N.x(), -50, 1e-4);
}

TEST(Hydrodynamics, SettingsValidateNamingTheField) {
  HydrodynamicSettings s;
  s.pressureFalloff = 0;
  try {
    s.validate();
    FAIL();
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("pressureFalloff"), std::string::npos);
  }
  s = HydrodynamicSettings{};
  s.kinematicViscosity_m2ps = std::numeric_limits<btScalar>::quiet_NaN();
  EXPECT_THROW(s.validate(), std::invalid_argument);
  s = HydrodynamicSettings{};
  s.hullLiftCoefficient = -1;
  try {
    s.validate();
    FAIL();
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("hullLiftCoefficient"), std::string::npos);
  }
  EXPECT_NO_THROW(HydrodynamicSettings{}.validate());
}

TEST(Hydrodynamics, ClampNeverReversesTheVelocity) {
  HydrodynamicForces f;
  f.pressureDrag.force_N = btVector3(-1e6, 3, 0);  // would stop 1 kg at 1 m/s many times over
  f.viscous.torque_Nm = btVector3(0, 0, 5);        // a steady pitch moment, no spin to reverse
  detail::clampToVelocity(f, btVector3(1, 0, 0), btVector3(0, 0, 0), 1, btMatrix3x3::getIdentity(), kDt);
  EXPECT_LT(f.clampScale, 1);
  EXPECT_NEAR(1 + f.total().force_N.x() * kDt, 0, 1e-6);  // stops, does not reverse
  EXPECT_EQ(f.total().force_N.y(), 3);                    // the sideways part is kept
  EXPECT_EQ(f.total().torque_Nm, btVector3(0, 0, 5));     // the torque is not the linear clamp's business
}

TEST(Hydrodynamics, SteadyTorqueDoesNotCancelLinearDrag) {
  // A heavy boat at speed pitching slowly against its friction moment: the
  // angular clamp limits only the torque along the spin, the drag stays whole.
  HydrodynamicForces f;
  f.viscous.force_N = btVector3(-2000, 0, 0);
  f.viscous.torque_Nm = btVector3(0, 0, -50000);
  const btMatrix3x3 inverseInertia = btMatrix3x3::getIdentity() * btScalar(1e-4);
  detail::clampToVelocity(f, btVector3(5, 0, 0), btVector3(0, 0, 1e-4f), btScalar(1e-4), inverseInertia, kDt);
  EXPECT_EQ(f.clampScale, 1);
  EXPECT_EQ(f.total().force_N.x(), -2000);
  EXPECT_LT(f.angularClampScale, 1);
  EXPECT_NEAR(1e-4 + (inverseInertia * f.total().torque_Nm).z() * kDt, 0, 1e-9);  // spin stops, does not reverse
}

// --- 3a: towed hull, viscous only --------------------------------------------

TEST(Hydrodynamics, TowedHullViscousResistanceIsIttc) {
  World w;
  const btScalar L = 8, D = 1, B = 1.2f, T = 0.5f;
  Boat boat(w, L, D, B, T, std::make_shared<FlatSurface>(), only(true, false, false, false));
  boat.body->setAngularFactor(0);
  boat.body->setLinearFactor(btVector3(1, 0, 1));  // towed: no heave, no pitch
  for (double v : {0.5, 2.0, 6.0}) {
    boat.body->setLinearVelocity(btVector3(btScalar(v), 0, 0));
    step(w, 1);
    boat.body->setLinearVelocity(btVector3(btScalar(v), 0, 0));
    step(w, 1);  // the force read is the one for the towed state
    const double rn = v * L / 1.19e-6;
    const double cf = 0.075 / std::pow(std::log10(rn) - 2, 2);
    const double S = L * B + 2 * L * T;  // bottom and sides; the ends see no tangential flow
    const double expected = 0.5 * kRho * S * v * v * cf;
    reportFigure(("towed hull viscous resistance at " + std::to_string(v) + " m/s [N]").c_str(),
                 -boat.action->hydrodynamics().viscous.force_N.x(), expected);
    EXPECT_NEAR(-boat.action->hydrodynamics().viscous.force_N.x(), expected, 0.01 * expected) << "v=" << v;
  }
}

// --- 3b: dropped from 10 m ------------------------------------------------------

double mechanicalEnergy(const Boat& b) {
  // The velocity Bullet integrated, without the water impulse already added
  // for the next substep.
  const btVector3 v = b.action->linearVelocity_mps();
  const btVector3 w = b.action->angularVelocity_radps();
  const btMatrix3x3 inertia = b.body->getInvInertiaTensorWorld().inverse();
  return 0.5 * b.mass() * v.length2() + 0.5 * w.dot(inertia * w) +
         b.mass() * kG * b.body->getCenterOfMassPosition().y() + kRho * kG * b.action->hydrostatics().depthIntegral_m4;
}

TEST(Hydrodynamics, DroppedBoatSettlesAndItsEnergyNeverRises) {
  World w;
  Boat boat(w, 4, 1.2f, 2, 0.4f, std::make_shared<FlatSurface>(), HydrodynamicSettings{}, 10, 3);
  boat.body->setAngularVelocity(btVector3(0.3f, 0.1f, 0.2f));
  bool wet = false;
  double lowest = std::numeric_limits<double>::infinity(), worstRise = 0, entryEnergy = 0;
  for (int i = 0; i < 240 * 30; ++i) {
    step(w, 1);
    ASSERT_TRUE(std::isfinite(boat.body->getCenterOfMassPosition().y()));
    if (!wet && boat.action->hydrostatics().submergedVolume_m3 > 0) {
      wet = true;
      entryEnergy = mechanicalEnergy(boat);
    }
    if (!wet) continue;
    const double e = mechanicalEnergy(boat);
    worstRise = std::max(worstRise, e - lowest);
    lowest = std::min(lowest, e);
  }
  ASSERT_TRUE(wet);
  // Energy at rest (the reference) is m g h + rho g int d dV at equilibrium.
  const double restEnergy = boat.mass() * kG * (boat.D / 2 - boat.T) + kRho * kG * 4 * 2 * boat.T * boat.T / 2;
  // Drag, slamming and the drag clamp only ever take energy out; what rises
  // above the running minimum is the float round-off of the energy's sum
  // (terms of ~3e5 J, eps 6e-8), far below 1e-6 of the energy brought in.
  reportFigure("dropped boat: largest energy rise / energy brought into the water",
               worstRise / (entryEnergy - restEnergy), 0);
  EXPECT_LT(worstRise, 1e-6 * (entryEnergy - restEnergy));
  // Settled at its draft, level. (It may still drift sideways from the
  // impact: only the weak linear drag stops that.)
  EXPECT_NEAR(boat.heave(), 0, 2e-3);
  EXPECT_LT(std::abs(boat.body->getLinearVelocity().y() - boat.action->pendingLinearVelocity_mps().y()), 1e-3);
  EXPECT_LT((boat.body->getAngularVelocity() - boat.action->pendingAngularVelocity_radps()).length(), 1e-3);
  EXPECT_TRUE(boat.action->status().ok()) << boat.action->status().describe();
}

// --- 3c: heave decay --------------------------------------------------------------

TEST(Hydrodynamics, HeaveDecayIsMonotone) {
  World w;
  Boat boat(w, 4, 1.2f, 2, 0.4f, std::make_shared<FlatSurface>(), HydrodynamicSettings{}, 0.3f, 2);
  std::vector<double> peaks;
  double a = boat.heave(), b = a;
  for (int i = 0; i < 240 * 20; ++i) {
    step(w, 1);
    const double c = boat.heave();
    if (b > a && b >= c && b > 1e-5) peaks.push_back(b);  // a local maximum
    a = b;
    b = c;
  }
  ASSERT_GE(peaks.size(), 3u);
  for (std::size_t i = 1; i < peaks.size(); ++i) EXPECT_LT(peaks[i], peaks[i - 1]) << "peak " << i;
  EXPECT_LT(peaks.back(), 0.3 * peaks.front());
}

// --- 3d: regular waves -------------------------------------------------------------

double heaveAmplitudeInWaves(double amplitude_m, double wavelength_m, double L, double startHeave_m) {
  World w;
  const btScalar D = 1, B = btScalar(L), T = 0.4f;
  auto sea = std::make_shared<SineSumSurface>(
      std::vector<WaveComponent>{deepWaterWave(amplitude_m, wavelength_m, 0, 0, kG)});
  // Hull triangles much shorter than the wavelength (docs/model.md §1, "The cut"):
  // vertices a wavelength apart would all see the same phase.
  const int tessellation = std::max(4, int(std::ceil(8 * L / wavelength_m)));
  Boat boat(w, btScalar(L), D, B, T, sea, HydrodynamicSettings::none(), btScalar(startHeave_m), tessellation);
  boat.body->setAngularFactor(0);
  boat.body->setLinearFactor(btVector3(0, 1, 0));  // heave only: the analytic case
  double biggest = 0;
  for (int i = 0; i < 240 * 40; ++i) {
    step(w, 1);
    biggest = std::max(biggest, std::abs(double(boat.heave())));
  }
  return biggest;
}

TEST(Hydrodynamics, LongWavesGiveTheUndampedHeaveResponse) {
  const double T = 0.4, omegaN = std::sqrt(kG / T), r = 0.6, omega = r * omegaN;
  const double wavelength = 2 * kPi * kG / (omega * omega);  // deep water
  const double L = wavelength / 20, a = 0.05;
  const double expected = a / std::abs(1 - r * r);
  // Started on the steady-state solution, so no free oscillation adds to it.
  const double measured = heaveAmplitudeInWaves(a, wavelength, L, expected);
  reportFigure("heave amplitude in long waves [m]", measured, expected);
  EXPECT_NEAR(measured, expected, 0.05 * expected);
}

TEST(Hydrodynamics, ShortWavesBarelyMoveTheBoat) {
  const double L = 4, a = 0.05;
  const double measured = heaveAmplitudeInWaves(a, L / 4, L, 0);
  reportFigure("heave amplitude in short waves / wave amplitude", measured / a, 0);
  EXPECT_LT(measured, 0.3 * a);
}

// --- 3e: current --------------------------------------------------------------------

TEST(Hydrodynamics, BoatDriftsUpToTheCurrentSpeed) {
  const UniformCurrent current{0.8, -0.6};
  for (WaterVelocitySampling sampling :
       {WaterVelocitySampling::PerVertex, WaterVelocitySampling::PerBoat, WaterVelocitySampling::StillWater}) {
    World w;
    HydrodynamicSettings hydro;
    hydro.waterVelocity = sampling;
    Boat boat(w, 4, 1.2f, 2, 0.4f, std::make_shared<FlatSurface>(0.0, current), hydro, 0, 2);
    step(w, 240 * 150);
    const btVector3 v = boat.body->getLinearVelocity();
    // Sampling the current (per vertex or per boat) carries the boat with it;
    // taking the water as still leaves it where it was.
    const bool feelsCurrent = sampling != WaterVelocitySampling::StillWater;
    EXPECT_NEAR(v.x(), feelsCurrent ? 0.8 : 0.0, 0.01) << int(sampling);
    EXPECT_NEAR(v.z(), feelsCurrent ? -0.6 : 0.0, 0.01) << int(sampling);
    EXPECT_EQ(boat.action->status().nonFiniteVelocities, 0u);
  }
}

// --- 3f: down the face of a swell -----------------------------------------------------

TEST(Hydrodynamics, GerstnerSwellFacePushesTheBoatDownhill) {
  // A long swell travelling along +x; place the boat where the surface slopes.
  const double wavelength = 80, a = 2.5;
  auto swell = std::make_shared<GerstnerSurface>(std::vector<WaveComponent>{deepWaterWave(a, wavelength, 0, 0, kG)},
                                                 GerstnerSettings{});
  for (double x : {-wavelength / 4, wavelength / 4}) {  // the two faces
    const btScalar dx = 0.5f;
    const double slope = (swell->height(btScalar(x) + dx, 0, 0) - swell->height(btScalar(x) - dx, 0, 0)) / (2 * dx);
    ASSERT_GT(std::abs(slope), 0.1);
    const auto hull = hullOf(box(btVector3(4, 1.2f, 2), 3));
    const btTransform com(btQuaternion::getIdentity(),
                          btVector3(btScalar(x), swell->height(btScalar(x), 0, 0) - 0.2f, 0));
    const HydrostaticResult r = hydrostaticsAt(*hull, com, *swell);
    // Pushed towards the low side, with about the weight times the slope.
    EXPECT_LT(r.force_N.x() * slope, 0) << "x=" << x;
    EXPECT_NEAR(-r.force_N.x() / r.force_N.y(), slope, 0.3 * std::abs(slope)) << "x=" << x;
  }
}

}  // namespace
}  // namespace keel::test
