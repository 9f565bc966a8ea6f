#include <keel/collision_holing.hpp>

#include <BulletCollision/CollisionDispatch/btCollisionWorld.h>
#include <BulletCollision/NarrowPhaseCollision/btPersistentManifold.h>
#include <BulletDynamics/Dynamics/btRigidBody.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace keel::KEEL_ABI {
namespace {

bool positiveFinite(btScalar x) { return std::isfinite(x) && x > 0; }

const btCollisionObject* bodyOf(const WaterAction& boat) { return boat.body(); }

}  // namespace

CollisionHoling::CollisionHoling(const HolingSettings& settings) : settings_(settings) {
  const char* bad = !positiveFinite(settings.speedChange_mps) ? "speedChange_mps is not finite and positive"
                    : !positiveFinite(settings.impactTime_s)  ? "impactTime_s is not finite and positive"
                    : !positiveFinite(settings.holeArea_m2)   ? "holeArea_m2 is not finite and positive"
                    : !(settings.dischargeCoefficient > 0 && settings.dischargeCoefficient <= 1)
                        ? "dischargeCoefficient is outside (0, 1]"
                    : !(std::isfinite(settings.rearm_s) && settings.rearm_s >= 0) ? "rearm_s is negative or not finite"
                                                                                  : nullptr;
  if (bad) throw std::invalid_argument(std::string("keel::CollisionHoling: HolingSettings::") + bad);
}

// boats_ is kept sorted by body, so that a contact's bodies are found by
// binary search however many boats there are.
std::size_t CollisionHoling::slot(const btCollisionObject* body) const {
  const auto at = std::lower_bound(boats_.begin(), boats_.end(), body,
                                   [](const Watched& w, const btCollisionObject* b) { return bodyOf(*w.boat) < b; });
  return std::size_t(at - boats_.begin());
}

std::size_t CollisionHoling::find(const btCollisionObject* body) const {
  const std::size_t i = slot(body);
  return i != boats_.size() && bodyOf(*boats_[i].boat) == body ? i : boats_.size();
}

void CollisionHoling::add(WaterAction& boat) {
  const std::size_t i = slot(bodyOf(boat));
  if (i != boats_.size() && bodyOf(*boats_[i].boat) == bodyOf(boat)) return;  // watched already
  Watched w{&boat, settings_.rearm_s, false, {}};
  w.windows[1].age_s = settings_.impactTime_s;  // half a window after the first
  boats_.insert(boats_.begin() + std::ptrdiff_t(i), w);
}

void CollisionHoling::remove(const WaterAction& boat) {
  const std::size_t i = find(bodyOf(boat));
  if (i != boats_.size()) boats_.erase(boats_.begin() + std::ptrdiff_t(i));
}

void CollisionHoling::accumulate(std::size_t boat, const btCollisionObject* other, const btVector3& impulse_Ns,
                                 const btVector3& point_world) {
  const btScalar weight = impulse_Ns.length();
  for (Impact& impact : impacts_)
    if (impact.boat == boat && impact.other == other) {
      impact.impulse_Ns += impulse_Ns;
      impact.weightedPoint += point_world * weight;
      impact.weight_Ns += weight;
      return;
    }
  impacts_.push_back(Impact{boat, other, impulse_Ns, point_world * weight, weight});
}

void CollisionHoling::hole(std::size_t boat, const Window& window, btScalar speedChange_mps) {
  WaterAction& action = *boats_[boat].boat;
  // What hit it: the body whose contact gave the boat the largest impulse this substep.
  const Impact* largest = nullptr;
  for (const Impact& impact : impacts_)
    if (impact.boat == boat && (!largest || impact.weight_Ns > largest->weight_Ns)) largest = &impact;
  const btVector3 point_world = window.weightedPoint / window.weight_Ns;
  const std::size_t compartment = action.openHole(point_world, settings_.holeArea_m2, settings_.dischargeCoefficient);
  holes_.push_back(
      CollisionHole{&action, largest ? largest->other : nullptr, point_world, speedChange_mps, compartment});
}

void CollisionHoling::updateAction(btCollisionWorld* world, btScalar dt_s) {
  impacts_.clear();
  btDispatcher& dispatcher = *world->getDispatcher();
  for (int m = 0; m < dispatcher.getNumManifolds(); ++m) {
    const btPersistentManifold& manifold = *dispatcher.getManifoldByIndexInternal(m);
    const std::size_t boat0 = find(manifold.getBody0()), boat1 = find(manifold.getBody1());
    if (boat0 == boats_.size() && boat1 == boats_.size()) continue;
    for (int c = 0; c < manifold.getNumContacts(); ++c) {
      const btManifoldPoint& point = manifold.getContactPoint(c);
      const btScalar impulse = point.getAppliedImpulse();
      if (!(impulse > 0)) continue;
      // The normal points from body1 to body0: body0 receives +normal impulse.
      const btVector3 onBody0 = point.m_normalWorldOnB * impulse;
      if (boat0 != boats_.size()) accumulate(boat0, manifold.getBody1(), onBody0, point.getPositionWorldOnA());
      if (boat1 != boats_.size()) accumulate(boat1, manifold.getBody0(), -onBody0, point.getPositionWorldOnB());
    }
  }
  // Each window spans two impact times, the second half a window after the
  // first: an impact no longer than impactTime_s lies whole in one of them.
  for (Watched& w : boats_)
    for (Window& window : w.windows) {
      window.age_s += dt_s;
      if (window.age_s > 2 * settings_.impactTime_s) window = Window{};
    }
  for (const Impact& impact : impacts_) {
    Watched& w = boats_[impact.boat];
    w.touched = true;
    for (Window& window : w.windows) {
      window.impulse_Ns += impact.impulse_Ns.length();
      window.weightedPoint += impact.weightedPoint;
      window.weight_Ns += impact.weight_Ns;
    }
  }
  for (std::size_t i = 0; i < boats_.size(); ++i) {
    Watched& w = boats_[i];
    if (!w.touched) {
      w.quiet_s = btMin(w.quiet_s + dt_s, settings_.rearm_s);
      continue;
    }
    w.touched = false;
    const Window& window = w.windows[0].impulse_Ns >= w.windows[1].impulse_Ns ? w.windows[0] : w.windows[1];
    const btScalar speedChange_mps = window.impulse_Ns * w.boat->body()->getInvMass();
    if (!(speedChange_mps > settings_.speedChange_mps)) {
      w.quiet_s = btMin(w.quiet_s + dt_s, settings_.rearm_s);
      continue;
    }
    const bool armed = w.quiet_s >= settings_.rearm_s;
    w.quiet_s = 0;
    if (armed) hole(i, window, speedChange_mps);
  }
}

}  // namespace keel::KEEL_ABI
