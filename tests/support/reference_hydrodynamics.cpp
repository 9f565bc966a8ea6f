// The tests' oracle for the hydrodynamics (reference.hpp): Kerner's part-2
// terms piece by piece, scalar and readable (docs/model.md §2).
#include "reference.hpp"

#include <algorithm>
#include <cassert>
#include <cmath>

namespace keel::reference {
namespace {

/// cos^f for the falloff exponents in (0, 1]; the common 1/2 and 1 without pow.
btScalar falloff(btScalar cosTheta, btScalar exponent) {
  if (exponent == btScalar(0.5)) return btSqrt(cosTheta);
  if (exponent == btScalar(1)) return cosTheta;
  return btPow(cosTheta, exponent);
}

/// Speeds below this [m/s] have no direction: no drag, cos theta = 0.
constexpr btScalar kTinySpeed_mps = btScalar(1e-6);

}  // namespace

void pieceFlows(std::span<const Piece> pieces, const btVector3& linearVelocity_mps,
                const btVector3& angularVelocity_radps, std::span<const btVector3> waterVelocity_mps,
                std::span<PieceFlow> out) {
  assert(out.size() >= pieces.size() && waterVelocity_mps.size() >= pieces.size());
  for (std::size_t i = 0; i < pieces.size(); ++i) {
    const Piece& p = pieces[i];
    PieceFlow& f = out[i];
    f.centroid = (p.r[0] + p.r[1] + p.r[2]) * btScalar(1.0 / 3.0);
    f.area_m2 = p.area_m2;
    f.normal = f.area_m2 > 0 ? p.areaVector_m2 / f.area_m2 : btVector3(0, 0, 0);
    f.velocity_mps = linearVelocity_mps + angularVelocity_radps.cross(f.centroid) - waterVelocity_mps[i];
    f.speed_mps = f.velocity_mps.length();
    f.cosTheta = f.speed_mps > kTinySpeed_mps ? f.velocity_mps.dot(f.normal) / f.speed_mps : btScalar(0);
  }
}

btScalar wettedLength_m(std::span<const Piece> pieces, std::span<const WaterlineSegment> waterline,
                        const btVector3& flowDirection) {
  btScalar lo = BT_LARGE_FLOAT, hi = -BT_LARGE_FLOAT;
  auto extend = [&](const btVector3& p) {
    const btScalar x = p.dot(flowDirection);
    lo = std::min(lo, x);
    hi = std::max(hi, x);
  };
  if (!waterline.empty()) {
    for (const auto& s : waterline) {
      extend(s.a);
      extend(s.b);
    }
  } else {
    for (const auto& p : pieces)
      for (const auto& r : p.r) extend(r);
  }
  return hi > lo ? hi - lo : btScalar(0);
}

ForceTorque viscousForce(std::span<const PieceFlow> flows, btScalar density_kgpm3, btScalar frictionCoefficient) {
  ForceTorque out;
  const btScalar half = btScalar(0.5) * density_kgpm3 * frictionCoefficient;
  for (const PieceFlow& f : flows) {
    // Remove the normal part first, then normalise: the friction is tangent
    // to the hull.
    const btVector3 tangential = f.velocity_mps - f.normal * f.velocity_mps.dot(f.normal);
    const btScalar vt = tangential.length();
    if (vt <= kTinySpeed_mps) continue;
    const btVector3 force = tangential * (-half * f.area_m2 * f.speed_mps * f.speed_mps / vt);
    out.force_N += force;
    out.torque_Nm += f.centroid.cross(force);
  }
  return out;
}

ForceTorque pressureDragForce(std::span<const PieceFlow> flows, const HydrodynamicSettings& s) {
  ForceTorque out;
  for (const PieceFlow& f : flows) {
    if (f.cosTheta == 0) continue;
    const btScalar ratio = f.speed_mps / s.referenceSpeed_mps;
    btVector3 force;
    if (f.cosTheta > 0) {  // face pushes into the water: pressure drag, inward
      const btScalar c = s.pressureLinear_Pa * ratio + s.pressureQuadratic_Pa * ratio * ratio;
      force = f.normal * (-c * f.area_m2 * falloff(f.cosTheta, s.pressureFalloff));
    } else {  // face pulls away from the water: suction, outward
      const btScalar c = s.suctionLinear_Pa * ratio + s.suctionQuadratic_Pa * ratio * ratio;
      force = f.normal * (c * f.area_m2 * falloff(-f.cosTheta, s.suctionFalloff));
    }
    out.force_N += force;
    out.torque_Nm += f.centroid.cross(force);
  }
  return out;
}

void SlammingState::reset(std::size_t triangleCount) {
  sweptRate_m3ps.assign(triangleCount, 0);
  warm = false;
}

ForceTorque slammingForce(std::span<const Piece> pieces, std::span<const PieceFlow> flows,
                          std::span<const btScalar> triangleArea_m2, btScalar hullArea_m2, btScalar mass_kg,
                          btScalar dt_s, const HydrodynamicSettings& s, std::span<btScalar> scratch_m3ps,
                          SlammingState& state) {
  assert(scratch_m3ps.size() == state.sweptRate_m3ps.size() && triangleArea_m2.size() == scratch_m3ps.size());
  // Swept volume rate of each hull triangle into the water: submerged area
  // times the inward normal speed, summed over its pieces [m^3/s].
  std::fill(scratch_m3ps.begin(), scratch_m3ps.end(), btScalar(0));
  for (std::size_t i = 0; i < pieces.size(); ++i)
    scratch_m3ps[pieces[i].triangle] += flows[i].area_m2 *
                                        std::max(btScalar(0), flows[i].velocity_mps.dot(flows[i].normal));
  ForceTorque out;
  if (state.warm && hullArea_m2 > 0 && dt_s > 0) {
    for (std::size_t i = 0; i < pieces.size(); ++i) {
      const PieceFlow& f = flows[i];
      if (f.cosTheta <= 0) continue;
      const std::uint32_t t = pieces[i].triangle;
      // Gamma: growth rate of the swept volume per unit area [m/s^2].
      const btScalar gamma = (scratch_m3ps[t] - state.sweptRate_m3ps[t]) / (triangleArea_m2[t] * dt_s);
      if (gamma <= 0) continue;
      const btScalar ratio = std::min(gamma / s.slammingCutoff_mps2, btScalar(1));
      // The force that stops this piece's share of the boat's mass in one
      // substep (the /dt makes it a force).
      const btVector3 stop = f.velocity_mps * (mass_kg * 2 * f.area_m2 / hullArea_m2 / dt_s);
      const btVector3 force = stop * (-btPow(ratio, s.slammingPower) * f.cosTheta);
      out.force_N += force;
      out.torque_Nm += f.centroid.cross(force);
    }
  }
  std::copy(scratch_m3ps.begin(), scratch_m3ps.end(), state.sweptRate_m3ps.begin());
  state.warm = true;
  return out;
}

ForceTorque airForce(std::span<const btVector3> r, std::span<const Hull::Triangle> triangles,
                     std::span<const EmergedTriangle> emerged, const btVector3& linearVelocity_mps,
                     const btVector3& angularVelocity_radps, const HydrodynamicSettings& s) {
  ForceTorque out;
  const btScalar half = btScalar(0.5) * s.airDensity_kgpm3 * s.airDragCoefficient;
  const btVector3 air = linearVelocity_mps - s.wind_mps;  // the hull's velocity relative to the air at G
  for (const EmergedTriangle& e : emerged) {
    const btVector3& a = r[triangles[e.triangle][0]];
    const btVector3& b = r[triangles[e.triangle][1]];
    const btVector3& c = r[triangles[e.triangle][2]];
    const btVector3 centroid = (a + b + c) * btScalar(1.0 / 3.0);
    const btVector3 velocity = air + angularVelocity_radps.cross(centroid);
    const btScalar facing = velocity.dot(areaVector_m2(a, b, c));  // S . v
    if (facing <= 0) continue;                                     // only faces meeting the air are pushed
    const btVector3 force = velocity * (-half * e.fraction * facing);
    out.force_N += force;
    out.torque_Nm += centroid.cross(force);
  }
  return out;
}

}  // namespace keel::reference
