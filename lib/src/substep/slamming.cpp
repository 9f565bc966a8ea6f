// The Slamming stage: the force that stops faces hitting the water fast,
// in proportion to how fast their swept volume grows (Kerner part 2;
// docs/model.md §2).
#include "hull/hull_access.hpp"
#include "substep/profile.hpp"
#include "substep/stages.hpp"

#include <algorithm>

namespace keel::KEEL_ABI::detail {

void slamming(const BoatModel& boat, BoatState& state, TriangleState& tri, Substep& s) {
  const StageScope scope(s.profile, SubstepStage::Slamming);
  if (!s.plan.slamming) return;
  BoatBuffers& b = s.buffers;
  PieceBuffer& pieces = b.pieces;
  const HullSoA& soa = soaOf(boat.hull);
  // The whole triangles' slamming came with the flow pass. A cut triangle's
  // swept rate is its pieces' sum; its pieces' slamming then follows from
  // the triangle's gamma, the growth rate of its swept volume per unit area
  // [m/s^2]. Crossing triangle k's pieces are slots k and, for k < twoSlots,
  // slots + k.
  // (The flow pass ran exactly when the hull is wet.)
  const bool flowed = state.anyWet;
  if (!flowed) std::fill(tri.sweptRate_m3ps.begin(), tri.sweptRate_m3ps.end(), btScalar(0));
  const std::size_t crossing = flowed ? pieces.crossing : 0, slots = pieces.slots;
  const btScalar inverseDt = s.slamSummed ? btScalar(1) / s.dt_s : btScalar(0);
  for (std::size_t k = 0; k < crossing; ++k) {
    const auto t = std::size_t(b.crossing[k]);
    const bool two = k < pieces.twoSlots;
    const btScalar rate = pieces.rate[k] + (two ? pieces.rate[slots + k] : btScalar(0));
    tri.sweptRate_m3ps[t] = rate;
    const btScalar gamma = (rate - tri.previousSweptRate_m3ps[t]) * inverseDt * soa.inverseArea[t];
    pieces.gamma[k] = gamma;
    if (two) pieces.gamma[slots + k] = gamma;
  }
  BodyForce total = s.flow.value.slamming;
  if (s.slamSummed) total += slammingSums(pieces.stream(), pieces.flowOut(), pieces.gamma.data(), s.slamming);
  state.hydrodynamics.slamming = bodyToWorld(state.basis, total);
  tri.sweptRate_m3ps.swap(tri.previousSweptRate_m3ps);
  tri.slammingWarm = true;
}

}  // namespace keel::KEEL_ABI::detail
