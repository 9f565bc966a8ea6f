// keel::WaterAction's debug drawing: the last substep's cut and forces,
// through Bullet's btIDebugDraw (which calls it only when the drawer's mode
// has DBG_DrawWireframe, DBG_DrawAabb or DBG_DrawNormals).
#include <keel/water_action.hpp>

#include "internals.hpp"
#include "substep/model.hpp"

#include <BulletDynamics/Dynamics/btRigidBody.h>
#include <LinearMath/btIDebugDraw.h>

#include <cmath>
#include <utility>

namespace keel::KEEL_ABI {
namespace {

/// Newtons per metre of force arrow when the user set no scale
/// (docs/integration.md, "Debug drawing"): the boat's weight m |g| is one
/// hull radius long, so the buoyancy arrow of a boat afloat reaches about
/// to the hull's edge, a rowboat's as a tanker's. Zero for a body without
/// weight (static, kinematic, or no gravity), which feels no water force
/// (StatusStaticBody, StatusNoGravity): then no arrows are drawn.
btScalar arrowScale_Npm(const btRigidBody& body, const Hull& hull) {
  const btScalar inverseMass = body.getInvMass();
  return inverseMass > 0 ? body.getGravity().length() / (inverseMass * hull.radius_m()) : btScalar(0);
}

}  // namespace

void WaterAction::debugDraw(btIDebugDraw* drawer) {
  if (!drawer) return;
  const detail::BoatState& s = *state_;
  state_->modelState(model_).debugDraw(Internals::model(*this), s, *drawer);  // what the model draws of itself
  // The waterline is orange: apart from Bullet's own colours (white
  // wireframe, red, green, cyan and yellow), from the blue pieces whose top
  // edges it runs along, and from the arrows below.
  const btVector3& centre = s.centre_m;
  const btVector3 pieceColour(0.1f, 0.4f, 1.0f), waterlineColour(1.0f, 0.5f, 0.0f), forceColour(1.0f, 0.2f, 0.1f);
  for (const SubmergedPiece& p : submergedPieces())
    for (int k = 0; k < 3; ++k) drawer->drawLine(centre + p.r[k], centre + p.r[(k + 1) % 3], pieceColour);
  for (const WaterlineSegment& w : waterline()) drawer->drawLine(centre + w.a, centre + w.b, waterlineColour);
  const btScalar scale = debugForceScale_Npm == 0 ? arrowScale_Npm(*body_, *hull_) : debugForceScale_Npm;
  if (!(scale > 0) || !std::isfinite(scale)) return;  // negative, or no weight: no arrows
  if (s.anyWet) {
    // The buoyancy, and the hull's lift in violet, from where they act.
    const btVector3 from = centre + s.hydrostatics.centreOfBuoyancy_m;
    drawer->drawLine(from, from + s.hydrostatics.force_N / scale, forceColour);
    const btVector3& lift = s.hydrodynamics.hullLift.force_N;
    if (!lift.isZero()) drawer->drawLine(from, from + lift / scale, btVector3(0.5f, 0.0f, 1.0f));
  }
  // One arrow per other hydrodynamic term, from the centre of mass.
  const HydrodynamicForces& f = s.hydrodynamics;
  const std::pair<const ForceTorque*, btVector3> terms[] = {{&f.viscous, btVector3(0.2f, 1.0f, 0.2f)},
                                                            {&f.pressureDrag, btVector3(1.0f, 0.8f, 0.1f)},
                                                            {&f.slamming, btVector3(1.0f, 0.1f, 1.0f)},
                                                            {&f.air, btVector3(0.6f, 0.9f, 1.0f)},
                                                            {&f.damping, btVector3(0.6f, 0.6f, 0.6f)}};
  for (const auto& [term, colour] : terms)
    if (!term->force_N.isZero()) drawer->drawLine(centre, centre + term->force_N / scale, colour);
}

}  // namespace keel::KEEL_ABI
