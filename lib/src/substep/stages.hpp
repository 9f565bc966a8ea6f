#pragma once
// The stages of a boat's substep (keel::SubstepStage), each in its own file
// of this folder, and the triangle model's state they keep. The triangle
// model runs them in this order (triangle_model.cpp); the column model
// runs Pose, SampleWater, Heights, its ColumnBuoyancy, Damping, Clamp,
// Flooding, Effects and VelocityChange (lib/src/columns/column_substep.cpp).
// docs/model.md, "The substep", describes them.
//
// Each declaration states what the stage reads and writes: of the plan
// (s.plan, read only), of the Substep's results (s.), of the boat's state
// (state.), of the model's own state (tri., water.) and of this thread's
// buffers (s.buffers). Every stage may add StatusFlag bits to s.flags and
// counts to state.status. Every stage opens a StageScope naming itself
// (profile.hpp).

#include "substep/profile.hpp"
#include "substep/sample_water.hpp"
#include "substep/substep.hpp"

#include <span>

namespace keel::KEEL_ABI::detail {

/// The triangle model's own state (triangle_model.cpp).
struct TriangleState {
  PointWater water;  ///< at the hull's vertices
  /// Each triangle's swept volume rate, this and the last substep [m^3/s]
  /// (kernel order), for slamming.
  std::vector<btScalar> sweptRate_m3ps, previousSweptRate_m3ps;
  bool slammingWarm = false;  ///< previousSweptRate_m3ps holds the last substep's
  /// Sizes the arrays for `hull` when they are smaller (the first substep).
  void fit(const Hull& hull);
  /// Whether the arrays already fit the hull `soa` (fit would do nothing).
  [[nodiscard]] bool fits(const HullSoA& soa) const {
    return sweptRate_m3ps.size() >= soa.trianglePadded && water.above_m.size() >= soa.vertexPadded;
  }
};

// Pose. Reads the body snapshot and gravity. Writes state.frame (remade
// only when gravity changed), state.centre_m and state.basis, s.axes.
// Fails, with the flag set, for a static body, no gravity or a non-finite
// pose. Only findWater runs it (sample_water.hpp's readPose).

// sampleWater, heightsAboveWater: SampleWater and Heights. Only findWater
// runs them (sample_water.hpp, where each says what it reads and writes).

// findWater: the stages every model begins with, its results started
// afresh, then Pose, SampleWater and Heights: inline where the models run
// (sample_water.hpp).

/// Classify. Reads tri.water.above_m, s.axes, s.waterRange, state.anyWet.
/// Writes the whole triangles' depths and weights and the crossing list
/// (s.buffers), s.crossingCount (cut.cpp).
void classify(const BoatModel& boat, BoatState& state, const TriangleState& tri, Substep& s);

/// Whether the WaterVelocity stage has work: WaterVelocities::PerVertex and
/// a wet hull. Tested by the caller, so that a substep without it makes no
/// call (nor times one).
[[nodiscard]] inline bool wantsVertexVelocities(const SubstepPlan& plan, const BoatState& state) {
  return plan.velocities == WaterVelocities::PerVertex && state.anyWet;
}

/// WaterVelocity. Reads plan.velocities and plan.velocitiesWithHeights,
/// state.patch, tri.water, s.crossingCount, the points' coordinates or
/// cells (s.buffers). Writes the wet vertices' and the crossing corners'
/// water velocities, body axes (s.buffers.water_mps). Run only when
/// wantsVertexVelocities (water_velocity.cpp).
void waterVelocityAtVertices(const BoatModel& boat, BoatState& state, const TriangleState& tri, Substep& s);

/// Whether the WavePressure stage has work: PressureModel::WavePressure and
/// a wet hull (tested by the caller, as wantsVertexVelocities).
[[nodiscard]] inline bool wantsWavePressure(const SubstepPlan& plan, const BoatState& state) {
  return plan.pressure == PressureModel::WavePressure && state.anyWet;
}

/// WavePressure. Reads plan.pressure and plan.heights, tri.water.above_m,
/// the vertices' coordinates (s.buffers.u_m, v_m when sampled directly,
/// above_m). Writes each wet vertex's and wet triangle corner's pressure
/// head (s.buffers.head_m, head0..2) and s.cornerHeads. Run only when
/// wantsWavePressure (wave_pressure.cpp).
void wavePressureHeads(const BoatModel& boat, BoatState& state, const TriangleState& tri, Substep& s);

/// Whether any hydrodynamic term has work this substep: one is planned and
/// the hull is wet (or the air resistance, which acts on a dry hull too).
[[nodiscard]] inline bool wantsHydrodynamics(const SubstepPlan& plan, const BoatState& state) {
  return plan.anyTerm() && (state.anyWet || plan.air);
}

/// Whether a later stage reads the cut's pieces beyond the pressure
/// integral: a hydrodynamic term, the effects, the added mass or the wake
/// (CutOutput::Full).
[[nodiscard]] inline bool piecesReadBeyondPressure(const SubstepPlan& plan, const BoatState& state) {
  return wantsHydrodynamics(plan, state) || state.effects || plan.addedMass || state.wakeLink;
}

/// Whether the plan wants of the cut only the pressure integral of the
/// depths, wet hull or dry: no hydrodynamic term, water velocity at the
/// vertices, pressure head, effects, added mass nor wake. Heights then
/// takes a small hull's sums with its heights (heightsAboveWater).
[[nodiscard]] inline bool pressureAlone(const SubstepPlan& plan, const BoatState& state) {
  return !plan.anyTerm() && plan.velocities != WaterVelocities::PerVertex &&
         plan.pressure != PressureModel::WavePressure && !state.effects && !plan.addedMass && !state.wakeLink;
}

/// Classify's flags, from state.anyWet and s.crossingCount: StatusDry,
/// StatusSubmerged. Inline: a small hull's kernel classified in Heights,
/// and its model sets them where it runs.
inline void classifyFlags(const BoatState& state, Substep& s) {
  if (!state.anyWet) s.flags |= StatusDry;
  if (s.crossingCount == 0 && state.anyWet) s.flags |= StatusSubmerged;
}

/// Cut. Reads the crossing list, s.crossingCount, s.cornerHeads,
/// plan.velocities, the corners' water velocities, what later stages run
/// (the plan's terms and added mass, state.effects, state.wakeLink). Writes
/// the pieces (s.buffers.pieces, with their velocities and heads when
/// given) and, when a later stage reads them, each crossing triangle's
/// emerged fraction (s.buffers.emerged) and the pieces' other fields
/// (CutOutput::Full); for the pressure integral alone of a small hull
/// (cutSums), the pressure sums in place of the pieces (s.sums, s.summed)
/// (cut.cpp).
void cut(const BoatModel& boat, BoatState& state, Substep& s);

/// The Pressure stage's sums of the whole triangles and the pieces, then
/// finished as the small hull's (pressure.cpp).
void piecePressure(const BoatModel& boat, BoatState& state, Substep& s);

/// The most pressure force any sea gives the hull, in `T`:
/// kMaxPressureForceFactor rho g V [N] (limitPressure).
template <class T>
[[nodiscard]] inline T maxPressureForce(const BoatModel& boat, btScalar gravity_mps2) {
  return T(kMaxPressureForceFactor) * T(boat.statics.waterDensity_kgpm3) * T(gravity_mps2) * T(boat.hull.volume_m3());
}

/// limitPressure's limiting, for a force or torque not well inside the
/// limits (pressure.cpp).
bool limitPressureAtBounds(const BoatModel& boat, HydrostaticResult& p, btScalar gravity_mps2);

/// Limits the pressure force and torque to what any sea can give the hull
/// (maxPressureForce, and that times the hull's radius about the centre of
/// mass): a backstop against water no sea makes, which the height checks
/// let through (a steep but plausible spike under one corner).
[[gnu::always_inline]] inline bool limitPressure(const BoatModel& boat, HydrostaticResult& p, btScalar gravity_mps2) {
  // Well inside both limits (the squares 2 % below theirs, far more than
  // btScalar's rounding of the limits and the lengths), nothing to limit:
  // no square roots, and the test in btScalar. A limit too large for
  // btScalar's square is infinite, above any finite length's square, as
  // the limit itself is.
  const auto maxForce = maxPressureForce<btScalar>(boat, gravity_mps2);
  const btScalar maxTorque = maxForce * boat.hull.radius_m();
  if (p.force_N.length2() < btScalar(0.98) * maxForce * maxForce &&
      p.torque_Nm.length2() < btScalar(0.98) * maxTorque * maxTorque)
    return false;
  return limitPressureAtBounds(boat, p, gravity_mps2);
}

/// The hydrostatic result of the sums (body axes) in world axes, limited.
[[gnu::always_inline]] inline void finishPressure(const BoatModel& boat, BoatState& state, Substep& s,
                                                  const PressureSums& sums) {
  // The sums are in body axes: the result is turned to world axes once.
  HydrostaticResult& r = state.hydrostatics;
  const btScalar gravity_mps2 = state.frameGravityLength_mps2;
  pressureResult(sums, boat.statics.waterDensity_kgpm3, gravity_mps2, s.axes.up, state.basis, r);
  if (limitPressure(boat, r, gravity_mps2)) s.flags |= StatusPressureLimited;
}

/// Pressure. Reads the whole triangles and the pieces (s.buffers), their
/// corners' heads when s.cornerHeads, or the Cut's sums (s.summed), s.axes.
/// Writes state.hydrostatics: Kerner's exact pressure force, torque,
/// displaced volume and centre of buoyancy, limited to what any sea can
/// give. Inline: the sums of a small hull are finished where the model
/// runs, a call fewer a substep; the pieces' sums are taken in
/// piecePressure (pressure.cpp).
[[gnu::always_inline]] inline void pressure(const BoatModel& boat, BoatState& state, Substep& s) {
  const StageScope scope(s.profile, SubstepStage::Pressure);
  if (s.summed)  // the cut summed them (cutAndSum)
    finishPressure(boat, state, s, s.sums.value);
  else
    piecePressure(boat, state, s);
}

/// AddedMass. Reads plan.addedMass, water.above_m, the points, s.axes,
/// the body's own mass. Writes state.addedMass (zero when off) and, when
/// on, s.effectiveInverseMass_pkg and s.effectiveInverseInertia: the body's
/// own raised as Bullet's will be (added_mass.cpp).
void waterInertia(const BoatModel& boat, BoatState& state, const PointWater& water, const BodySnapshot& body,
                  Substep& s, const HullSoA& points);

/// WakeSources. Only for a boat that makes waves (state.wakeLink). Reads
/// the wet whole triangles and the pieces (s.buffers), s.axes, state.basis,
/// state.anyWet, the body's velocities, the ambient water's velocity under
/// the centre of mass (queried). Writes state.wakeLink's sources (none, with
/// StatusOutsideWakeField, for a boat outside the field's window)
/// (wake_sources.cpp).
void wakeSources(BoatState& state, const BodySnapshot& body, Substep& s, const HullSoA& soa);

/// VelocityChange's velocity changes with the added mass: with what Bullet
/// integrates in the next substep (the user's forces and gravity over the
/// raised mass), the body accelerates as `(M + A)^-1` times the water's
/// force (state.total), gravity on its own mass and the user's forces.
/// The waterplane's hydrostatic stiffness is solved implicitly with them
/// (the cut's waterline segments: none on columns). Reads state.addedMass,
/// state.total, state.basis, s.effectiveInverseMass_pkg and
/// s.effectiveInverseInertia (Bullet's next), s.buffers.pieces' waterline,
/// the body (added_mass.cpp).
void implicitVelocityChange(const BoatModel& boat, const BoatState& state, const BodySnapshot& body, const Substep& s,
                            btVector3& dv, btVector3& dw);

/// Flow. Reads plan (terms, velocities), the pieces and their water
/// velocities, tri's swept rates, the body's velocities. Writes
/// state.hydrodynamics.viscous, .pressureDrag and .hullLift, s.flow, s.slamSummed,
/// s.slamming, s.relativeVelocity_mps, tri.sweptRate_m3ps of the whole
/// triangles (flow.cpp).
void flowTerms(const BoatModel& boat, BoatState& state, TriangleState& tri, const BodySnapshot& body, Substep& s);

/// Part of Flow: the hull's lift as a low-aspect-ratio wing. Reads
/// plan.hullLift, state.lowestAbove_m, state.hydrostatics' centre of
/// buoyancy, s.axes.up, s.relativeVelocity_mps, the body's angular velocity.
/// Writes state.hydrodynamics.hullLift (hull_lift.cpp).
void hullLift(const BoatModel& boat, BoatState& state, const BodySnapshot& body, const Substep& s);

/// Slamming. Reads plan.slamming, s.flow, s.slamSummed, s.slamming, the
/// pieces' swept rates. Writes state.hydrodynamics.slamming and tri's swept
/// rates, kept for the next substep (slamming.cpp).
void slamming(const BoatModel& boat, BoatState& state, TriangleState& tri, Substep& s);

/// Air. Reads plan.air, s.buffers.emerged, the body's velocities. Writes
/// state.hydrodynamics.air (air_damping.cpp).
void airResistance(const BoatModel& boat, BoatState& state, const BodySnapshot& body, Substep& s);

/// Damping. Reads plan.damping, state.hydrostatics.submergedVolume_m3,
/// s.relativeVelocity_mps, the body's angular velocity. Writes
/// state.hydrodynamics.damping (air_damping.cpp).
void extraDamping(const BoatModel& boat, BoatState& state, const BodySnapshot& body, Substep& s);

/// Clamp. Reads state.hydrodynamics, state.hydrostatics,
/// s.relativeVelocity_mps, plan.uniformWater, the wind, the body. Writes
/// state.hydrodynamics, limited so that the terms cannot reverse the
/// motion within the substep nor add kinetic energy relative to the
/// reference water beyond the work the water's velocity differences and
/// the wind do through them (clamp.cpp).
void clampDrag(const BoatModel& boat, BoatState& state, const BodySnapshot& body, Substep& s);

/// Whether the Flooding stage has work: the boat has compartments (tested
/// by the caller, as wantsVertexVelocities; a boat without them keeps the
/// zero force FloodState::set leaves).
[[nodiscard]] inline bool wantsFlooding(const BoatState& state) { return !state.flood.empty(); }

/// Whether the AddedMass stage has work: the plan wants the added mass, or
/// the last substep's is still to be cleared (tested by the caller).
[[nodiscard]] inline bool wantsAddedMass(const SubstepPlan& plan, const BoatState& state) {
  return plan.addedMass || !state.addedMassCleared;
}

/// Flooding. Reads state.flood's compartments and openings, s.axes, the
/// water at the openings (queried). Writes state.flood: the water moved
/// through the openings, the free surfaces, the floodwater's weight and
/// its status (floodwater.cpp).
void floodwater(const BoatModel& boat, BoatState& state, const BodySnapshot& body, Substep& s);

/// Effects, the waterline's part (triangles): Spray and BowWave. Only when
/// the boat reports effects (state.effects) and time passes
/// (state.flood.timePasses: not while the action primes). Reads the
/// crossing triangles' waterline segments and wet pieces (s.buffers),
/// s.crossingCount, s.axes, s.t_s, state.basis, state.centre_m,
/// state.referenceWater_mps, the body's velocities. Writes events into
/// state.effects (effects.cpp).
void waterlineEffects(const BoatModel& boat, BoatState& state, const BodySnapshot& body, const Substep& s);

/// Effects: Splash and Flooding, on either model. Only when the boat
/// reports effects (state.effects). Reads state.anyWet, state.hydrostatics,
/// s.waterRange, s.dt_s, s.t_s, state.effectHistory, state.flood's openings
/// and their flow, state.referenceWater_mps, the body's velocities. Writes
/// events into state.effects (none while the action primes) and
/// state.effectHistory (effects.cpp).
void effects(const BoatModel& boat, BoatState& state, const BodySnapshot& body, const Substep& s);

// VelocityChange: inline where the models run (velocity_change.hpp, where
// it says what it reads and writes).

}  // namespace keel::KEEL_ABI::detail
