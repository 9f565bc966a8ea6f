#include "union_boat.hpp"

#include <keel/hydrostatics.hpp>
#include <keel/waves.hpp>

namespace game {

std::shared_ptr<const keel::Hull> unionHull(const btStridingMeshInterface& mesh) {
  keel::HullOptions options;
  options.overlappingParts = true;  // the columns float the parts' union
  return std::make_shared<const keel::Hull>(mesh, options);
}

double massForDraftOnColumns(const keel::Hull& hull, double draft_m, double waterDensity_kgpm3) {
  const keel::ColumnHull columns(hull);
  // Upright, the lowest point draft_m below the water at height 0.
  const btTransform pose(btQuaternion::getIdentity(), btVector3(0, btScalar(-draft_m) - hull.boundsMin().y(), 0));
  const keel::PoseHydrostatics h = keel::hydrostaticsAtPose(hull, columns, pose, keel::FlatSurface());
  return waterDensity_kgpm3 * double(h.pressure.submergedVolume_m3);
}

}  // namespace game
