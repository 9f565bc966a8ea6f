#pragma once
// Effect events to particles and foam (docs/effects.md): what a renderer
// takes from each boat after the physics step.

#include <keel/effects.hpp>
#include <keel/water_action.hpp>

#include <LinearMath/btVector3.h>

#include <array>
#include <vector>

namespace game {

/// One particle for the game's particle system.
struct Particle {
  btVector3 position_m, velocity_mps;  ///< world
  float size_m = 0, life_s = 0;
};

/// A piece of foam trail on the water, from one emitter's last point to its new one.
struct FoamSegment {
  btVector3 from_m, to_m;  ///< world, on the water
  float width_m = 0, life_s = 0;
};

/// Turns one boat's effect events into spray, splash and jet particles and
/// foam trails, then clears them: call once a frame, after stepSimulation.
class BoatEffects {
 public:
  /// `up` is the world's up (-gravity, unit); `substep_s` the fixed substep
  /// each event stands for.
  BoatEffects(const btVector3& up, double substep_s) : up_(up), substep_s_(substep_s) {}
  void collect(keel::WaterAction& boat);
  std::vector<Particle> particles;  ///< this frame's new ones (the game moves, ages and clears them)
  std::vector<FoamSegment> foam;    ///< this frame's new trail pieces

 private:
  void spray(const keel::EffectEvent& e, float size_m, double dropVolume_m3);
  btVector3 up_;
  double substep_s_;
  /// Each bow-wave sector's last point, for its trail, and whether it has one.
  std::array<btVector3, keel::kEffectSectors> lastBow_{};
  std::array<bool, keel::kEffectSectors> haveBow_{};
};

}  // namespace game
