// Effect events (docs/effects.md): a box dropped on flat water splashes where
// and when it lands, a hole floods at the hole with the orifice law's flow,
// a fleet's boats report their own, and nothing is reported at rest or
// while off. The waterline's events: effects_waterline_test.cpp.
#include "effects_scenes.hpp"
#include "holed_box.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

namespace keel::test::effects {
namespace {

TEST(Effects, OffByDefaultReportNothing) {
  World w;
  btRigidBody* body = w.addBox(btVector3(2, 1, 1), 500, btTransform(btQuaternion::getIdentity(), btVector3(0, 1, 0)));
  WaterAction boat(body, hullOf(box(btVector3(2, 1, 1))), std::make_shared<FlatSurface>());
  EXPECT_FALSE(boat.effectSettings().enabled);
  w.world.addAction(&boat);
  for (int i = 0; i < 240; ++i) step(w);  // it lands: a splash, were it on
  w.world.removeAction(&boat);
  EXPECT_TRUE(boat.effects().empty());
  EXPECT_EQ(boat.droppedEffects(), 0u);
  boat.clearEffects();  // harmless while off
}

TEST(Effects, ABoxDroppedOnFlatWaterSplashesWhereAndWhenItLands) {
  // Falling h = 1 m from rest, the box meets the water at sqrt(2 h / g)
  // (0.4515 s) with sqrt(2 g h) (4.43 m/s): the splash is reported at the
  // substep whose end first finds the hull wet, within one substep of it,
  // at the box's centre on the water plane, in a y-up and a z-up world.
  for (const int upAxis : {1, 2}) {
    SCOPED_TRACE(upAxis == 1 ? "y up" : "z up");
    const double h = 1, g = 9.81;
    DroppedBox d(upAxis, btScalar(h));
    const EffectEvent e = firstSplash(d);
    const double fallTime = std::sqrt(2 * h / g), impact = std::sqrt(2 * g * h);
    if (upAxis == 1) {
      reportFigure("splash time after a 1 m drop [s]", e.time_s, fallTime);
      reportFigure("splash impact speed [m/s]", double(e.speed_mps), impact);
    }
    EXPECT_NEAR(e.time_s, fallTime, kDt);
    // Bullet's semi-implicit Euler runs at most one substep's g dt ahead.
    EXPECT_NEAR(double(e.speed_mps), impact, g * kDt + 0.01 * impact);
    // On the water plane, inside the footprint (here: its centre, the box level).
    EXPECT_NEAR(double(e.position_m.dot(d.up)), 0.0, 1e-5);
    const btVector3 across = e.position_m - d.up * e.position_m.dot(d.up);
    EXPECT_LT(std::abs(double(across.x())), 1e-4);
    EXPECT_LT(double(across.length()), 1e-4);
    EXPECT_NEAR(double(e.direction.dot(d.up)), 1.0, 1e-6);
    EXPECT_LT(double(e.velocity_mps.dot(d.up)), 0.0);  // falling into the water
    // Entering: the displaced volume grows by at most the footprint times
    // the impact speed; the wetted area is about the 2 m^2 bottom.
    EXPECT_GT(double(e.rate), 0.0);
    EXPECT_LE(double(e.rate), 2.0 * double(e.speed_mps) * (1 + 1e-4));
    EXPECT_NEAR(double(e.extent_m), std::sqrt(2 / 3.14159265358979323846), 0.05);
  }
}

TEST(Effects, ABoxAtRestReportsNothing) {
  // Afloat at its draft from the start: the first substep notes the hull
  // wet (no splash for a boat already in the water), and nothing moves.
  DroppedBox d(1, btScalar(-500 / (kRho * 2)));
  for (int i = 0; i < 5 * 240; ++i) step(d.w);
  EXPECT_TRUE(d.boat->effects().empty());
  reportValue("events from a box at rest in 5 s", double(d.boat->effects().size()));
}

TEST(Effects, ADroppedBoxFallsQuietOnceAfloat) {
  DroppedBox d(1, 1);
  for (int i = 0; i < 30 * 240; ++i) step(d.w);
  EXPECT_FALSE(d.boat->effects().empty());
  d.boat->clearEffects();
  for (int i = 0; i < 2 * 240; ++i) step(d.w);
  EXPECT_TRUE(d.boat->effects().empty()) << d.boat->effects().size() << " events after 30 s";
}

TEST(Effects, ABoxLeapingOutOfTheWaterSplashesAsItLeavesAndAsItLandsAgain) {
  // Afloat at rest, then thrown up at 6 m/s: it leaves the water (rate < 0,
  // where its centre of buoyancy last met the water) and falls back in.
  DroppedBox d(1, btScalar(-500 / (kRho * 2)));
  step(d.w);
  d.body->setLinearVelocity(btVector3(0, 6, 0));
  for (int i = 0; i < 2 * 240; ++i) step(d.w);
  const std::vector<EffectEvent> s = ofKind(d.boat->effects(), EffectKind::Splash);
  ASSERT_GE(s.size(), 2u);
  EXPECT_LT(double(s[0].rate), 0.0);  // leaving
  EXPECT_GT(double(s[0].velocity_mps.y()), 0.0);
  EXPECT_NEAR(double(s[0].position_m.y()), 0.0, 1e-5);
  // The centre of the last wet substep's sliver of displaced volume, in float.
  EXPECT_LT(double(btVector3(s[0].position_m.x(), 0, s[0].position_m.z()).length()), 1e-3);
  EXPECT_GT(double(s[1].rate), 0.0);  // landing again
  EXPECT_LT(double(s[1].velocity_mps.y()), 0.0);
  EXPECT_GT(s[1].time_s, s[0].time_s);
  reportValue("leaving splash: speed along up [m/s]", double(s[0].speed_mps));
}

TEST(Effects, ColumnsSplashToo) {
  DroppedBox d(1, 1, BuoyancyModel::Columns);
  const EffectEvent e = firstSplash(d);
  EXPECT_NEAR(e.time_s, std::sqrt(2 / 9.81), kDt);
  EXPECT_NEAR(double(e.position_m.y()), 0.0, 1e-5);
  EXPECT_LT(std::abs(double(e.position_m.x())), 1.0);
  EXPECT_LT(std::abs(double(e.position_m.z())), 0.5);
}

TEST(Effects, AHoleFloodsAtTheHoleWithTheOrificeFlow) {
  // The box of FloodingPhysics.FillsThroughAHoleInTorricellisTime, held with
  // its keel 1.5 m deep, holed at its compartment's floor: the Flooding
  // event sits at the hole, with the flow the model moved (the
  // compartment's inflow) and, at the first substep, the orifice law's
  // Cd w sqrt(2 g) (2/3) ((H + a/2)^1.5 - (H - a/2)^1.5) over the hole's height a.
  HoledBox scene;
  WaterAction& boat = scene.boat;
  const btScalar a = HoledBox::kHoleHeight_m, area = HoledBox::kHoleArea_m2;
  const btVector3& hole = scene.hole_m;
  boat.setEffects(on());
  const double g = 9.81;
  double worst = 0;
  for (int i = 0; i < 240; ++i) {
    boat.clearEffects();
    scene.stepHeld(kDt);
    const std::vector<EffectEvent> f = ofKind(boat.effects(), EffectKind::Flooding);
    ASSERT_EQ(f.size(), 1u);
    const EffectEvent& e = f[0];
    EXPECT_EQ(e.rate, boat.flooding().compartments[0].inflow_m3ps);
    // The substep sees the body as Bullet integrated it, a little lower
    // than where it is held between steps.
    const btVector3 at = boat.centreOfMass() + hole;
    EXPECT_LT(double((e.position_m - at).length()), 1e-6);
    EXPECT_NEAR(double(e.direction.y()), 1.0, 1e-6);  // up into the compartment
    EXPECT_NEAR(double(e.speed_mps), double(e.rate) / (0.6 * double(area)), 1e-5 * double(e.speed_mps));
    EXPECT_EQ(e.source, 0u);
    if (i == 0) {
      const double H = -double(at.y());  // the hole's centre below the water
      const double orifice = 0.6 * double(area / a) * std::sqrt(2 * g) * (2.0 / 3) *
                             (std::pow(H + double(a) / 2, 1.5) - std::pow(H - double(a) / 2, 1.5));
      reportFigure("first substep's flooding rate [m^3/s]", double(e.rate), orifice);
      reportFigure("jet speed [m/s] against sqrt(2 g H)", double(e.speed_mps), std::sqrt(2 * g * H));
      worst = std::abs(double(e.rate) - orifice) / orifice;
    }
  }
  EXPECT_LT(worst, 1e-5);
}

TEST(Effects, AFleetsBoatsReportTheirOwn) {
  World w;
  WaterFleet fleet(std::make_shared<FlatSurface>(), 2);
  std::vector<WaterAction*> boats;
  for (int i = 0; i < 4; ++i) {
    btRigidBody* body = w.addBox(
        btVector3(2, 1, 1), 500,
        btTransform(btQuaternion::getIdentity(),
                    btVector3(btScalar(5 * i), btScalar(1 + i) * btScalar(0.5) + btScalar(0.5), 0)));
    boats.push_back(&fleet.add(body, hullOf(box(btVector3(2, 1, 1)))));
    boats.back()->setEffects(on());
  }
  w.world.addAction(&fleet);
  for (int i = 0; i < 240; ++i) step(w);
  w.world.removeAction(&fleet);
  for (int i = 0; i < 4; ++i) {
    const std::vector<EffectEvent> s = ofKind(boats[std::size_t(i)]->effects(), EffectKind::Splash);
    ASSERT_FALSE(s.empty()) << "boat " << i;
    EXPECT_NEAR(double(s[0].position_m.x()), 5.0 * i, 1e-4);
    EXPECT_NEAR(s[0].time_s, std::sqrt(2 * 0.5 * (1 + i) / 9.81), kDt);
  }
}

TEST(Effects, BadSettingsAreRefusedNamingTheField) {
  World w;
  btRigidBody* body = w.addBox(btVector3(2, 1, 1), 500, btTransform::getIdentity());
  WaterAction boat(body, hullOf(box(btVector3(2, 1, 1))), std::make_shared<FlatSurface>());
  auto refused = [&](EffectSettings e, const char* field) {
    try {
      boat.setEffects(e);
      ADD_FAILURE() << field << " accepted";
    } catch (const std::invalid_argument& x) {
      EXPECT_NE(std::string(x.what()).find(field), std::string::npos) << x.what();
    }
    EXPECT_FALSE(boat.effectSettings().enabled);
  };
  EffectSettings e = on();
  e.capacity = 0;
  refused(e, "capacity");
  e = on();
  e.sprayMinSpeed_mps = 0;
  refused(e, "sprayMinSpeed_mps");
  e = on();
  e.bowWaveMinSpeed_mps = std::numeric_limits<btScalar>::quiet_NaN();
  refused(e, "bowWaveMinSpeed_mps");
  e = on();
  e.splashMinSpeed_mps = -1;
  refused(e, "splashMinSpeed_mps");
  e = on();
  e.maxSprayPerSubstep = kEffectSectors + 1;
  refused(e, "maxSprayPerSubstep");
}

}  // namespace
}  // namespace keel::test::effects
