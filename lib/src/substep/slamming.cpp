// Stage 8 of the substep: slamming, the force that stops faces hitting the
// water fast, in proportion to how fast their swept volume grows (Kerner
// part 2; docs/model.md §2).
#include "substep/stages.hpp"

#include <algorithm>

namespace keel::KEEL_ABI::detail {

void slamming(const BoatModel& boat, BoatState& state, Substep& s) {
  if (!boat.dynamics.slamming) return;
  BoatBuffers& b = s.buffers;
  PieceBuffer& pieces = b.pieces;
  const HullSoA& soa = boat.hull.soa();
  // The whole triangles' slamming came with the flow pass. A cut triangle's
  // swept rate is its pieces' sum; its pieces' slamming then follows from
  // the triangle's gamma, the growth rate of its swept volume per unit area
  // [m/s^2]. Crossing triangle k's pieces are slots k and, for k < twoSlots,
  // slots + k.
  if (!s.perPiece) std::fill(state.sweptRate_m3ps.begin(), state.sweptRate_m3ps.end(), btScalar(0));
  const std::size_t crossing = s.perPiece ? pieces.crossing : 0, slots = pieces.slots;
  const btScalar inverseDt = s.slam ? btScalar(1) / s.dt_s : btScalar(0);
  for (std::size_t k = 0; k < crossing; ++k) {
    const auto t = std::size_t(b.crossing[k]);
    const bool two = k < pieces.twoSlots;
    const btScalar rate = pieces.rate[k] + (two ? pieces.rate[slots + k] : btScalar(0));
    state.sweptRate_m3ps[t] = rate;
    const btScalar gamma = (rate - state.previousSweptRate_m3ps[t]) * inverseDt * soa.inverseArea[t];
    pieces.gamma[k] = gamma;
    if (two) pieces.gamma[slots + k] = gamma;
  }
  BodyForce total = s.flow.slamming;
  if (s.slam) total += slammingSums(pieces.stream(), pieces.flowOut(), pieces.gamma.data(), s.slamming);
  state.hydrodynamics.slamming = bodyToWorld(state.basis, total);
  state.sweptRate_m3ps.swap(state.previousSweptRate_m3ps);
  state.slammingWarm = true;
}

}  // namespace keel::KEEL_ABI::detail
