#include "far_boats.hpp"

namespace game {

bool chooseDetail(keel::WaterAction& boat, const keel::LevelOfDetail& nearDetail, const btVector3& camera_m,
                  btScalar near_m, btScalar far_m) {
  const btScalar distance = (boat.centreOfMass() - camera_m).length();
  const bool onColumns = boat.buoyancyModel() == keel::BuoyancyModel::Columns;
  if (!onColumns && distance > far_m)
    boat.setLevelOfDetail(keel::farBoatSettings(*boat.hull(), boat.settings().waterDensity_kgpm3));
  else if (onColumns && distance < near_m)
    boat.setLevelOfDetail(nearDetail);
  return boat.buoyancyModel() == keel::BuoyancyModel::Columns;
}

}  // namespace game
