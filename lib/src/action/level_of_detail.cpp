// The levels of detail (level_of_detail.hpp) and WaterAction::setLevelOfDetail.
#include <keel/level_of_detail.hpp>
#include <keel/water_action.hpp>

#include <utility>

namespace keel::KEEL_ABI {

LevelOfDetail fullDetailSettings() { return LevelOfDetail{}; }

LevelOfDetail farBoatSettings(const Hull& hull, btScalar waterDensity_kgpm3) {
  LevelOfDetail lod;
  lod.model = BuoyancyModel::Columns;
  lod.columnCells = kFarBoatColumnCells;
  lod.sampling = Sampling::Patch;
  // Just over the radius: the patch is 4 x 4 samples (WaterPatch::configure:
  // floor(2 R / cell) + 3 a side) whatever the hull.
  lod.patchCellSize_m = btScalar(1.01) * hull.radius_m();
  HydrodynamicSettings& h = lod.hydrodynamics;
  h = HydrodynamicSettings::none();
  h.waterVelocity = WaterVelocitySampling::PerBoat;
  h.damping = true;
  const btScalar displacement_kg = waterDensity_kgpm3 * hull.volume_m3();
  const btScalar halfRadius_m = btScalar(0.5) * hull.radius_m();
  h.linearDamping_Nspm = btScalar(0.5) * displacement_kg;
  h.angularDamping_Nmsprad = btScalar(0.5) * displacement_kg * halfRadius_m * halfRadius_m;
  return lod;
}

void WaterAction::setLevelOfDetail(const LevelOfDetail& lod) {
  HydrostaticSettings statics = settings_;
  statics.sampling = lod.sampling;
  statics.patchCellSize_m = lod.patchCellSize_m;
  lod.hydrodynamics.validate();
  // Validates (nothing changed when it throws); the column hull is built
  // (or found) before anything changes, as it may throw too.
  std::shared_ptr<const ColumnHull> columns;
  if (lod.model == BuoyancyModel::Columns && lod.columnCells > 0) columns = defaultColumnHull(hull_, lod.columnCells);
  setSettings(statics);
  hydro_ = lod.hydrodynamics;
  if (columns) setColumnHull(std::move(columns));
  setBuoyancyModel(lod.model);
}

}  // namespace keel::KEEL_ABI
