#include "effects.hpp"

#include <algorithm>
#include <cmath>

namespace game {

void BoatEffects::collect(keel::WaterAction& boat) {
  std::array<bool, keel::kEffectSectors> bowNow{};
  for (const keel::EffectEvent& e : boat.effects()) {
    switch (e.kind) {
      case keel::EffectKind::Spray:  // drops of about 2 cm thrown off the face
        spray(e, 0.02f, 4e-6);
        break;
      case keel::EffectKind::Splash:  // a burst around the hull as it lands (rate > 0) or leaves
        spray(e, 0.05f, 6e-5);
        break;
      case keel::EffectKind::Flooding:  // a jet through the hole, along its direction
        particles.push_back({e.position_m, e.velocity_mps, float(e.extent_m), 0.5f});
        break;
      case keel::EffectKind::BowWave: {  // foam from the sector's last point to this one
        const std::size_t s = e.source;
        if (haveBow_[s]) foam.push_back({lastBow_[s], e.position_m, 0.2f + 0.1f * float(e.speed_mps), 4.0f});
        lastBow_[s] = e.position_m, haveBow_[s] = bowNow[s] = true;
        break;
      }
    }
  }
  // A sector that made no bow wave this frame starts a new trail next time.
  for (std::size_t s = 0; s < keel::kEffectSectors; ++s) haveBow_[s] = bowNow[s];
  boat.clearEffects();
}

void BoatEffects::spray(const keel::EffectEvent& e, float size_m, double dropVolume_m3) {
  // The volume the event stands for (its rate over its substep) in drops,
  // at most 32 an event; thrown out along the direction and up, at about
  // the speed the hull meets the water.
  const double volume_m3 = std::abs(double(e.rate)) * substep_s_;
  const int drops = int(std::min(32.0, std::ceil(volume_m3 / dropVolume_m3)));
  const btVector3 out = (e.direction + up_).normalized() * e.speed_mps;
  for (int i = 0; i < drops; ++i) particles.push_back({e.position_m, out, size_m, 1.0f});
}

}  // namespace game
