// The Pressure stage: Kerner's exact hydrostatic pressure integral over
// the wet triangles and the cut pieces (docs/model.md §1.1), of the depths
// or of the corners' pressure heads when the WavePressure stage gave them
// (docs/model.md, "Wave pressure").
#include "hull/hull_access.hpp"
#include "substep/profile.hpp"
#include "substep/stages.hpp"

namespace keel::KEEL_ABI::detail {
namespace {

/// Limits the pressure force and torque to what any sea can give the hull
/// (kMaxPressureForceFactor rho g V, and that times the hull's radius about
/// the centre of mass): a backstop against water no sea makes, which the
/// height checks let through (a steep but plausible spike under one corner).
[[gnu::always_inline]] inline bool limitPressure(const BoatModel& boat, HydrostaticResult& p, btScalar gravity_mps2) {
  const double maxForce = kMaxPressureForceFactor * double(boat.statics.waterDensity_kgpm3) * double(gravity_mps2) *
                          double(boat.hull.volume_m3());
  const double maxTorque = maxForce * double(boat.hull.radius_m());
  // Well inside both limits (the squares 2 % below theirs, far more than
  // the lengths' rounding), nothing to limit: no square roots.
  if (double(p.force_N.length2()) < 0.98 * maxForce * maxForce &&
      double(p.torque_Nm.length2()) < 0.98 * maxTorque * maxTorque)
    return false;
  const double force = double(p.force_N.length()), torque = double(p.torque_Nm.length());
  bool limited = false;
  if (force > maxForce) p.force_N *= btScalar(maxForce / force), limited = true;
  if (torque > maxTorque) p.torque_Nm *= btScalar(maxTorque / torque), limited = true;
  return limited;
}

/// The hydrostatic result of the sums (body axes) in world axes, limited.
/// (Inlined in pressure: a call fewer a substep.)
[[gnu::always_inline]] inline void finishPressure(const BoatModel& boat, BoatState& state, Substep& s,
                                                  const PressureSums& sums) {
  // The sums are in body axes: the result is turned to world axes once.
  HydrostaticResult& r = state.hydrostatics;
  const btScalar gravity_mps2 = state.frameGravityLength_mps2;
  pressureResult(sums, boat.statics.waterDensity_kgpm3, gravity_mps2, s.axes.up, state.basis, r);
  if (limitPressure(boat, r, gravity_mps2)) s.flags |= StatusPressureLimited;
}

}  // namespace

void pressure(const BoatModel& boat, BoatState& state, Substep& s) {
  const StageScope scope(s.profile, SubstepStage::Pressure);
  BoatBuffers& b = s.buffers;
  if (s.summed) {  // the cut summed them (cutAndSum)
    finishPressure(boat, state, s, s.sums.value);
    return;
  }
  PieceStream streams[2] = {b.triangles(soaOf(boat.hull)), b.pieces.stream()};
  if (s.cornerHeads) {  // the corners' pressure heads, in place of their depths
    streams[0].e0 = b.head0.data(), streams[0].e1 = b.head1.data(), streams[0].e2 = b.head2.data();
    streams[1].e0 = b.pieces.e0.data(), streams[1].e1 = b.pieces.e1.data(), streams[1].e2 = b.pieces.e2.data();
  }
  finishPressure(boat, state, s, pressureSums(streams, 2, s.axes.up));
}

}  // namespace keel::KEEL_ABI::detail
