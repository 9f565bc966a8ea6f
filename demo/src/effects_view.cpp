#include "effects_view.hpp"

#include "scene_builder.hpp"

#include <OgreBillboard.h>
#include <OgreImage.h>
#include <OgreMaterialManager.h>
#include <OgrePass.h>
#include <OgreSceneNode.h>
#include <OgreTechnique.h>
#include <OgreTextureManager.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>

namespace demo {
namespace {

constexpr const char* kDiscTexture = "fx/disc";
constexpr float kFoamAlpha = 0.75f;   ///< a fresh patch's opacity
constexpr float kSprayAlpha = 0.85f;  ///< a fresh droplet's opacity
constexpr float kSprayLife_s = 2.5f;  ///< a droplet that never lands ends then
constexpr float kFoamLift_m = 0.03f;  ///< foam drawn this far above the water, over the water's own triangles
constexpr int kDiscSide = 32;         ///< the soft disc texture's side [texels]

/// A white disc whose opacity falls smoothly to zero at its rim, made in
/// code (the demo ships no textures).
void makeDiscTexture() {
  auto& textures = Ogre::TextureManager::getSingleton();
  if (textures.resourceExists(kDiscTexture, Ogre::RGN_DEFAULT)) return;
  static std::array<std::uint8_t, kDiscSide * kDiscSide * 4> texels{};
  for (int j = 0; j < kDiscSide; ++j)
    for (int i = 0; i < kDiscSide; ++i) {
      const float u = (float(i) + 0.5f) / kDiscSide * 2 - 1, v = (float(j) + 0.5f) / kDiscSide * 2 - 1;
      const float r2 = std::min(1.0f, u * u + v * v);
      std::uint8_t* t = &texels[std::size_t(4 * (j * kDiscSide + i))];
      t[0] = t[1] = t[2] = 255;
      t[3] = std::uint8_t(255 * (1 - r2) * (1 - r2));
    }
  Ogre::Image image;
  image.loadDynamicImage(texels.data(), kDiscSide, kDiscSide, 1, Ogre::PF_BYTE_RGBA, false);
  textures.loadImage(kDiscTexture, Ogre::RGN_DEFAULT, image);
}

/// An unlit, alpha-blended material of the disc, coloured per billboard;
/// it writes no depth, so droplets and patches never hide each other.
void makeEffectMaterial(const std::string& name) {
  makeMaterial(name, Ogre::ColourValue::White, Lighting::Unlit);
  Ogre::Pass* pass =
      Ogre::MaterialManager::getSingleton().getByName(name, Ogre::RGN_DEFAULT)->getTechnique(0)->getPass(0);
  if (pass->getNumTextureUnitStates() == 0) pass->createTextureUnitState(kDiscTexture);
  pass->setSceneBlending(Ogre::SBT_TRANSPARENT_ALPHA);
  pass->setDepthWriteEnabled(false);
  pass->setCullingMode(Ogre::CULL_NONE);
}

Ogre::BillboardSet* makeSet(Ogre::SceneManager& scene, const std::string& name, std::size_t pool) {
  Ogre::BillboardSet* set = scene.createBillboardSet(name, unsigned(pool));
  makeEffectMaterial(name);
  set->setMaterialName(name);
  set->setAutoextend(true);
  set->setCastShadows(false);
  return set;
}

}  // namespace

EffectsView::EffectsView(Ogre::SceneManager& scene, std::size_t maxSpray, std::size_t maxFoam)
    : scene_(scene), maxSpray_(maxSpray), maxFoam_(maxFoam) {
  makeDiscTexture();
  spray_.reserve(maxSpray_);
  foam_.reserve(maxFoam_);
  droplets_ = makeSet(scene, "fx/spray", maxSpray_);
  patches_ = makeSet(scene, "fx/foam", maxFoam_);
  // Foam lies flat on the water: billboards facing up, not the camera.
  patches_->setBillboardType(Ogre::BBT_PERPENDICULAR_COMMON);
  patches_->setCommonDirection(Ogre::Vector3::UNIT_Y);
  patches_->setCommonUpVector(Ogre::Vector3::UNIT_Z);
  node_ = scene.getRootSceneNode()->createChildSceneNode();
  node_->attachObject(patches_);
  node_->attachObject(droplets_);
}

EffectsView::~EffectsView() {
  node_->detachAllObjects();
  scene_.destroyBillboardSet(droplets_);
  scene_.destroyBillboardSet(patches_);
  scene_.destroySceneNode(node_);
}

void EffectsView::spray(const Ogre::Vector3& at_m, const Ogre::Vector3& velocity_mps, int count, float spread) {
  const float speed = velocity_mps.length();
  std::normal_distribution<float> jitter(0, spread * std::max(speed, 0.5f));
  std::uniform_real_distribution<float> size(0.12f, 0.32f), life(0.6f, 1.0f);
  for (int i = 0; i < count; ++i) {
    Droplet d;
    d.position_m = at_m;
    d.velocity_mps = velocity_mps + Ogre::Vector3(jitter(random_), std::abs(jitter(random_)), jitter(random_));
    d.size_m = size(random_);
    d.life_s = kSprayLife_s * life(random_);
    if (spray_.size() < maxSpray_) {
      spray_.push_back(d);
    } else {  // full: one in turn gives way
      spray_[nextSpray_] = d;
      nextSpray_ = (nextSpray_ + 1) % maxSpray_;
    }
  }
}

void EffectsView::foam(const Ogre::Vector3& at_m, float radius_m, float life_s, const Ogre::Vector3& drift_mps) {
  const Patch p{at_m.x, at_m.z, radius_m, 0, life_s, drift_mps.x, drift_mps.z};
  if (foam_.size() < maxFoam_) {
    foam_.push_back(p);
  } else {
    foam_[nextFoam_] = p;
    nextFoam_ = (nextFoam_ + 1) % maxFoam_;
  }
}

void EffectsView::step(float dt_s, float g_mps2, const WaterHeight& water) {
  for (Droplet& d : spray_) {
    d.velocity_mps.y -= g_mps2 * dt_s;
    d.position_m += d.velocity_mps * dt_s;
    d.age_s += dt_s;
  }
  // A droplet that falls back into the sea ends (and leaves a little foam).
  for (std::size_t i = 0; i < spray_.size();) {
    Droplet& d = spray_[i];
    const bool landed = d.velocity_mps.y < 0 && d.position_m.y < water(d.position_m.x, d.position_m.z);
    if (landed && d.size_m > 0.26f) foam(d.position_m, 0.25f, 1.5f);
    if (landed || d.age_s > d.life_s) {
      d = spray_.back();
      spray_.pop_back();
    } else {
      ++i;
    }
  }
  for (Patch& p : foam_) {
    p.age_s += dt_s;
    p.x_m += p.driftX_mps * dt_s;
    p.z_m += p.driftZ_mps * dt_s;
  }
  std::erase_if(foam_, [](const Patch& p) { return p.age_s > p.life_s; });
  nextFoam_ = foam_.empty() ? 0 : nextFoam_ % foam_.size();
  nextSpray_ = spray_.empty() ? 0 : nextSpray_ % spray_.size();
}

void EffectsView::draw(bool visible, const WaterHeight& water) {
  node_->setVisible(visible);
  droplets_->clear();
  patches_->clear();
  if (!visible) return;
  for (const Droplet& d : spray_) {
    const float fade = 1 - d.age_s / d.life_s;
    Ogre::Billboard* b = droplets_->createBillboard(d.position_m, Ogre::ColourValue(1, 1, 1, kSprayAlpha * fade));
    b->setDimensions(d.size_m, d.size_m);
  }
  for (const Patch& p : foam_) {
    // Foam spreads as it fades.
    const float f = p.age_s / p.life_s;
    const Ogre::Vector3 at(p.x_m, water(p.x_m, p.z_m) + kFoamLift_m, p.z_m);
    Ogre::Billboard* b = patches_->createBillboard(at, Ogre::ColourValue(0.95f, 0.97f, 1, kFoamAlpha * (1 - f)));
    const float side = 2 * p.radius_m * (1 + 0.6f * f);
    b->setDimensions(side, side);
  }
  droplets_->_updateBounds();
  patches_->_updateBounds();
}

void EffectsView::clear() {
  spray_.clear();
  foam_.clear();
  nextFoam_ = nextSpray_ = 0;
}

}  // namespace demo
