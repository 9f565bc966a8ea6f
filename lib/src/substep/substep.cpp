// The Pose stage, and the snapshot and state every model's substep works
// on.
#include "substep/substep.hpp"

#include "action/raised_mass.hpp"
#include "substep/model.hpp"
#include "substep/profile.hpp"
#include "substep/stages.hpp"

#include <BulletDynamics/Dynamics/btRigidBody.h>

#include <cmath>
#include <limits>
#include <stdexcept>
#include <utility>

namespace keel::KEEL_ABI::detail {
namespace {

/// Starts a substep's results: nothing pending, no water found yet.
void beginSubstep(BoatState& state) {
  state.pendingLinear_mps.setZero();
  state.pendingAngular_radps.setZero();
  if (!state.termsCleared) {
    state.hydrodynamics = HydrodynamicForces{};
    state.referenceWater_mps.setZero();
    state.energyAllowance_J = 0;
    state.termsCleared = true;
  }
  state.lowestAbove_m = std::numeric_limits<btScalar>::quiet_NaN();  // until the water is found
}

/// The Pose stage (stages.hpp), inlined where findWater calls it: a call
/// fewer a substep.
[[gnu::always_inline]] inline bool readPose(const BoatModel&, BoatState& state, const BodySnapshot& body, Substep& s) {
  const StageScope scope(s.profile, SubstepStage::Pose);
  if (body.staticOrKinematic || !(body.inverseMass_pkg > 0)) {
    s.flags = StatusStaticBody;
    return false;
  }
  // The water's frame, again only when gravity changed.
  if (!(state.frameValid && body.gravity_mps2 == state.frameGravity_mps2)) {
    state.frameValid = WaterFrame::fromGravity(body.gravity_mps2, state.frame);
    state.frameGravity_mps2 = body.gravity_mps2;
    state.frameGravityLength_mps2 = body.gravity_mps2.length();
  }
  if (!state.frameValid) {
    s.flags = StatusNoGravity;
    return false;
  }
  if (!isFinite(body.centreOfMass)) {
    s.flags = StatusNonFiniteBody;
    return false;
  }
  s.effectiveInverseMass_pkg = body.inverseMass_pkg;  // the AddedMass stage raises them
  s.effectiveInverseInertia = body.inverseInertia;
  // Read from the snapshot, not from the state just written: a load of
  // what was just stored in other widths would wait for the stores.
  const btVector3& centre = body.centreOfMass.getOrigin();
  const btMatrix3x3& basis = body.centreOfMass.getBasis();
  state.centre_m = centre;
  state.basis = basis;
  // The water's axes in the body frame (B^T a): the hull's vertices are
  // used as they are.
  const WaterFrame& f = state.frame;
  s.axes.east = timesRows(f.east, basis);
  s.axes.north = timesRows(f.north, basis);
  s.axes.up = timesRows(f.up, basis);
  s.axes.centreEast_m = double(centre.dot(f.east));
  s.axes.centreNorth_m = double(centre.dot(f.north));
  s.axes.centreUp_m = centre.dot(f.up);
  return true;
}

}  // namespace

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

bool findWater(const BoatModel& boat, BoatState& state, PointWater& water, const BodySnapshot& body, Substep& s,
               const HullSoA& points, bool smallHull) {
  beginSubstep(state);
  return readPose(boat, state, body, s) && sampleWater(boat, state, water, s, points) &&
         heightsAboveWater(boat, state, water, s, points, smallHull);
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
