#pragma once
/// @file debris_view.hpp
/// Draws the harbour's debris: one Ogre mesh per kind (its few triangles,
/// flat where they meet at an edge, smooth round a buoy or a ball), one
/// scene node per piece at Bullet's pose.

#include "debris.hpp"

#include <OgreMesh.h>
#include <OgreSceneManager.h>

#include <map>

namespace demo {

/// The Ogre mesh of `type`, in its body frame; named "debris/<kind>".
Ogre::MeshPtr createDebrisMesh(const DebrisType& type);

class DebrisView {
 public:
  explicit DebrisView(Ogre::SceneManager& scene) : scene_(scene) {}
  DebrisView(const DebrisView&) = delete;
  DebrisView& operator=(const DebrisView&) = delete;

  /// Places a node at each piece's pose (Bullet's centre-of-mass transform,
  /// at the physics clock like the water), creating and removing nodes as
  /// pieces come and go.
  void sync(const DebrisField& field);

 private:
  Ogre::SceneManager& scene_;
  std::map<int, Ogre::SceneNode*> nodes_;  ///< by piece id
};

}  // namespace demo
