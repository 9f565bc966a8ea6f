// keel::Propeller against the Wageningen B-series as published, its
// emergence loss, keel::Rudder against its lift slope and a flat plate past
// stall, and keel::Propulsion applying them once per substep
// (docs/propulsion.md).
#include "test_hulls.hpp"

#include <keel/propulsion.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <numbers>
#include <stdexcept>
#include <string>

namespace keel::test {
namespace {

constexpr double kRho = 1025;
constexpr double kDeg = std::numbers::pi / 180;

/// Expects `f` to throw std::invalid_argument whose message holds every
/// one of `parts`.
template <class F>
void expectRefusal(F&& f, std::initializer_list<const char*> parts) {
  try {
    f();
    ADD_FAILURE() << "no exception";
  } catch (const std::invalid_argument& e) {
    for (const char* part : parts) EXPECT_NE(std::string(e.what()).find(part), std::string::npos) << e.what();
  }
}

// Kuiper, "The Wageningen Propeller Series" (MARIN publication 92-001,
// 1992), §9.3, designs a B4-55 screw of P/D 1.0 and reads its working point
// from the polynomials: J 0.699, K_T 0.181, K_Q 0.0310, eta_0 0.651. The
// polynomials here give the same to the printed digits.
TEST(Propeller, KuipersB455DesignPointAsPrinted) {
  const Propeller p({.diameter_m = 7, .pitchRatio = 1.0, .bladeAreaRatio = 0.55, .blades = 4});
  const OpenWater w = p.series(0.699);
  reportFigure("B4-55 P/D 1.0 at J 0.699: K_T", w.thrust, 0.181);
  reportFigure("B4-55 P/D 1.0 at J 0.699: K_Q", w.torque, 0.0310);
  reportFigure("B4-55 P/D 1.0 at J 0.699: eta_0", w.efficiency(), 0.651);
  EXPECT_NEAR(w.thrust, 0.181, 0.0005);
  EXPECT_NEAR(w.torque, 0.0310, 0.00005);
  EXPECT_NEAR(w.efficiency(), 0.651, 0.0005);
}

// B4-70 at P/D 1.0, the series' reference screw: its bollard coefficients,
// its no-thrust advance ratio and its best efficiency, an interior maximum
// of eta_0(J) below J_0.
TEST(Propeller, B470ChartHasAnInteriorOptimumBelowItsZeroThrust) {
  const Propeller p({.diameter_m = 1, .pitchRatio = 1.0, .bladeAreaRatio = 0.70, .blades = 4});
  const OpenWater bollard = p.openWater(0);
  reportValue("B4-70 P/D 1.0: K_T at J = 0", bollard.thrust);
  reportValue("B4-70 P/D 1.0: K_Q at J = 0", bollard.torque);
  reportValue("B4-70 P/D 1.0: J_0 (K_T = 0)", p.zeroThrustAdvanceRatio());
  EXPECT_NEAR(p.series(p.zeroThrustAdvanceRatio()).thrust, 0, 1e-12);
  double bestJ = 0, best = 0;
  for (double j = 0.001; j < p.zeroThrustAdvanceRatio(); j += 0.001)
    if (p.openWater(j).efficiency() > best) best = p.openWater(j).efficiency(), bestJ = j;
  reportValue("B4-70 P/D 1.0: optimum J", bestJ);
  reportValue("B4-70 P/D 1.0: optimum eta_0", best);
  EXPECT_GT(bestJ, 0.5);
  EXPECT_LT(bestJ, p.zeroThrustAdvanceRatio() - 0.1);
  EXPECT_GT(best, p.openWater(bestJ - 0.05).efficiency());
  EXPECT_GT(best, p.openWater(bestJ + 0.05).efficiency());
}

TEST(Propeller, OutsideTheSeriesItNeverPushesWhereItMustNot) {
  const Propeller p({.diameter_m = 1, .pitchRatio = 0.8, .bladeAreaRatio = 0.55, .blades = 3});
  const double j0 = p.zeroThrustAdvanceRatio();
  EXPECT_EQ(p.openWater(-0.4).thrust, p.openWater(0).thrust);  // the boat going astern: bollard values
  EXPECT_EQ(p.openWater(j0).thrust, 0);
  EXPECT_EQ(p.openWater(j0 + 1).thrust, 0);  // beyond J_0: no thrust, no drag
  EXPECT_LT(p.series(j0 + 0.2).thrust, 0);   // where the published polynomial would pull back
  for (double j = -2; j < 4; j += 0.01) {
    const OpenWater w = p.openWater(j);
    EXPECT_GE(w.thrust, 0);
    EXPECT_GE(w.torque, 0);
  }
  EXPECT_EQ(p.openWater(std::numeric_limits<double>::quiet_NaN()).thrust, 0);
}

TEST(Propeller, ThrustAndTorqueScaleAsRhoN2D4AndD5) {
  const Propeller p({.diameter_m = 1.6, .pitchRatio = 1.0, .bladeAreaRatio = 0.70, .blades = 4});
  const double n = 4.5, va = 3.0, j = va / (n * 1.6);
  const OpenWater w = p.openWater(j);
  const PropellerLoad deep = p.load(va, n, kRho, 10);
  EXPECT_NEAR(deep.thrust_N, kRho * n * n * std::pow(1.6, 4) * w.thrust, 1e-9 * deep.thrust_N);
  EXPECT_NEAR(deep.torque_Nm, kRho * n * n * std::pow(1.6, 5) * w.torque, 1e-9 * deep.torque_Nm);
  EXPECT_EQ(deep.emergence, 1);
  // Astern, the screw turned round: the same coefficients for the mirrored
  // inflow, the thrust reduced by the astern factor, the torque reversed.
  const PropellerLoad astern = p.load(-va, -n, kRho, 10);
  EXPECT_NEAR(astern.thrust_N, -0.7 * deep.thrust_N, 1e-9 * deep.thrust_N);
  EXPECT_NEAR(astern.torque_Nm, -deep.torque_Nm, 1e-9 * deep.torque_Nm);
  EXPECT_EQ(p.load(va, 0, kRho, 10).thrust_N, 0);
  const double nan = std::numeric_limits<double>::quiet_NaN(), inf = std::numeric_limits<double>::infinity();
  for (const PropellerLoad& bad : {p.load(nan, n, kRho, 10), p.load(va, inf, kRho, 10), p.load(va, n, nan, 10),
                                   p.load(va, n, kRho, nan), p.load(va, 1e300, kRho, 10)}) {
    EXPECT_EQ(bad.thrust_N, 0);
    EXPECT_EQ(bad.torque_Nm, 0);
  }
}

TEST(Propeller, RefusesAGeometryOutsideTheSeries) {
  expectRefusal([] { (void)Propeller({.pitchRatio = 1.5}); }, {"pitchRatio", "1.5", "0.5 .. 1.4"});
  expectRefusal([] { (void)Propeller({.bladeAreaRatio = 0.2}); }, {"bladeAreaRatio", "0.2", "0.30 .. 1.05"});
  expectRefusal([] { (void)Propeller({.blades = 8}); }, {"blades", "8", "2 .. 7"});
  expectRefusal([] { (void)Propeller({.diameter_m = std::numeric_limits<double>::quiet_NaN()}); },
                {"diameter_m", "nan"});
  expectRefusal([] { (void)Propeller({}, {.wakeFraction = 1}); }, {"wakeFraction", "0 .. 0.9"});
  EXPECT_NO_THROW((void)Propeller({.pitchRatio = 1.4, .bladeAreaRatio = 1.05, .blades = 7}));
  EXPECT_NO_THROW((void)Propeller({.pitchRatio = 0.5, .bladeAreaRatio = 0.30, .blades = 2}));
}

// Minsaas, Thon & Kauczynski (1983) as Faltinsen (2005) quotes it: beta =
// 1 - 0.675 (1 - 0.769 h/R)^1.258 for h/R < 1.3.
TEST(Propeller, ThrustFallsAsTheShaftRisesAndIsZeroOutOfTheWater) {
  const Propeller p({.diameter_m = 2, .pitchRatio = 1.0, .bladeAreaRatio = 0.55, .blades = 4});
  auto beta = [](double hr) { return 1 - 0.675 * std::pow(1 - 0.769 * hr, 1.258); };
  const double deep = p.load(0, 3, kRho, 5).thrust_N;
  reportFigure("emergence: thrust kept with the shaft at the surface", p.load(0, 3, kRho, 0).thrust_N / deep, 0.325);
  for (const double hr : {1.2, 1.0, 0.5, 0.0, -0.2, -0.4}) {
    EXPECT_NEAR(Propeller::emergenceFactor(hr), beta(hr), 1e-12) << hr;
    EXPECT_NEAR(p.load(0, 3, kRho, hr).thrust_N, beta(hr) * deep, 1e-9 * deep) << hr;
  }
  EXPECT_EQ(Propeller::emergenceFactor(1.3), 1);
  EXPECT_NEAR(Propeller::emergenceFactor(1.3 - 1e-9), 1, 1e-4);  // continuous where the formula ends
  double last = 2;
  for (double hr = 2; hr > -2; hr -= 0.001) {
    EXPECT_LE(Propeller::emergenceFactor(hr), last);
    last = Propeller::emergenceFactor(hr);
  }
  EXPECT_EQ(Propeller::emergenceFactor(-0.5), 0);  // the formula runs out before the disc is clear
  EXPECT_EQ(p.load(0, 3, kRho, -1).thrust_N, 0);   // the disc clear of the water
  EXPECT_EQ(p.load(0, 3, kRho, -1).torque_Nm, 0);
}

// Whicker & Fehlner (1958): a = 1.8 pi A / (1.8 + sqrt(A^2 + 4)).
TEST(Rudder, SmallAngleLiftSlopeIsWhickerAndFehlners) {
  const Rudder clear({.area_m2 = 2, .aspectRatio = 1.5, .hullAbove = false});
  const double formula = 1.8 * std::numbers::pi * 1.5 / (1.8 + std::sqrt(1.5 * 1.5 + 4));
  const double slope = clear.coefficients(1e-4).lift / 1e-4;
  reportFigure("rudder aspect ratio 1.5: lift slope [1/rad]", slope, formula);
  EXPECT_NEAR(slope, formula, 1e-9 * formula);
  const Rudder under({.area_m2 = 2, .aspectRatio = 1.5, .hullAbove = true});
  EXPECT_EQ(under.effectiveAspectRatio(), 3.0);
  EXPECT_NEAR(under.coefficients(1e-4).lift / 1e-4, 1.8 * std::numbers::pi * 3 / (1.8 + std::sqrt(13.0)), 1e-9);
  // Its limits: 0.9 of thin-aerofoil theory's 2 pi for a long blade, within
  // 6 % of slender-wing theory's pi A / 2 for a short one.
  EXPECT_NEAR(Rudder({.aspectRatio = 10, .hullAbove = false}).liftSlope_prad(), 0.9 * 2 * std::numbers::pi,
              0.2 * 0.9 * 2 * std::numbers::pi);
  const double shortSlope = Rudder({.aspectRatio = 0.2, .hullAbove = false}).liftSlope_prad();
  EXPECT_NEAR(shortSlope, std::numbers::pi * 0.2 / 2, 0.06 * std::numbers::pi * 0.2 / 2);
  // Induced drag: C_D = C_D0 + C_L^2 / (pi e A).
  const FoilCoefficients c = clear.coefficients(5 * kDeg);
  EXPECT_NEAR(c.drag, 0.013 + c.lift * c.lift / (std::numbers::pi * 0.9 * 1.5), 1e-12);
}

TEST(Rudder, StallsToAFlatPlatesNormalForce) {
  const Rudder r({.area_m2 = 2, .aspectRatio = 1.5});
  const RudderSettings& s = r.settings();
  double peak = 0, peakAngle = 0, previous = 0, largestStep = 0;
  for (double a = 0; a <= 90 * kDeg; a += 0.01 * kDeg) {
    const FoilCoefficients c = r.coefficients(a);
    if (c.lift > peak) peak = c.lift, peakAngle = a;
    if (a > 0) largestStep = std::max(largestStep, std::abs(c.lift - previous));
    previous = c.lift;
  }
  reportValue("rudder A 1.5 under a hull: stall angle [deg]", peakAngle / kDeg);
  reportValue("rudder A 1.5 under a hull: C_L max", peak);
  EXPECT_GE(peakAngle, s.stallAngle_rad);
  EXPECT_LE(peakAngle, s.stallAngle_rad + s.stallWidth_rad);
  EXPECT_LT(largestStep, 2e-3);  // continuous: no step larger than a slope of 11 per radian allows
  // Broadside, the normal force is the flat plate's (Hoerner 1965).
  const FoilCoefficients broadside = r.coefficients(90 * kDeg);
  reportFigure("rudder broadside: normal-force coefficient", broadside.drag - s.profileDrag, 1.2);
  EXPECT_NEAR(broadside.lift, 0, 1e-12);
  EXPECT_NEAR(broadside.drag, s.profileDrag + 1.2, 1e-12);
  // Past the blend the normal force is C_N90 sin(alpha).
  const double a = 60 * kDeg;
  const FoilCoefficients stalled = r.coefficients(a);
  EXPECT_TRUE(stalled.stalled);
  EXPECT_NEAR(stalled.lift * std::cos(a) + (stalled.drag - s.profileDrag) * std::sin(a), 1.2 * std::sin(a), 1e-12);
}

TEST(Rudder, IsSymmetricAndNeverNaN) {
  const Rudder r({.area_m2 = 1.3, .aspectRatio = 2});
  for (double a = 0; a < 400 * kDeg; a += 0.37 * kDeg) {
    const FoilCoefficients up = r.coefficients(a), down = r.coefficients(-a);
    EXPECT_EQ(up.lift, -down.lift) << a;
    EXPECT_EQ(up.drag, down.drag) << a;
    EXPECT_GT(up.drag, 0);
  }
  const double nan = std::numeric_limits<double>::quiet_NaN(), inf = std::numeric_limits<double>::infinity();
  EXPECT_EQ(r.coefficients(nan).lift, 0);
  EXPECT_EQ(r.coefficients(inf).drag, 0);
  EXPECT_EQ(r.force(0.1, nan, kRho).lift_N, 0);
  EXPECT_EQ(r.force(0.1, 1e300, kRho).lift_N, 0);
  EXPECT_EQ(r.force(0.1, 3, kRho, 0).lift_N, 0);  // dry
  const RudderForce f = r.force(10 * kDeg, 3, kRho, 0.5);
  EXPECT_NEAR(f.lift_N, 0.5 * kRho * 9 * 1.3 * 0.5 * f.coefficients.lift, 1e-9);
  expectRefusal([] { (void)Rudder({.aspectRatio = 0}); }, {"aspectRatio", "0.2 .. 10"});
  expectRefusal([] { (void)Rudder({}, {.stallAngle_rad = 2}); }, {"stallAngle_rad", "2"});
}

}  // namespace
}  // namespace keel::test
