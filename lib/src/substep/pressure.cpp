// Stage 6 of the substep: Kerner's exact hydrostatic pressure integral
// over the wet triangles and the cut pieces (docs/model.md §1.1).
#include "substep/stages.hpp"

namespace keel::detail {

void pressure(const BoatModel& boat, BoatState& state, Substep& s) {
  BoatBuffers& b = s.buffers;
  const PieceStream streams[2] = {b.triangles(boat.hull.soa()), b.pieces.stream()};
  const PressureSums sums = pressureSums(streams, 2, s.axes.up);
  // The sums are in body axes: the result is turned to world axes once.
  HydrostaticResult& r = state.hydrostatics;
  r = pressureResult(sums, boat.statics.waterDensity_kgpm3, state.frameGravity_mps2.length(), s.axes.up);
  r.force_N = state.basis * r.force_N;
  r.torque_Nm = state.basis * r.torque_Nm;
  r.centreOfBuoyancy_m = state.basis * r.centreOfBuoyancy_m;
}

}  // namespace keel::detail
