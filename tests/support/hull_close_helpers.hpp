// What the HullOptions::closeOpenings tests share: the option on, the hull
// of a mesh, the media boats' hulls as triangle soups, and the round-off of
// an exact volume.
#pragma once

#include "hull_from_file.hpp"
#include "render_hull.hpp"
#include "test_hulls.hpp"

#include <keel/hull.hpp>

#include <assimp/postprocess.h>
#include <assimp/scene.h>
#include <assimp/Importer.hpp>

#include <BulletCollision/CollisionShapes/btTriangleCallback.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>

namespace keel::test {

/// How far two exact computations of one hull's volume [m^3] may differ:
/// Keel sums the triangles' tetrahedra in double (a few dozen roundings of
/// terms about the size of the result, in an order that capping changes)
/// and rounds the sum to btScalar once.
inline double volumeRounding(double volume_m3) {
  return (double(std::numeric_limits<btScalar>::epsilon()) + 32 * std::numeric_limits<double>::epsilon()) *
         std::abs(volume_m3);
}

inline HullOptions closing() {
  HullOptions options;
  options.closeOpenings = true;
  return options;
}

inline Hull make(const Mesh& m, const HullOptions& options = {}) { return Hull(m.vertices, m.triangles, options); }

/// The triangles of a Bullet mesh as a soup: three vertices each, shared by none.
class SoupOf final : public btInternalTriangleIndexCallback {
 public:
  explicit SoupOf(Mesh& out) : out_(out) {}
  void internalProcessTriangleIndex(btVector3* corners, int, int) override {
    const auto first = std::uint32_t(out_.vertices.size());
    out_.vertices.insert(out_.vertices.end(), corners, corners + 3);
    out_.triangles.push_back({first, first + 1, first + 2});
  }

 private:
  Mesh& out_;
};

/// Object "hull" of media/<kind>.obj as docs/integration.md reads it (assimp,
/// game::appendObject), as a soup.
inline Mesh mediaHull(const std::string& kind) {
  Assimp::Importer importer;
  const aiScene* scene = importer.ReadFile(std::string(KEEL_MEDIA_DIR "/") + kind + ".obj",
                                           aiProcess_Triangulate | aiProcess_JoinIdenticalVertices);
  if (!scene) throw std::runtime_error("cannot read " + kind);
  btTriangleMesh mesh;
  game::appendObject(*scene, "hull", mesh);
  Mesh soup;
  SoupOf collect(soup);
  const btVector3 huge(BT_LARGE_FLOAT, BT_LARGE_FLOAT, BT_LARGE_FLOAT);
  mesh.InternalProcessAllTriangles(&collect, -huge, huge);
  return soup;
}

inline btVector3 corner(const Mesh& m, const Hull::Triangle& t, int i) { return m.vertices[t[std::size_t(i)]]; }
inline btVector3 normalOf(const Mesh& m, const Hull::Triangle& t) {
  return (corner(m, t, 1) - corner(m, t, 0)).cross(corner(m, t, 2) - corner(m, t, 0));
}

}  // namespace keel::test
