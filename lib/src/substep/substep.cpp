// The snapshot and state every model's substep works on, and its skipping.
#include "substep/substep.hpp"

#include "action/raised_mass.hpp"
#include "substep/model.hpp"
#include "substep/profile.hpp"
#include "substep/stages.hpp"

#include <BulletDynamics/Dynamics/btRigidBody.h>

#include <cmath>
#include <stdexcept>
#include <utility>

namespace keel::KEEL_ABI::detail {

bool skipSubstep(BoatState& state, std::uint32_t flags) {
  state.hydrostatics = HydrostaticResult{};
  state.hydrodynamics = HydrodynamicForces{};
  state.total = ForceTorque{};
  state.pendingLinear_mps.setZero();
  state.pendingAngular_radps.setZero();
  state.anyWet = false;
  finishStatus(state.status, flags, true);
  return false;
}

BodySnapshot BodySnapshot::of(const btRigidBody& body, const RaisedMass& raised, bool gravityInTotal) {
  BodySnapshot s;
  s.centreOfMass = body.getCenterOfMassTransform();
  s.linearVelocity_mps = body.getLinearVelocity();
  s.angularVelocity_radps = body.getAngularVelocity();
  s.bulletInverseMass_pkg = body.getInvMass();
  s.inverseInertia = body.getInvInertiaTensorWorld();
  ownMassOf(body, raised, s.inverseMass_pkg, s.ownInverseInertiaLocal);
  if (raised.active) {  // Bullet's is raised: the own inertia in world axes
    s.inverseInertia = worldInverseInertia(s.centreOfMass.getBasis(), s.ownInverseInertiaLocal);
  }
  s.totalForce_N = body.getTotalForce();
  s.totalTorque_Nm = body.getTotalTorque();
  s.gravityInTotal = gravityInTotal;
  s.gravity_mps2 = body.getGravity();
  s.linearDamping = body.getLinearDamping();
  s.angularDamping = body.getAngularDamping();
  s.linearFactor = body.getLinearFactor();
  s.angularFactor = body.getAngularFactor();
  s.staticOrKinematic = body.isStaticOrKinematicObject();
  return s;
}

BoatState::BoatState() = default;
BoatState::~BoatState() = default;

void BoatState::allocate(const Hull& hull, const HydrostaticSettings& statics) {
  for (std::unique_ptr<ModelState>& m : models) m.reset();
  configurePatch(hull, statics);
}

void PointWater::fit(std::size_t padded) {
  if (above_m.size() >= padded) return;
  for (std::vector<btScalar>* v : {&height_m, &previousHeight_m, &above_m}) v->resize(padded, 0);
  havePrevious = false;
}

void BoatState::configurePatch(const Hull& hull, const HydrostaticSettings& statics) {
  // Configured aside, so that a throw leaves the boat as it was.
  PatchSampler next;
  if (statics.sampling == Sampling::Patch) next.configure(statics.patchCellSize_m, hull.radius_m());
  if (statics.sampling == Sampling::Auto) try {
      next.configure(statics.patchCellSize_m, hull.radius_m());
    } catch (const std::invalid_argument&) {  // too many nodes: Auto then samples directly
      next = PatchSampler{};
    }
  patch = std::move(next);
}

}  // namespace keel::KEEL_ABI::detail
