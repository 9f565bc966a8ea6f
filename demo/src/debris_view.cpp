#include "debris_view.hpp"

#include "scene_builder.hpp"

#include <OgreEntity.h>
#include <OgreManualObject.h>
#include <OgreMeshManager.h>
#include <OgreSceneNode.h>

#include <cmath>
#include <set>

namespace demo {
namespace {

/// Paint of each debris material (diffuse, linear 0..1).
Ogre::ColourValue colourOf(const std::string& material) {
  static const std::map<std::string, Ogre::ColourValue> colours = {
      {"wood", Ogre::ColourValue(0.66f, 0.48f, 0.26f)},  {"dark wood", Ogre::ColourValue(0.42f, 0.28f, 0.15f)},
      {"foam", Ogre::ColourValue(0.93f, 0.93f, 0.90f)},  {"buoy", Ogre::ColourValue(0.90f, 0.20f, 0.08f)},
      {"white", Ogre::ColourValue(0.95f, 0.95f, 0.95f)}, {"fender", Ogre::ColourValue(0.98f, 0.55f, 0.05f)},
      {"hull", Ogre::ColourValue(0.12f, 0.30f, 0.62f)},  {"interior", Ogre::ColourValue(0.78f, 0.66f, 0.46f)},
  };
  const auto found = colours.find(material);
  return found != colours.end() ? found->second : Ogre::ColourValue(0.5f, 0.5f, 0.5f);
}

/// Faces whose normals differ by less than this angle share a smoothed
/// normal: a buoy's sides and a ball look round, a crate's edges stay sharp.
const float kSmoothCos = std::cos(0.7f);

}  // namespace

Ogre::MeshPtr createDebrisMesh(const DebrisType& type) {
  const std::string name = "debris/" + type.kind;
  auto& meshes = Ogre::MeshManager::getSingleton();
  if (meshes.resourceExists(name, Ogre::RGN_DEFAULT)) return meshes.getByName(name, Ogre::RGN_DEFAULT);
  const auto& v = type.vertices_m;
  std::vector<btVector3> faceNormal;
  for (const auto& t : type.triangles) faceNormal.push_back((v[t[1]] - v[t[0]]).cross(v[t[2]] - v[t[0]]).normalized());
  std::set<std::string> materials(type.materials.begin(), type.materials.end());
  Ogre::ManualObject builder(name + "/builder");
  for (const std::string& material : materials) {
    const std::string ogreName = "debris/" + material;
    makeMaterial(ogreName, colourOf(material), Lighting::Lit, 0.2f, 25);
    builder.begin(ogreName, Ogre::RenderOperation::OT_TRIANGLE_LIST);
    Ogre::uint32 next = 0;
    for (std::size_t f = 0; f < type.triangles.size(); ++f) {
      if (type.materials[f] != material) continue;
      for (const std::uint32_t corner : type.triangles[f]) {
        // Smoothed over the faces at this corner that are nearly coplanar with this one.
        btVector3 n(0, 0, 0);
        for (std::size_t g = 0; g < type.triangles.size(); ++g) {
          const auto& t = type.triangles[g];
          const bool shares = t[0] == corner || t[1] == corner || t[2] == corner;
          if (shares && faceNormal[g].dot(faceNormal[f]) > kSmoothCos) n += faceNormal[g];
        }
        n.normalize();
        builder.position(float(v[corner].x()), float(v[corner].y()), float(v[corner].z()));
        builder.normal(float(n.x()), float(n.y()), float(n.z()));
      }
      builder.triangle(next, next + 1, next + 2);
      next += 3;
    }
    builder.end();
  }
  return builder.convertToMesh(name);
}

void DebrisView::sync(const DebrisField& field) {
  std::set<int> alive;
  for (const auto& piece : field.pieces()) {
    alive.insert(piece->id);
    auto found = nodes_.find(piece->id);
    if (found == nodes_.end()) {
      Ogre::Entity* entity = scene_.createEntity("debris/" + std::to_string(piece->id), createDebrisMesh(*piece->type));
      Ogre::SceneNode* node = scene_.getRootSceneNode()->createChildSceneNode();
      node->attachObject(entity);
      found = nodes_.emplace(piece->id, node).first;
    }
    const btTransform& pose = piece->body->getCenterOfMassTransform();
    const btQuaternion q = pose.getRotation();
    found->second->setPosition(pose.getOrigin().x(), pose.getOrigin().y(), pose.getOrigin().z());
    found->second->setOrientation(q.w(), q.x(), q.y(), q.z());
  }
  for (auto it = nodes_.begin(); it != nodes_.end();) {
    if (alive.count(it->first)) {
      ++it;
      continue;
    }
    scene_.destroyEntity("debris/" + std::to_string(it->first));
    scene_.destroySceneNode(it->second);
    it = nodes_.erase(it);
  }
}

}  // namespace demo
