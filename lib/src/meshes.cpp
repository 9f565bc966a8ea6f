// The closed meshes of keel/meshes.hpp.
#include <keel/meshes.hpp>

#include <BulletCollision/CollisionShapes/btTriangleMesh.h>

namespace keel::KEEL_ABI {

void appendBox(btTriangleMesh& mesh, const btVector3& halfExtents_m, const btTransform& pose) {
  // Corner k has x sign from bit 0, y from bit 1, z from bit 2.
  btVector3 corner[8];
  for (int k = 0; k < 8; ++k)
    corner[k] = pose * btVector3((k & 1) ? halfExtents_m.x() : -halfExtents_m.x(),
                                 (k & 2) ? halfExtents_m.y() : -halfExtents_m.y(),
                                 (k & 4) ? halfExtents_m.z() : -halfExtents_m.z());
  // Each face as a quad wound counter-clockwise seen from outside.
  static const int faces[6][4] = {{0, 4, 6, 2}, {1, 3, 7, 5},   // -x, +x
                                  {0, 1, 5, 4}, {2, 6, 7, 3},   // -y, +y
                                  {0, 2, 3, 1}, {4, 5, 7, 6}};  // -z, +z
  for (const auto& f : faces) {
    mesh.addTriangle(corner[f[0]], corner[f[1]], corner[f[2]], true);
    mesh.addTriangle(corner[f[0]], corner[f[2]], corner[f[3]], true);
  }
}

}  // namespace keel::KEEL_ABI
