// The harbour app's spray and foam: each boat's effect events from Keel
// (docs/effects.md), turned into droplets and foam patches (effects_view.hpp).
// How many droplets an event throws and how big a patch is are looks, not
// physics: Keel says where, how fast and how much water; these constants only
// say how much of it to draw.
#include "app.hpp"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <numbers>

namespace demo {
namespace {

constexpr float kGravity_mps2 = 9.81f;
constexpr float kDropletsPerSprayRate = 20;    ///< droplets per m^3/s of a spray event's swept volume rate
constexpr int kMaxDropletsPerSpray = 24;       ///< per spray event
constexpr float kDropletsPerSplashEnergy = 4;  ///< droplets per (m/s)^2 of a splash's impact speed
constexpr int kMaxDropletsPerSplash = 160;
constexpr float kFoamLife_s = 5;      ///< a bow wave's foam patch
constexpr float kSplashFoam_s = 4;    ///< a splash's ring of foam
constexpr float kFoamSpacing = 0.7f;  ///< a trail's patches this many radii apart
constexpr float kFoamDrift = 0.25f;   ///< a bow wave's foam drifts aside at this fraction of its speed

}  // namespace

void HarbourApp::emitEffect(const Boat& boat, const keel::EffectEvent& e) {
  const int boatId = boat.id;
  const Ogre::Vector3 at = toOgre(e.position_m), out = toOgre(e.direction), up = Ogre::Vector3::UNIT_Y;
  ++result_.effectEvents[std::size_t(e.kind)];
  const float speed = float(e.speed_mps), rate = std::abs(float(e.rate)), extent = float(e.extent_m);
  switch (e.kind) {
    case keel::EffectKind::Spray: {
      // Thrown out along the faces' normal and up, as a bow's spray sheet is.
      const int n = std::clamp(int(rate * kDropletsPerSprayRate), 1, kMaxDropletsPerSpray);
      effects_->spray(at, (out * 0.8f + up * 0.9f) * speed, n, 0.25f);
      break;
    }
    case keel::EffectKind::BowWave: {
      // A trail: a patch each time the emitter has moved on by most of one.
      const float radius = std::clamp(0.12f * extent + 0.25f, 0.25f, 1.2f);
      auto [it, fresh] = lastFoam_.try_emplace({boatId, e.source}, at);
      // Laid just outside the hull, drifting away from the track as the
      // bow wave spreads: two trails open into a V behind the bow.
      Ogre::Vector3 aside(out.x, 0, out.z);
      if (aside.normalise() < 1e-3f) aside = Ogre::Vector3::ZERO;
      if (fresh || it->second.distance(at) > kFoamSpacing * radius) {
        effects_->foam(at + aside * radius, radius, kFoamLife_s, aside * (kFoamDrift * speed));
        it->second = at;
      }
      if (speed > 1.0f) effects_->spray(at, (out * 0.6f + up * 0.8f) * speed, 1, 0.3f);
      break;
    }
    case keel::EffectKind::Splash: {
      // A ring of droplets thrown out and up round the wetted area, and a
      // ring of foam where they fall; the harder the impact, the more (the
      // event comes at first contact, when little is wet yet: its speed, not
      // its rate, says how hard).
      // The ring is the hull's waterplane, an ellipse along the bow.
      const int n = std::clamp(int(speed * speed * kDropletsPerSplashEnergy), 12, kMaxDropletsPerSplash);
      const btVector3 bow = boat.body->getCenterOfMassTransform().getBasis() * boat.type->axes.forward;
      Ogre::Vector3 ahead(float(bow.x()), 0, float(bow.z()));
      if (ahead.normalise() < 1e-3f) ahead = Ogre::Vector3::UNIT_X;  // bow straight up or down
      const Ogre::Vector3 abeam = up.crossProduct(ahead);
      const float halfLength = std::max(extent, 0.55f * float(boat.type->length_m));
      const float halfBeam = std::max(extent, 0.6f * float(boat.type->beam_m));
      for (int i = 0; i < n; ++i) {
        const float a = 2 * std::numbers::pi_v<float> * float(i) / float(n);
        const Ogre::Vector3 rim = ahead * (std::cos(a) * halfLength) + abeam * (std::sin(a) * halfBeam);
        effects_->spray(at + rim, (rim.normalisedCopy() * 0.5f + up) * std::max(speed, 1.0f), 1, 0.3f);
        if (i % std::max(1, n / 12) == 0) effects_->foam(at + rim, 0.4f * halfBeam, kSplashFoam_s);
      }
      break;
    }
    case keel::EffectKind::Flooding:
      // The water drawn into the hole stirs the surface above it.
      effects_->foam(at, std::clamp(2 * extent, 0.2f, 0.8f), 1.5f);
      break;
  }
}

void HarbourApp::updateEffects(double step_s) {
  for (const auto& boat : harbour_.boats()) {
    for (const keel::EffectEvent& e : boat->action->effects()) emitEffect(*boat, e);
    boat->action->clearEffects();
  }
  const keel::WaterSurface& water = *harbour_.water();
  const double t_s = harbour_.time_s();
  const auto height = [&water, t_s](float x_m, float z_m) {
    return float(water.height(btScalar(x_m), btScalar(z_m), t_s));
  };
  effects_->step(float(step_s), kGravity_mps2, height);
  effects_->draw(harbour_.effectsOn(), height);
  result_.peakDroplets = std::max(result_.peakDroplets, effects_->sprayCount());
}

void HarbourApp::resetEffects() {
  effects_->clear();
  lastFoam_.clear();
}

void HarbourApp::hudEffects() {
  if (!harbour_.effectsOn()) {
    ImGui::Text("spray and foam [E]: off");
    return;
  }
  ImGui::Text("spray and foam [E]: %zu droplets, %zu foam patches", effects_->sprayCount(), effects_->foamCount());
}

}  // namespace demo
