#pragma once
// Far boats on the column model (docs/columns.md, "Levels of detail").

#include <keel/water_action.hpp>

namespace game {

/// Puts `boat` on Keel's cheap level of detail (columns, patch sampling,
/// damping only) when the camera is farther than `far_m` from it, and back
/// on `nearDetail` when nearer than `near_m` (< far_m: no flicker at the
/// boundary). Returns whether the boat is on columns.
bool chooseDetail(keel::WaterAction& boat, const keel::LevelOfDetail& nearDetail, const btVector3& camera_m,
                  btScalar near_m, btScalar far_m);

}  // namespace game
