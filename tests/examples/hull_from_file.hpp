#pragma once
// A hull from a mesh file, with assimp (docs/integration.md, "A hull from a
// mesh file").

#include <keel/hull.hpp>

#include <btBulletDynamicsCommon.h>

#include <memory>
#include <string>

struct aiScene;

namespace game {

/// A hull read from a file, in the centre-of-mass frame of a boat of uniform density.
struct LoadedHull {
  std::shared_ptr<const keel::Hull> hull;  ///< centre-of-mass frame [m]
  btVector3 centreOfMass_m{0, 0, 0};       ///< in the file's frame: where the body's origin goes [m]
  int meshCount = 0;                       ///< assimp meshes joined into it (one per material change)
  keel::HullRepair repair;                 ///< what HullOptions::closeOpenings did, when it was on
};

/// Appends the triangles of every mesh under the nodes named `object` (the
/// whole scene when empty) to `out`, in the file's frame. Returns how many
/// assimp meshes it appended.
int appendObject(const aiScene& scene, const std::string& object, btTriangleMesh& out);

/// Reads `path` (any format assimp reads, in metres) and builds the hull of
/// its object `object`. Throws std::runtime_error when the file cannot be
/// read or has no such object, keel::HullError when the object is no closed
/// hull.
LoadedHull loadHull(const std::string& path, const std::string& object = "hull", const keel::HullOptions& options = {});

}  // namespace game
