// WakeSources: each wet piece of the hull as a source of the WakeField's
// waves. A face moving into the water at normal velocity v_n pushes it
// aside at v_n times its area: a source of that many m^3/s at the piece's
// centroid, which the field spreads into the waves with the depth weight
// `e^{-k d}` (Michell 1898, the thin ship's sources `2 U f_x` per unit of
// its centreplane; docs/wakes.md, "Forcing"). The velocity is taken
// relative to the ambient water under the centre of mass: a buoy riding a
// swell makes no waves of it, and the field's own waves are not part of
// the motion that makes them.
#include "substep/profile.hpp"
#include "substep/stages.hpp"
#include "wake/wake_link.hpp"

namespace keel::KEEL_ABI::detail {
namespace {

/// The ambient water's velocity under the centre of mass, body axes; zero
/// when the surface throws or answers non-finite (the boat's own sampling
/// already reported the surface's trouble).
btVector3 ambientVelocity(const WakeLink& link, const BoatState& state, const Substep& s) {
  WaterVelocity v;
  try {
    v = link.ambient->velocity(btScalar(s.axes.centreEast_m), btScalar(s.axes.centreNorth_m), s.axes.centreUp_m, s.t_s);
  } catch (...) {
    return {0, 0, 0};
  }
  const btVector3 world = state.frame.toWorld(v);
  if (!isFinite(world)) return {0, 0, 0};
  return state.basis.transpose() * world;
}

/// Packs the wet pieces of both streams into `out`: the whole triangles'
/// indices and depths (their centroids and area vectors are the hull's),
/// then the cut pieces.
void packPieces(const PieceStream& triangles, const PieceStream& pieces, WakeSources& out) {
  const std::size_t most = triangles.count + pieces.count + kPad;  // the packing's vector to spare
  btScalar* planes[kWakePlanes];
  for (std::size_t k = 0; k < kWakePlanes; ++k) {
    if (out.planes[k].size() < most) out.planes[k].resize(most);  // grows to the hull's most pieces, then stays
    planes[k] = out.planes[k].data();
  }
  if (out.triangle.size() < triangles.count + kPad) out.triangle.resize(triangles.count + kPad);
  out.triangles = packWetTriangles(triangles, out.triangle.data(), planes[kPieceDepth], 0);
  out.count = packWetPieces(pieces, planes, out.triangles);
}

}  // namespace

void wakeSources(BoatState& state, const BodySnapshot& body, Substep& s, const HullSoA& soa) {
  if (!state.wakeLink || !state.wakeLink->fieldAlive) return;
  const StageScope scope(s.profile, SubstepStage::WakeSources);
  WakeLink& link = *state.wakeLink;
  WakeSources& out = link.sources;
  out.count = out.triangles = 0;
  if (!link.window.contains(s.axes.centreEast_m, s.axes.centreNorth_m)) {
    s.flags |= StatusOutsideWakeField;
    return;
  }
  if (!state.anyWet) return;
  const btMatrix3x3 toBody = state.basis.transpose();
  out.ambient = ambientVelocity(link, state, s);
  out.velocity = toBody * body.linearVelocity_mps - out.ambient;
  out.angular = toBody * body.angularVelocity_radps;
  out.east = s.axes.east;
  out.north = s.axes.north;
  out.centreEast_m = s.axes.centreEast_m;
  out.centreNorth_m = s.axes.centreNorth_m;
  packPieces(s.buffers.triangles(soa), s.buffers.pieces.stream(), out);
}

}  // namespace keel::KEEL_ABI::detail
