#pragma once
// The column model (BuoyancyModel::Columns; docs/columns.md, "The
// substep"): its own state, its plan, and the ColumnBuoyancy stage it runs
// between the triangle substep's shared stages (lib/src/substep/stages.hpp)
// on the columns' centroids instead of the hull's vertices.

#include "substep/stages.hpp"

namespace keel::KEEL_ABI::detail {

/// The column model's own state (column_model.cpp).
struct ColumnState {
  PointWater water;  ///< at the columns' centroids
  /// Each column's immersed fraction, last substep (padded).
  std::vector<btScalar> fraction;
  /// Sizes the arrays for `columns` when they are smaller (the first substep).
  void fit(const ColumnHull& columns);
  /// Whether the arrays already fit the columns' points `soa` (fit would do
  /// nothing).
  [[nodiscard]] bool fits(const HullSoA& soa) const {
    return fraction.size() >= soa.vertexPadded && water.above_m.size() >= soa.vertexPadded;
  }
};

/// The column model's plan: only the damping of the hydrodynamic settings
/// runs, with one water velocity per boat; the columns' centroids are
/// sampled as the settings say.
[[nodiscard]] SubstepPlan planColumns(const BoatModel& boat, const BoatState& state);

/// ColumnBuoyancy. Reads col.water (heights and heights above the water),
/// s.axes, the columns. Writes state.hydrostatics (force, torque, displaced
/// volume, centre of buoyancy, depth integral), state.anyWet,
/// state.lowestAbove_m, col.fraction, s.meanWaterHeight_m.
void columnBuoyancy(const BoatModel& boat, BoatState& state, ColumnState& col, Substep& s);

/// Damping's water: the boat's velocity relative to the water under it (one
/// velocity per boat, at the columns' mean water height), into
/// s.relativeVelocity_mps.
void columnRelativeVelocity(const BoatModel& boat, BoatState& state, const BodySnapshot& body, Substep& s);

}  // namespace keel::KEEL_ABI::detail
