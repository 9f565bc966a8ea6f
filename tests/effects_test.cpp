// Effect events (docs/effects.md): a box dropped on flat water splashes where
// and when it lands, a towed hull pushes its bow wave and spray at its bow at
// the tow speed, a hole floods at the hole with the orifice law's flow, and
// nothing is reported at rest or while off.
#include "test_hulls.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <vector>

namespace keel::test {
namespace {

constexpr double kDt = 1.0 / 240;
constexpr double kRho = 1025;

/// The events of `kind` among `events`.
std::vector<EffectEvent> ofKind(std::span<const EffectEvent> events, EffectKind kind) {
  std::vector<EffectEvent> out;
  for (const EffectEvent& e : events)
    if (e.kind == kind) out.push_back(e);
  return out;
}

EffectSettings on() {
  EffectSettings e;
  e.enabled = true;
  return e;
}

void step(World& w) { w.world.stepSimulation(btScalar(kDt), 1, btScalar(kDt)); }

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

/// A 2 x 1 x 1 m box of 500 kg (draft 0.244 m) whose bottom starts `drop_m`
/// above flat water at rest, in a world whose up is axis `upAxis`.
struct DroppedBox {
  DroppedBox(int upAxis, btScalar drop_m, BuoyancyModel model = BuoyancyModel::Triangles)
      : up(upAxis == 1 ? btVector3(0, 1, 0) : btVector3(0, 0, 1)), w(-up * btScalar(9.81)) {
    // The box's length (2 m) along x, its height (1 m) along up (y or z).
    size = btVector3(2, 1, 1);
    body = w.addBox(size, 500, btTransform(btQuaternion::getIdentity(), up * (drop_m + btScalar(0.5))));
    boat = std::make_unique<WaterAction>(body, hullOf(box(size)), std::make_shared<FlatSurface>());
    if (model == BuoyancyModel::Columns) setModel(*boat, model);
    boat->setEffects(on());
    w.world.addAction(boat.get());
  }
  ~DroppedBox() { w.world.removeAction(boat.get()); }
  btVector3 up;
  World w;
  btVector3 size;
  btRigidBody* body = nullptr;
  std::unique_ptr<WaterAction> boat;
};

/// Drops the box and returns the first Splash it reports (within 2 s).
EffectEvent firstSplash(DroppedBox& d) {
  for (int i = 0; i < 480; ++i) {
    step(d.w);
    const std::vector<EffectEvent> splashes = ofKind(d.boat->effects(), EffectKind::Splash);
    if (!splashes.empty()) return splashes.front();
  }
  ADD_FAILURE() << "no splash";
  return {};
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
  World w;
  const double draft = 500 / (kRho * 2);
  btRigidBody* body = w.addBox(btVector3(2, 1, 1), 500,
                               btTransform(btQuaternion::getIdentity(), btVector3(0, btScalar(0.5 - draft), 0)));
  WaterAction boat(body, hullOf(box(btVector3(2, 1, 1))), std::make_shared<FlatSurface>());
  boat.setEffects(on());
  w.world.addAction(&boat);
  for (int i = 0; i < 5 * 240; ++i) step(w);
  w.world.removeAction(&boat);
  EXPECT_TRUE(boat.effects().empty());
  reportValue("events from a box at rest in 5 s", double(boat.effects().size()));
}

TEST(Effects, ADroppedBoxFallsQuietOnceAfloat) {
  DroppedBox d(1, 1);
  for (int i = 0; i < 30 * 240; ++i) step(d.w);
  EXPECT_FALSE(d.boat->effects().empty());
  d.boat->clearEffects();
  for (int i = 0; i < 2 * 240; ++i) step(d.w);
  EXPECT_TRUE(d.boat->effects().empty()) << d.boat->effects().size() << " events after 30 s";
}

TEST(Effects, ColumnsSplashToo) {
  DroppedBox d(1, 1, BuoyancyModel::Columns);
  const EffectEvent e = firstSplash(d);
  EXPECT_NEAR(e.time_s, std::sqrt(2 / 9.81), kDt);
  EXPECT_NEAR(double(e.position_m.y()), 0.0, 1e-5);
  EXPECT_LT(std::abs(double(e.position_m.x())), 1.0);
  EXPECT_LT(std::abs(double(e.position_m.z())), 0.5);
}

/// A hull towed at `speed_mps` along x on flat water: free to heave only.
struct Towed {
  Towed(const Mesh& mesh, btScalar mass_kg, btScalar centreHeight_m, btScalar speed_mps,
        const EffectSettings& effects = on()) {
    body = w.addBox(btVector3(2, 1, 1), mass_kg,
                    btTransform(btQuaternion::getIdentity(), btVector3(0, centreHeight_m, 0)));
    body->setLinearFactor(btVector3(0, 1, 0));  // the tow holds the speed
    body->setAngularFactor(btVector3(0, 0, 0));
    body->setLinearVelocity(btVector3(speed_mps, 0, 0));
    boat = std::make_unique<WaterAction>(body, hullOf(mesh), std::make_shared<FlatSurface>());
    boat->setEffects(effects);
    w.world.addAction(boat.get());
  }
  ~Towed() { w.world.removeAction(boat.get()); }
  World w;
  btRigidBody* body = nullptr;
  std::unique_ptr<WaterAction> boat;
};

TEST(Effects, ATowedBoxPushesItsBowWaveAndSprayAtItsBowFace) {
  // The bow face (normal +x) meets the water at the tow speed U: the bow
  // wave along its waterline, of rate U B (the beam B swept per second),
  // and spray of rate U B T (its wet area swept), T the draft there. The
  // sides slide through the water and the stern leaves it: neither reports.
  const btScalar U = 5, B = 1, L = 2;
  const double draft = 500 / (kRho * 2);
  Towed t(box(btVector3(L, 1, B)), 500, btScalar(0.5 - draft), U);
  for (int i = 0; i < 240; ++i) step(t.w);
  double worstBow = 0, worstSpray = 0, worstSpeed = 0, worstPlace = 0;
  for (int i = 0; i < 240; ++i) {
    t.boat->clearEffects();
    step(t.w);
    const btVector3 centre = t.boat->centreOfMass();
    const double T = 0.5 - double(centre.y());
    const std::vector<EffectEvent> bow = ofKind(t.boat->effects(), EffectKind::BowWave);
    const std::vector<EffectEvent> spray = ofKind(t.boat->effects(), EffectKind::Spray);
    ASSERT_FALSE(bow.empty());
    ASSERT_FALSE(spray.empty());
    double bowRate = 0, bowLength = 0, sprayRate = 0;
    for (const EffectEvent& e : bow) {
      bowRate += double(e.rate), bowLength += double(e.extent_m);
      worstSpeed = std::max(worstSpeed, std::abs(double(e.speed_mps) - double(U)) / double(U));
      worstPlace = std::max({worstPlace, std::abs(double(e.position_m.x() - centre.x()) - 0.5 * double(L)),
                             std::abs(double(e.position_m.y()))});
      EXPECT_NEAR(double(e.direction.x()), 1.0, 1e-5);
      EXPECT_NEAR(double(e.velocity_mps.x()), double(U), 1e-4 * double(U));
    }
    for (const EffectEvent& e : spray) sprayRate += double(e.rate);
    EXPECT_NEAR(bowLength, double(B), 1e-5);
    worstBow = std::max(worstBow, std::abs(bowRate - double(U * B)) / double(U * B));
    worstSpray = std::max(worstSpray, std::abs(sprayRate - double(U * B) * T) / (double(U * B) * T));
  }
  reportValue("bow wave rate, worst relative error against U B", worstBow);
  reportValue("spray rate, worst relative error against U B T", worstSpray);
  reportValue("bow wave speed, worst relative error against U", worstSpeed);
  reportValue("bow wave position, worst distance from the bow face's waterline [m]", worstPlace);
  EXPECT_LT(worstBow, 1e-5);
  EXPECT_LT(worstSpray, 1e-4);
  EXPECT_LT(worstSpeed, 1e-5);
  EXPECT_LT(worstPlace, 1e-5);
}

TEST(Effects, ATowedBoatMakesItsBowWaveForwardOfMidshipsAtTheTowSpeed) {
  // A 10 m boat (pointed bow at +x) towed at 6 m/s: the bow wave and the
  // spray lie forward of midships on the waterline, and the hull's velocity
  // relative to the water there is the tow's.
  const Mesh mesh = boatHull(10, 3, 2);
  const btScalar U = 6;
  const auto hull = hullOf(mesh);
  Towed t(mesh, btScalar(0.3 * kRho * double(hull->volume_m3())), 0, U);
  for (int i = 0; i < 3 * 240; ++i) step(t.w);
  std::vector<EffectEvent> bow, spray;
  for (int i = 0; i < 240; ++i) {  // read and cleared each substep, as a game does each step
    t.boat->clearEffects();
    step(t.w);
    for (const EffectEvent& e : ofKind(t.boat->effects(), EffectKind::BowWave)) bow.push_back(e);
    for (const EffectEvent& e : ofKind(t.boat->effects(), EffectKind::Spray)) spray.push_back(e);
  }
  ASSERT_FALSE(bow.empty());
  // The centre of mass at an event's substep: x = U t, from x = 0 at t = 0.
  auto forward = [&](const EffectEvent& e) { return double(e.position_m.x()) - double(U) * e.time_s; };
  double aftmost = 1e9, worstSpeed = 0, worstHeight = 0;
  for (const EffectEvent& e : bow) {
    aftmost = std::min(aftmost, forward(e));
    worstSpeed = std::max(worstSpeed, std::abs(double(e.velocity_mps.length()) - double(U)) / double(U));
    worstHeight = std::max(worstHeight, std::abs(double(e.position_m.y())));
    EXPECT_LE(double(e.speed_mps), double(U) * (1 + 1e-5));
    EXPECT_GT(double(e.direction.x()), 0.0);
  }
  for (const EffectEvent& e : spray) EXPECT_GT(forward(e), 0.0);
  reportValue("bow wave events a substep, 10 m boat at 6 m/s", double(bow.size()) / 240);
  reportValue("spray events a substep", double(spray.size()) / 240);
  reportValue("aftmost bow wave event, forward of midships [m]", aftmost);
  reportValue("relative speed at the bow wave, worst relative error against the tow's", worstSpeed);
  EXPECT_GT(aftmost, 0.0);
  EXPECT_LT(worstSpeed, 0.01);   // the boat heaves a little as it settles
  EXPECT_LT(worstHeight, 1e-4);  // on the waterline of flat water
  EXPECT_LE(bow.size(), 240 * kEffectSectors);
}

TEST(Effects, AHoleFloodsAtTheHoleWithTheOrificeFlow) {
  // The box of FloodingPhysics.FillsThroughAHoleInTorricellisTime, held with
  // its keel 1.5 m deep, holed at its compartment's floor: the Flooding
  // event sits at the hole, with the flow the model moved (the
  // compartment's inflow) and, at the first substep, the orifice law's
  // Cd w sqrt(2 g) (2/3) ((H + a/2)^1.5 - (H - a/2)^1.5) over the hole's height a.
  World w;
  const btTransform pose(btQuaternion::getIdentity(), btVector3(0, btScalar(-0.5), 0));
  btRigidBody* body = w.addBox(btVector3(4, 2, 4), 20000, pose);
  WaterAction boat(body, hullOf(box(btVector3(4, 2, 4))), std::make_shared<FlatSurface>());
  const btScalar a = btScalar(0.002), area = btScalar(0.004);
  Compartment room{"room", hullOf(box(btVector3(1, 2, 1))), {}, 0, 0, 1};
  const btVector3 hole(0, -1 + a / 2, 0);
  room.openings.push_back(Opening{hole, area, btScalar(0.6), a});
  boat.setCompartments({room});
  boat.setEffects(on());
  w.world.addAction(&boat);
  const double g = 9.81;
  double worst = 0;
  for (int i = 0; i < 240; ++i) {
    boat.clearEffects();
    step(w);
    body->setWorldTransform(pose);  // held fixed
    body->setLinearVelocity(btVector3(0, 0, 0));
    body->setAngularVelocity(btVector3(0, 0, 0));
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
  w.world.removeAction(&boat);
}

TEST(Effects, AFullBufferCountsWhatItDrops) {
  // The towed box reports two bow wave and two spray sectors a substep.
  EffectSettings e = on();
  e.capacity = 3;
  const double draft = 500 / (kRho * 2);
  Towed t(box(btVector3(2, 1, 1)), 500, btScalar(0.5 - draft), 5, e);
  step(t.w);
  t.boat->clearEffects();
  for (int i = 0; i < 10; ++i) step(t.w);
  EXPECT_EQ(t.boat->effects().size(), 3u);
  EXPECT_EQ(t.boat->droppedEffects(), 4u * 10 - 3);
  reportValue("events dropped by a buffer of 3 over 10 substeps", double(t.boat->droppedEffects()));
  t.boat->clearEffects();
  EXPECT_EQ(t.boat->droppedEffects(), 0u);
  // At most this many per kind: one sector reported of each.
  e.capacity = 64;
  e.maxSprayPerSubstep = 1;
  e.maxBowWavePerSubstep = 1;
  t.boat->setEffects(e);
  step(t.w);
  EXPECT_EQ(ofKind(t.boat->effects(), EffectKind::Spray).size(), 1u);
  EXPECT_EQ(ofKind(t.boat->effects(), EffectKind::BowWave).size(), 1u);
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

TEST(Effects, RollbackDropsTheEventsOfTheSubstepsItUndoes) {
  // Save after 10 substeps, report 5 more, roll back: the events of those
  // 5 go, the first 10 substeps' stay; simulated again, the same events
  // come back, bit for bit.
  const double draft = 500 / (kRho * 2);
  Towed t(box(btVector3(2, 1, 1)), 500, btScalar(0.5 - draft), 5);
  for (int i = 0; i < 10; ++i) step(t.w);
  const std::size_t kept = t.boat->effects().size();
  const WaterActionState saved = t.boat->saveState();
  const btTransform pose = t.body->getWorldTransform();
  const btVector3 velocity = t.body->getLinearVelocity();
  for (int i = 0; i < 5; ++i) step(t.w);
  const std::vector<EffectEvent> first(t.boat->effects().begin(), t.boat->effects().end());
  ASSERT_GT(first.size(), kept);
  t.boat->restoreState(saved);
  EXPECT_EQ(t.boat->effects().size(), kept);
  t.body->setWorldTransform(pose);
  t.body->setLinearVelocity(velocity);
  for (int i = 0; i < 5; ++i) step(t.w);
  ASSERT_EQ(t.boat->effects().size(), first.size());
  for (std::size_t i = 0; i < first.size(); ++i) {
    EXPECT_EQ(std::memcmp(&t.boat->effects()[i].position_m, &first[i].position_m, sizeof(btVector3)), 0) << i;
    EXPECT_EQ(t.boat->effects()[i].rate, first[i].rate) << i;
    EXPECT_EQ(t.boat->effects()[i].time_s, first[i].time_s) << i;
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
}  // namespace keel::test
