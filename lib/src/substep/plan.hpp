#pragma once
// What one substep will do, decided once before its stages run: how the
// water is sampled, which water velocities the terms read, which pressure
// acts, which terms run. Each buoyancy model makes its own (planTriangles
// here, planColumns in lib/src/columns); the stages read it and never
// change it. The decisions that hang on this substep's water (is the hull
// wet?) stay with the stages, as results.

#include <keel/hydrodynamics.hpp>
#include <keel/hydrostatics.hpp>
#include <keel/water_action.hpp>

#include <cstdint>

namespace keel::KEEL_ABI::detail {

struct BoatModel;
struct BoatState;

/// How the water heights under the model's points are found.
enum class HeightSampling : std::uint8_t {
  Level,   ///< still, level water: one height for every point
  Direct,  ///< one query of every point (their world coordinates in the buffers)
  Patch,   ///< the patch's grid, interpolated at the points
};

/// Which water velocities the hydrodynamic terms read.
enum class WaterVelocities : std::uint8_t {
  None,       ///< still water: the terms take the boat's own velocity
  PerBoat,    ///< one velocity, under the centre of mass
  PerVertex,  ///< at every wet vertex, interpolated to the pieces
};

/// What the patch samples at its nodes besides the heights.
enum class PatchVelocities : std::uint8_t {
  None,     ///< heights only
  Nodes,    ///< the velocity at every node at its depths, for the wet vertices
  Surface,  ///< the velocity at the surface, for the one velocity under the boat
};

/// One substep's decisions (docs/model.md, "The substep").
struct SubstepPlan {
  HeightSampling heights = HeightSampling::Direct;
  PatchVelocities patchVelocities = PatchVelocities::None;
  /// With PatchVelocities::Nodes: the depth below the surface [m] down to
  /// which the nodes' velocities are wanted (PatchSampler::sampleWithVelocities).
  btScalar patchVelocityDepth_m = 0;
  WaterVelocities velocities = WaterVelocities::None;
  /// Direct sampling asks the velocities with the heights (one query).
  bool velocitiesWithHeights = false;
  /// The water's velocity is the same under the whole hull (a uniform
  /// surface, or one velocity per boat): the terms can only dissipate.
  bool uniformWater = true;
  PressureModel pressure = PressureModel::StaticHead;
  /// The heights stage keeps each point's coordinate along up (the wave
  /// pressure's query wants it as the heights were taken).
  bool keepAlongUp = false;
  // The hydrodynamic terms that run (each still needs a wet hull, but air).
  bool viscous = false, pressureDrag = false, slamming = false, air = false, damping = false, hullLift = false;
  /// The AddedMass stage runs and the velocity change solves with it.
  bool addedMass = false;
  /// Some term wants the flow piece by piece (skin friction, pressure drag, slamming).
  [[nodiscard]] bool perPiece() const { return viscous || pressureDrag || slamming; }
  /// Some hydrodynamic term runs. (The flags or'd, not tested in turn: one
  /// test where the substep asks it, not six branches.)
  [[nodiscard]] bool anyTerm() const {
    return (unsigned(viscous) | unsigned(pressureDrag) | unsigned(slamming) | unsigned(air) | unsigned(damping) |
            unsigned(hullLift)) != 0;
  }
};

/// The triangle model's plan for the next substep of `boat` (plan.cpp):
/// Sampling::Auto's choice from the surface's stated costs, and the patch's
/// velocity depth from the last substep's deepest wet vertex.
[[nodiscard]] SubstepPlan planTriangles(const BoatModel& boat, const BoatState& state);

/// The plan's sampling, once its velocities are planned: the water's
/// uniformity under the hull, how the heights are found (the patch for
/// Sampling::Patch, or for Auto when it expects the patch to cost less at
/// the hull's vertices; level water; or a query per point) and what the
/// patch brings besides the heights. Auto chooses for the hull's vertices
/// whatever the model's points: switching a boat's model then leaves its
/// sampling as it was, so its force jumps by the models' difference only
/// (docs/columns.md, "Levels of detail").
void planSampling(const BoatModel& boat, const BoatState& state, bool uniformVelocity, SubstepPlan& plan);

/// The hydrodynamic terms of `h` into `plan` (the model's own choice of
/// water velocities aside).
inline void planTerms(const HydrodynamicSettings& h, SubstepPlan& plan) {
  plan.viscous = h.viscous;
  plan.pressureDrag = h.pressureDrag;
  plan.slamming = h.slamming;
  plan.air = h.airResistance;
  plan.damping = h.damping;
  plan.hullLift = h.hullLift;
  plan.addedMass = h.addedMass;
}

}  // namespace keel::KEEL_ABI::detail
