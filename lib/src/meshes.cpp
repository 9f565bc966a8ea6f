// The closed meshes of keel/meshes.hpp.
#include <keel/meshes.hpp>

#include "hull/shape_solids.hpp"

#include <BulletCollision/CollisionShapes/btTriangleMesh.h>

namespace keel::KEEL_ABI {

void appendBox(btTriangleMesh& mesh, const btVector3& halfExtents_m, const btTransform& pose) {
  detail::shape::Soup soup;
  detail::shape::appendBox(halfExtents_m, pose, soup);
  for (std::size_t t = 0; t < soup.size(); t += 3) mesh.addTriangle(soup[t], soup[t + 1], soup[t + 2], true);
}

}  // namespace keel::KEEL_ABI
