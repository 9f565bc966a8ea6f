#pragma once
/// @file level_of_detail.hpp
/// Levels of detail for a boat's water force: the full model for boats near
/// the camera, a cheap preset for far boats and big fleets
/// (docs/columns.md, "Levels of detail").

#include <keel/columns.hpp>
#include <keel/config.hpp>
#include <keel/hull.hpp>
#include <keel/hydrodynamics.hpp>
#include <keel/water_sampling.hpp>

namespace keel::KEEL_ABI {

/// What a level of detail sets on a WaterAction (WaterAction::setLevelOfDetail):
/// the model, how the water is sampled, and the hydrodynamic terms. The
/// water density and the sleep setting are the boat's own and stay.
struct LevelOfDetail {
  BuoyancyModel model = BuoyancyModel::Triangles;  ///< triangles (exact) or columns (cheap)
  Sampling sampling = Sampling::Direct;            ///< HydrostaticSettings::sampling
  btScalar patchCellSize_m = btScalar(0.5);        ///< HydrostaticSettings::patchCellSize_m, for Sampling::Patch
  HydrodynamicSettings hydrodynamics;              ///< the terms (on columns only the damping applies)
  /// On columns: the boat takes defaultColumnHull(hull, columnCells),
  /// shared by every boat of the hull at that count, in place of any column
  /// hull it had; 0 keeps the boat's own (setColumnHull, or the default).
  std::size_t columnCells = 0;
};

/// The far-boat preset's column count (ColumnSettings::targetColumns),
/// against the default 330: three columns across a slender hull's beam,
/// where its volume at half draft errs by 3 % (docs/columns.md, "Levels of
/// detail", has the accuracy table).
inline constexpr std::size_t kFarBoatColumnCells = 64;

/// The full model: triangles, direct sampling at every vertex, every
/// hydrodynamic term with the water velocity per vertex (the defaults).
[[nodiscard]] LevelOfDetail fullDetailSettings();

/// The cheap preset for far boats and big fleets: kFarBoatColumnCells columns, the water
/// sampled on a patch of cells 1.01 times the hull's bounding radius R (4 x 4
/// samples a boat, whatever the hull: waves much longer than R are
/// followed, shorter ones smoothed out), and only the damping by the submerged fraction,
/// relative to one water velocity per boat, with coefficients from the
/// hull's displacement when full (rho V): linear 0.5 rho V [N s/m],
/// angular 0.5 rho V (R/2)^2 [N m s/rad], R the bounding radius. Scaled by
/// the submerged fraction, which for a boat afloat is its mass over rho V,
/// the linear term makes any floating boat's velocity relative to the water
/// decay as exp(-t / 2 s). Heaves, rolls and pitches on the waves like the full model;
/// drifts with the water, but is not steered by it (no drag on its faces).
[[nodiscard]] LevelOfDetail farBoatSettings(const Hull& hull, btScalar waterDensity_kgpm3 = 1025);

}  // namespace keel::KEEL_ABI
