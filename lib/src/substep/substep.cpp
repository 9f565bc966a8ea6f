// runSubstep: a boat's substep as its stages in order (docs/model.md §1); the
// pose stage and the snapshot and state it works on.
#include "substep/substep.hpp"

#include "substep/stages.hpp"

#include <BulletDynamics/Dynamics/btRigidBody.h>

#include <cmath>
#include <limits>
#include <stdexcept>
#include <utility>

namespace keel::KEEL_ABI::detail {
namespace {

bool isFinitePose(const btTransform& t) {
  const btMatrix3x3& b = t.getBasis();
  return isFinite(t.getOrigin()) && isFinite(b[0]) && isFinite(b[1]) && isFinite(b[2]);
}

}  // namespace

bool skipSubstep(BoatState& state, std::uint32_t flags) {
  state.hydrostatics = HydrostaticResult{};
  state.hydrodynamics = HydrodynamicForces{};
  state.total = ForceTorque{};
  state.pendingLinear_mps.setZero();
  state.pendingAngular_radps.setZero();
  state.anyWet = false;
  state.crossingCount = 0;
  finishStatus(state.status, flags, true);
  return false;
}

bool runSubstep(const BoatModel& boat, BoatState& state, const BodySnapshot& body, btScalar dt_s, double t_s) {
  Substep s(threadBuffers(boat.hull.soa()), dt_s, t_s);
  state.pendingLinear_mps.setZero();
  state.pendingAngular_radps.setZero();
  s.previousLowestAbove_m = state.lowestAbove_m;
  state.lowestAbove_m = std::numeric_limits<btScalar>::quiet_NaN();  // until the water is found
  if (!readPose(boat, state, body, s) || !sampleWater(boat, state, s, boat.hull.soa()) ||
      !heightsAboveWater(boat, state, s, boat.hull.soa()))
    return skipSubstep(state, s.flags);
  classify(boat, state, s);
  waterVelocityAtVertices(boat, state, s);
  wavePressureHeads(boat, state, s);
  cut(boat, state, s);
  pressure(boat, state, s);
  state.hydrodynamics = HydrodynamicForces{};
  if (wantsHydrodynamics(boat, state)) {
    flowTerms(boat, state, body, s);
    slamming(boat, state, s);
    airResistance(boat, state, body, s);
    extraDamping(boat, state, body, s);
    clampDrag(boat, state, body, s);
  }
  floodwater(boat, state, body, s);
  return velocityChange(boat, state, body, s);
}

bool readPose(const BoatModel& boat, BoatState& state, const BodySnapshot& body, Substep& s) {
  if (body.staticOrKinematic || !(body.inverseMass_pkg > 0)) {
    s.flags = StatusStaticBody;
    return false;
  }
  // The water's frame, again only when gravity changed.
  if (!(state.frameValid && body.gravity_mps2 == state.frameGravity_mps2)) {
    state.frameValid = WaterFrame::fromGravity(body.gravity_mps2, state.frame);
    state.frameGravity_mps2 = body.gravity_mps2;
  }
  if (!state.frameValid) {
    s.flags = StatusNoGravity;
    return false;
  }
  const HydrodynamicSettings& h = boat.dynamics;
  s.perVertexVelocities = perPieceTerms(h) && h.waterVelocity == WaterVelocitySampling::PerVertex &&
                          !boat.surface.velocityIsUniform();
  // Otherwise every term that reads the water's velocity takes it under the
  // boat (flowTerms).
  s.boatVelocity = !s.perVertexVelocities && h.waterVelocity != WaterVelocitySampling::StillWater && anyTerm(h) &&
                   !boat.surface.velocityIsUniform();
  if (!isFinitePose(body.centreOfMass)) {
    s.flags = StatusNonFiniteBody;
    return false;
  }
  state.centre_m = body.centreOfMass.getOrigin();
  state.basis = body.centreOfMass.getBasis();
  // The water's axes in the body frame (B^T a): the hull's vertices are
  // used as they are.
  const WaterFrame& f = state.frame;
  s.axes.east = f.east * state.basis;
  s.axes.north = f.north * state.basis;
  s.axes.up = f.up * state.basis;
  s.axes.centreEast_m = double(state.centre_m.dot(f.east));
  s.axes.centreNorth_m = double(state.centre_m.dot(f.north));
  s.axes.centreUp_m = state.centre_m.dot(f.up);
  return true;
}

void finishStatus(WaterStatus& status, std::uint32_t flags, bool skipped) {
  status.flags = flags;
  status.everFlags |= flags;
  ++status.substeps;
  if (skipped) ++status.skippedSubsteps;
}

BodySnapshot BodySnapshot::of(const btRigidBody& body) {
  BodySnapshot s;
  s.centreOfMass = body.getCenterOfMassTransform();
  s.linearVelocity_mps = body.getLinearVelocity();
  s.angularVelocity_radps = body.getAngularVelocity();
  s.inverseMass_pkg = body.getInvMass();
  s.inverseInertia = body.getInvInertiaTensorWorld();
  s.gravity_mps2 = body.getGravity();
  s.linearDamping = body.getLinearDamping();
  s.angularDamping = body.getAngularDamping();
  s.linearFactor = body.getLinearFactor();
  s.angularFactor = body.getAngularFactor();
  s.staticOrKinematic = body.isStaticOrKinematicObject();
  return s;
}

void BoatState::allocate(const Hull& hull, const HydrostaticSettings& statics) {
  const HullSoA& soa = hull.soa();
  waterHeight_m.assign(soa.vertexPadded, 0);
  previousWaterHeight_m.assign(soa.vertexPadded, 0);
  h_m.assign(soa.vertexPadded, 0);
  sweptRate_m3ps.assign(soa.trianglePadded, 0);
  previousSweptRate_m3ps.assign(soa.trianglePadded, 0);
  slammingWarm = false;
  configurePatch(hull, statics);
}

void BoatState::fitTriangles(const Hull& hull) {
  const HullSoA& soa = hull.soa();
  if (sweptRate_m3ps.size() >= soa.trianglePadded && h_m.size() >= soa.vertexPadded) return;
  for (std::vector<btScalar>* v : {&waterHeight_m, &previousWaterHeight_m, &h_m})
    if (v->size() < soa.vertexPadded) v->resize(soa.vertexPadded, 0);
  sweptRate_m3ps.assign(soa.trianglePadded, 0);
  previousSweptRate_m3ps.assign(soa.trianglePadded, 0);
  slammingWarm = false;
}

void BoatState::configurePatch(const Hull& hull, const HydrostaticSettings& statics) {
  // Configured aside, so that a throw leaves the boat as it was.
  WaterPatch next;
  if (statics.sampling == Sampling::Patch) next.configure(statics.patchCellSize_m, hull.radius_m());
  if (statics.sampling == Sampling::Auto) try {
      next.configure(statics.patchCellSize_m, hull.radius_m());
    } catch (const std::invalid_argument&) {  // too many nodes: Auto then samples directly
      next = WaterPatch{};
    }
  patch = std::move(next);
}

void BoatState::allocateColumns(const ColumnHull& columns) {
  const std::size_t n = padded(columns.columns().size());
  for (std::vector<btScalar>* v : {&waterHeight_m, &previousWaterHeight_m, &h_m})
    if (v->size() < n) v->resize(n, 0);
  columnFraction.assign(n, 0);
  havePreviousWater = false;
}

}  // namespace keel::KEEL_ABI::detail
