// The VelocityChange stage's cold paths (velocity_change.hpp): a refused
// force, and Bullet's damping factors remade when the damping or the
// substep changed.
#include "substep/velocity_change.hpp"

namespace keel::KEEL_ABI::detail {

bool refuseForce(BoatState& state, std::uint32_t flags) {
  state.hydrostatics = HydrostaticResult{};
  state.hydrodynamics = HydrodynamicForces{};
  state.total = ForceTorque{};
  finishStatus(state.status, flags | StatusNonFiniteForce, true);
  return false;
}

void remakeDampingFactors(BoatState& state, const BodySnapshot& body, btScalar dt_s) {
  state.dampingFactors[0] = dampingFactor(body.linearDamping, dt_s);
  state.dampingFactors[1] = dampingFactor(body.angularDamping, dt_s);
  state.dampingInverse[0] = btScalar(1) / state.dampingFactors[0];
  state.dampingInverse[1] = btScalar(1) / state.dampingFactors[1];
  state.dampingOf[0] = dt_s, state.dampingOf[1] = body.linearDamping, state.dampingOf[2] = body.angularDamping;
}

}  // namespace keel::KEEL_ABI::detail
