// The Air and Damping stages: air resistance on the emerged faces, and the
// optional damping scaled by the submerged fraction (docs/model.md §2).
#include "hull/hull_access.hpp"
#include "substep/profile.hpp"
#include "substep/stages.hpp"

#include <algorithm>

namespace keel::KEEL_ABI::detail {

void airResistance(const BoatModel& boat, BoatState& state, const BodySnapshot& body, Substep& s) {
  const StageScope scope(s.profile, SubstepStage::Air);
  const HydrodynamicSettings& h = boat.dynamics;
  if (!s.plan.air) return;
  AirParameters p;
  const btVector3 air = (body.linearVelocity_mps - h.wind_mps) * state.basis;  // body axes
  const btVector3 wBody = body.angularVelocity_radps * state.basis;
  for (int k = 0; k < 3; ++k) p.airVelocity_mps[k] = air[k], p.angularVelocity_radps[k] = wBody[k];
  p.half = btScalar(0.5) * h.airDensity_kgpm3 * h.airDragCoefficient;
  state.hydrodynamics.air = bodyToWorld(state.basis, airSums(soaOf(boat.hull), s.buffers.emerged.data(), p));
}

void extraDamping(const BoatModel& boat, BoatState& state, const BodySnapshot& body, Substep& s) {
  const StageScope scope(s.profile, SubstepStage::Damping);
  const HydrodynamicSettings& h = boat.dynamics;
  if (!(s.plan.damping && boat.hull.volume_m3() > 0)) return;
  const btScalar fraction = std::clamp(state.hydrostatics.submergedVolume_m3 / boat.hull.volume_m3(), btScalar(0),
                                       btScalar(1));
  state.hydrodynamics.damping.force_N = s.relativeVelocity_mps * (-h.linearDamping_Nspm * fraction);
  state.hydrodynamics.damping.torque_Nm = body.angularVelocity_radps * (-h.angularDamping_Nmsprad * fraction);
}

}  // namespace keel::KEEL_ABI::detail
