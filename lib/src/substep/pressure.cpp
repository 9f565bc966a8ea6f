// The Pressure stage: Kerner's exact hydrostatic pressure integral over
// the wet triangles and the cut pieces (docs/model.md §1.1), of the depths
// or of the corners' pressure heads when the WavePressure stage gave them
// (docs/model.md, "Wave pressure").
#include "hull/hull_access.hpp"
#include "substep/stages.hpp"

namespace keel::KEEL_ABI::detail {

void piecePressure(const BoatModel& boat, BoatState& state, Substep& s) {
  BoatBuffers& b = s.buffers;
  PieceStream streams[2] = {b.triangles(soaOf(boat.hull)), b.pieces.stream()};
  if (s.cornerHeads) {  // the corners' pressure heads, in place of their depths
    streams[0].e0 = b.head0.data(), streams[0].e1 = b.head1.data(), streams[0].e2 = b.head2.data();
    streams[1].e0 = b.pieces.e0.data(), streams[1].e1 = b.pieces.e1.data(), streams[1].e2 = b.pieces.e2.data();
  }
  finishPressure(boat, state, s, pressureSums(streams, 2, s.axes.up));
}

bool limitPressureAtBounds(const BoatModel& boat, HydrostaticResult& p, btScalar gravity_mps2) {
  const auto maxForce = maxPressureForce<double>(boat, gravity_mps2);
  const double maxTorque = maxForce * double(boat.hull.radius_m());
  const double force = double(p.force_N.length()), torque = double(p.torque_Nm.length());
  bool limited = false;
  if (force > maxForce) p.force_N *= btScalar(maxForce / force), limited = true;
  if (torque > maxTorque) p.torque_Nm *= btScalar(maxTorque / torque), limited = true;
  return limited;
}

}  // namespace keel::KEEL_ABI::detail
