#pragma once
/// @file effects_view.hpp
/// Spray particles and foam patches, drawn from the effect events Keel
/// reports (docs/effects.md). The demo adds no physics here: Keel says where
/// and how fast the water is thrown or churned; this file only turns those
/// events into things to look at (ballistic droplets that fall back into the
/// sea, flat foam patches that fade where the hull passed).

#include <OgreBillboardSet.h>
#include <OgreSceneManager.h>
#include <OgreVector.h>

#include <cstddef>
#include <functional>
#include <random>
#include <vector>

namespace demo {

class EffectsView {
 public:
  /// The water's height [m] at world (x, z) [m], for foam to lie on and
  /// droplets to fall back into.
  using WaterHeight = std::function<float(float x_m, float z_m)>;

  /// Pools of `maxSpray` droplets and `maxFoam` foam patches (the oldest
  /// give way to new ones when full), in `scene`, y up.
  EffectsView(Ogre::SceneManager& scene, std::size_t maxSpray = 3000, std::size_t maxFoam = 2500);
  ~EffectsView();
  EffectsView(const EffectsView&) = delete;
  EffectsView& operator=(const EffectsView&) = delete;

  /// Throws `count` droplets from `at_m` [m, world], spread round
  /// `velocity_mps` [m/s, world] by `spread` (a fraction of its speed).
  void spray(const Ogre::Vector3& at_m, const Ogre::Vector3& velocity_mps, int count, float spread);
  /// A foam patch of `radius_m` [m] at world (x, z) [m] that lives
  /// `life_s` [s], fading out, drifting at `drift_mps` [m/s, world,
  /// horizontal] (a bow wave's foam spreads away from the track).
  void foam(const Ogre::Vector3& at_m, float radius_m, float life_s,
            const Ogre::Vector3& drift_mps = Ogre::Vector3::ZERO);

  /// Advances the droplets by `dt_s` [s] under gravity `g_mps2` [m/s^2]
  /// (down along -y); a droplet ends when it falls into the water.
  void step(float dt_s, float g_mps2, const WaterHeight& water);
  /// Uploads what is alive (or hides everything).
  void draw(bool visible, const WaterHeight& water);
  /// Forgets every droplet and patch (a reset).
  void clear();

  [[nodiscard]] std::size_t sprayCount() const { return spray_.size(); }
  [[nodiscard]] std::size_t foamCount() const { return foam_.size(); }

 private:
  struct Droplet {
    Ogre::Vector3 position_m, velocity_mps;
    float age_s = 0, life_s = 1, size_m = 0.1f;
  };
  struct Patch {
    float x_m = 0, z_m = 0, radius_m = 0.5f, age_s = 0, life_s = 3;
    float driftX_mps = 0, driftZ_mps = 0;
  };

  Ogre::SceneManager& scene_;
  std::size_t maxSpray_, maxFoam_;
  std::vector<Droplet> spray_;
  std::vector<Patch> foam_;
  std::size_t nextFoam_ = 0;       ///< the patch a full pool overwrites next (the oldest)
  std::size_t nextSpray_ = 0;      ///< the droplet a full pool overwrites next
  std::mt19937 random_{20261128};  ///< fixed seed: the same run draws the same spray
  Ogre::BillboardSet* droplets_ = nullptr;
  Ogre::BillboardSet* patches_ = nullptr;
  Ogre::SceneNode* node_ = nullptr;
};

}  // namespace demo
