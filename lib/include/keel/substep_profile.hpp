#pragma once
/// @file substep_profile.hpp
/// Where a boat's substep spends its time, stage by stage: off by default
/// and free when off (WaterAction::setProfiling, WaterFleet::profile), as
/// Box2D's b2World_GetProfile. docs/model.md, "The substep", lists the
/// stages and what each reads and writes.

#include <keel/config.hpp>

#include <array>
#include <cstddef>
#include <cstdint>

namespace keel::KEEL_ABI {

/// The stages of a boat's substep, in the order they run. A substep runs
/// those its model has (the column model has no cut, for one) and skips the
/// rest of them when a stage finds nothing to float (a static body, no
/// gravity, no finite water).
enum class SubstepStage : std::uint8_t {
  Plan,            ///< what this substep will do: sampling, velocities, pressure, terms
  Pose,            ///< the body's pose in the water's frame
  SampleWater,     ///< the water heights under the hull (and velocities with them)
  Heights,         ///< each vertex's (or column's) height above the water
  Classify,        ///< each triangle wet, dry or crossing the waterline
  WaterVelocity,   ///< the water's velocity at the wet vertices
  WavePressure,    ///< the waves' pressure heads at the wet vertices
  Cut,             ///< the crossing triangles cut at the waterline
  Pressure,        ///< Kerner's pressure integral: force, torque, volume
  ColumnBuoyancy,  ///< the column model's buoyancy
  AddedMass,       ///< the water's inertia: the hull's added mass (HydrodynamicSettings::addedMass)
  WakeSources,     ///< the wet pieces as the sources of a WakeField's waves (WakeField::add)
  Flow,            ///< skin friction and pressure drag over the wet pieces
  Slamming,        ///< slamming of the faces entering the water fast
  Air,             ///< air resistance on the emerged faces
  Damping,         ///< the optional damping by the submerged fraction
  Clamp,           ///< the hydrodynamic terms limited to dissipate
  Flooding,        ///< water through the openings and its weight
  Effects,         ///< spray, bow wave, splash and flooding events (WaterAction::setEffects)
  VelocityChange,  ///< the total made to act exactly once in the next substep
};

/// How many SubstepStage values there are.
inline constexpr std::size_t kSubstepStageCount = std::size_t(SubstepStage::VelocityChange) + 1;

/// The stage's name as written in SubstepStage ("SampleWater"), for tables.
[[nodiscard]] const char* stageName(SubstepStage stage);

/// Wall time spent in each stage of the substeps profiled, summed since
/// profiling was switched on or the profile cleared. A fleet's profile
/// sums its boats' (the time of every thread, not the step's wall time).
struct SubstepProfile {
  std::array<double, kSubstepStageCount> stage_s{};  ///< per SubstepStage [s]
  std::uint64_t substeps = 0;                        ///< substeps profiled
  /// The stage's time [s].
  [[nodiscard]] double operator[](SubstepStage stage) const { return stage_s[std::size_t(stage)]; }
  /// Every stage's time together [s].
  [[nodiscard]] double total_s() const {
    double sum = 0;
    for (const double t : stage_s) sum += t;
    return sum;
  }
  /// Adds another profile's times and substeps (a fleet's boats).
  SubstepProfile& operator+=(const SubstepProfile& other) {
    for (std::size_t i = 0; i < kSubstepStageCount; ++i) stage_s[i] += other.stage_s[i];
    substeps += other.substeps;
    return *this;
  }
};

}  // namespace keel::KEEL_ABI
