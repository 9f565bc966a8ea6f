// Effect events from the waterline (docs/effects.md): a towed hull pushes its
// bow wave and spray at its bow at the tow speed; the buffer's limits,
// rollback, and the page's example.
#include "effects_scenes.hpp"
#include "examples/effects.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <vector>

namespace keel::test::effects {
namespace {

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

TEST(Effects, TheDocsExampleLaysFoamTrailsAndThrowsSpray) {
  // docs/effects.md's game::BoatEffects on the towed box, four substeps a
  // frame: each bow sector's trail advances by the tow's U dt a substep,
  // and the spray flies out of the bow face and up.
  const btScalar U = 5;
  const double draft = 500 / (kRho * 2);
  Towed t(box(btVector3(2, 1, 1)), 500, btScalar(0.5 - draft), U);
  game::BoatEffects effects(btVector3(0, 1, 0), kDt);
  double worst = 0;
  std::size_t segments = 0, drops = 0;
  for (int frame = 0; frame < 60; ++frame) {
    t.w.world.stepSimulation(btScalar(4 * kDt), 4, btScalar(kDt));
    effects.collect(*t.boat);
    EXPECT_TRUE(t.boat->effects().empty());
    for (const game::FoamSegment& f : effects.foam)
      worst = std::max(worst, std::abs(double((f.to_m - f.from_m).length()) - double(U) * kDt));
    for (const game::Particle& p : effects.particles) {
      EXPECT_GT(double(p.velocity_mps.x()), 0.0);
      EXPECT_GT(double(p.velocity_mps.y()), 0.0);
    }
    segments += effects.foam.size(), drops += effects.particles.size();
    effects.foam.clear(), effects.particles.clear();
  }
  reportValue("foam trail segments in 1 s (2 sectors, 240 substeps)", double(segments));
  reportValue("foam segment length, worst error against U dt [m]", worst);
  EXPECT_EQ(segments, 2u * 239);
  EXPECT_GT(drops, 0u);
  EXPECT_LT(worst, 1e-5);
}

}  // namespace
}  // namespace keel::test::effects
