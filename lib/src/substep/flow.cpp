// The Flow stage: the flow over every wet piece, with skin friction
// (ITTC-1957) and pressure drag and suction (Kerner part 2; docs/model.md
// §2), and the hull's lift (hull_lift.cpp), all relative to the water's
// velocity.
#include "hull/hull_access.hpp"
#include "substep/profile.hpp"
#include "substep/stages.hpp"
#include "substep/water_velocity.hpp"

#include <algorithm>

namespace keel::KEEL_ABI::detail {

ForceTorque bodyToWorld(const btMatrix3x3& basis, const BodyForce& f, double scale) {
  auto turn = [&](const double(&v)[3]) {
    return basis * btVector3(btScalar(v[0] * scale), btScalar(v[1] * scale), btScalar(v[2] * scale));
  };
  return ForceTorque{turn(f.force), turn(f.torque)};
}

namespace {

/// Length of the wetted hull along `direction` (body axes) [m]: the extent
/// of the waterline points, or of every vertex when there is no waterline
/// (the hull is then wholly under the water).
btScalar wettedLength(const PieceBuffer& pieces, const HullSoA& hull, const btVector3& direction) {
  Extent e{0, 0};
  if (pieces.crossing == 0) {
    e = extentAlong(hull.x.data(), hull.y.data(), hull.z.data(), hull.vertexCount, direction);
  } else {
    const Extent p = extentAlong(pieces.px.data(), pieces.py.data(), pieces.pz.data(), pieces.crossing, direction);
    const Extent q = extentAlong(pieces.qx.data(), pieces.qy.data(), pieces.qz.data(), pieces.crossing, direction);
    e = {std::min(p.lo, q.lo), std::max(p.hi, q.hi)};
  }
  return e.hi > e.lo ? e.hi - e.lo : btScalar(0);
}

/// The flow kernel's parameters (body axes).
FlowParameters flowParameters(const HydrodynamicSettings& h, const btVector3& vBody, const btVector3& wBody,
                              const btVector3& uniformWater, bool perVertex) {
  FlowParameters p;
  for (int k = 0; k < 3; ++k)
    p.linearVelocity_mps[k] = vBody[k], p.angularVelocity_radps[k] = wBody[k], p.water_mps[k] = uniformWater[k];
  p.waterPerPiece = perVertex;
  p.viscous = h.viscous;
  p.pressureDrag = h.pressureDrag;
  p.inverseReferenceSpeed_spm = btScalar(1) / h.referenceSpeed_mps;
  p.pressureLinear_Pa = h.pressureLinear_Pa, p.pressureQuadratic_Pa = h.pressureQuadratic_Pa;
  p.pressureFalloff = h.pressureFalloff;
  p.suctionLinear_Pa = h.suctionLinear_Pa, p.suctionQuadratic_Pa = h.suctionQuadratic_Pa;
  p.suctionFalloff = h.suctionFalloff;
  return p;
}

/// The flow pass over the whole triangles and the cut pieces; returns the
/// area-weighted mean water velocity under the hull, world [m/s].
btVector3 flowPass(const BoatModel& boat, BoatState& state, TriangleState& tri, const BodySnapshot& body, Substep& s) {
  const HydrodynamicSettings& h = boat.dynamics;
  const HullSoA& soa = soaOf(boat.hull);
  BoatBuffers& b = s.buffers;
  // Per vertex: each whole triangle takes the mean of its corners', each cut
  // piece has the mean of its corners' from the cut. Otherwise the kernel
  // takes one velocity for every piece (a uniform surface is asked once).
  const bool perVertex = s.plan.velocities == WaterVelocities::PerVertex;
  btVector3 uniform(0, 0, 0);
  if (perVertex)
    triangleWaterVelocity(soa, b, b.waterU.data(), b.waterV.data(), b.waterW.data());
  else if (s.plan.velocities == WaterVelocities::PerBoat)
    uniform = waterVelocityUnderBoat(boat, state, s, std::span(tri.water.height_m).first(soa.vertexCount)) *
              state.basis;
  FlowParameters p = flowParameters(h, body.linearVelocity_mps * state.basis, body.angularVelocity_radps * state.basis,
                                    uniform, perVertex);
  // The whole triangles' slamming is summed in the same pass (a whole
  // triangle's swept rate is its own); only their swept rates are kept.
  FlowStream streams[2] = {
      {b.triangles(soa), PieceFlowOut{nullptr, nullptr, nullptr, nullptr, tri.sweptRate_m3ps.data()}, nullptr},
      {b.pieces.stream(), b.pieces.flowOut(), nullptr}};
  s.slamSummed = s.plan.slamming && tri.slammingWarm && boat.hull.area_m2() > 0 && s.dt_s > 0;
  if (s.slamSummed) {
    p.inverseDt_ps = btScalar(1) / s.dt_s;
    p.slamming.stopFactor = (btScalar(1) / s.effectiveInverseMass_pkg) * 2 / boat.hull.area_m2() / s.dt_s;
    p.slamming.inverseCutoff = btScalar(1) / h.slammingCutoff_mps2;
    p.slamming.power = h.slammingPower;
    streams[0].previousRate = tri.previousSweptRate_m3ps.data();
  }
  s.flow.value = flowSums(streams, 2, p);
  s.slamming = p.slamming;
  if (!(s.flow.value.area > 0)) return btVector3(0, 0, 0);
  const double mean[3] = {s.flow.value.waterArea[0] / s.flow.value.area, s.flow.value.waterArea[1] / s.flow.value.area,
                          s.flow.value.waterArea[2] / s.flow.value.area};
  return state.basis * btVector3(btScalar(mean[0]), btScalar(mean[1]), btScalar(mean[2]));
}

/// Skin friction and pressure drag from the flow pass's sums.
void pieceTerms(const BoatModel& boat, BoatState& state, const Substep& s) {
  const HydrodynamicSettings& h = boat.dynamics;
  HydrodynamicForces& f = state.hydrodynamics;
  if (s.plan.viscous) {
    const btVector3& relative = s.relativeVelocity_mps;
    const btScalar speed = relative.length();
    const btScalar length = speed > 0
                                ? wettedLength(s.buffers.pieces, soaOf(boat.hull), (relative / speed) * state.basis)
                                : btScalar(0);
    const btScalar cf = ittc1957FrictionCoefficient(speed * length / h.kinematicViscosity_m2ps);
    f.viscous = bodyToWorld(state.basis, s.flow.value.viscousPerHalfRhoCf,
                            0.5 * double(boat.statics.waterDensity_kgpm3) * double(cf));
  }
  if (s.plan.pressureDrag) f.pressureDrag = bodyToWorld(state.basis, s.flow.value.pressureDrag, 1);
}

}  // namespace

void flowTerms(const BoatModel& boat, BoatState& state, TriangleState& tri, const BodySnapshot& body, Substep& s) {
  const StageScope scope(s.profile, SubstepStage::Flow);
  // Only skin friction, pressure drag and slamming need the flow piece by
  // piece; air and damping need just the water's velocity under the boat.
  const bool perPiece = state.anyWet && s.plan.perPiece();
  btVector3 meanWater(0, 0, 0);
  if (perPiece) {
    meanWater = flowPass(boat, state, tri, body, s);
  } else {
    s.flow.value = FlowSums{};  // what Slamming reads of a substep with no flow pass
    if (s.plan.velocities != WaterVelocities::None && state.anyWet)
      meanWater = waterVelocityUnderBoat(boat, state, s,
                                         std::span(tri.water.height_m).first(soaOf(boat.hull).vertexCount));
  }
  // The boat's velocity relative to the (area-weighted mean) water under it.
  s.relativeVelocity_mps = body.linearVelocity_mps - meanWater;
  if (perPiece) pieceTerms(boat, state, s);
  hullLift(boat, state, body, s);  // after the pressure drag, whose cross force it puts where it acts
}

}  // namespace keel::KEEL_ABI::detail