// The levels of detail (level_of_detail.hpp) and WaterAction::setLevelOfDetail.
#include <keel/level_of_detail.hpp>
#include <keel/water_action.hpp>

#include "hull/refuse_overlaps.hpp"

#include <cmath>
#include <stdexcept>
#include <string>
#include <utility>

namespace keel::KEEL_ABI {
namespace {

/// Throws unless `columns` were built from a hull of `hull`'s volume.
void checkColumns(const ColumnHull& columns, const Hull& hull) {
  const double hullVolume = double(hull.volume_m3());
  if (!(std::abs(double(columns.hullVolume_m3()) - hullVolume) <= 1e-6 * hullVolume))
    throw std::invalid_argument("keel::WaterAction::setLevelOfDetail: the columns were built from a hull of " +
                                std::to_string(columns.hullVolume_m3()) + " m^3, this boat's has " +
                                std::to_string(hullVolume) + " m^3");
}

}  // namespace

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
  // Everything is validated, and the column hull built or found, before
  // anything changes: a throw leaves the boat as it was.
  HydrostaticSettings statics = settings_;
  statics.sampling = lod.sampling;
  statics.patchCellSize_m = lod.patchCellSize_m;
  lod.hydrodynamics.validate();
  if (lod.model == BuoyancyModel::Triangles)
    detail::refuseOverlappingParts(*hull_, "keel::WaterAction::setLevelOfDetail (triangles)");
  std::shared_ptr<const ColumnHull> columns = lod.columns;
  if (!columns && lod.model == BuoyancyModel::Columns && lod.columnCells > 0)
    columns = defaultColumnHull(hull_, lod.columnCells);
  if (columns) checkColumns(*columns, *hull_);
  setSettings(statics);  // validates, and configures the patch aside: the first change
  hydro_ = lod.hydrodynamics;
  if (columns) useColumns(std::move(columns));
  useModel(lod.model);
}

LevelOfDetail WaterAction::levelOfDetail() const {
  LevelOfDetail lod;
  lod.model = model_;
  lod.sampling = settings_.sampling;
  lod.patchCellSize_m = settings_.patchCellSize_m;
  lod.hydrodynamics = hydro_;
  lod.columns = columns_;
  return lod;
}

}  // namespace keel::KEEL_ABI
