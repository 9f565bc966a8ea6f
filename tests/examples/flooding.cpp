#include "flooding.hpp"

#include <keel/hull_slice.hpp>

#include <vector>

namespace game {

void addBulkheads(keel::WaterAction& boat, const btVector3& forward, int count) {
  const keel::Hull& hull = *boat.hull();
  btScalar aft = BT_LARGE_FLOAT, fore = -BT_LARGE_FLOAT;
  for (const btVector3& p : hull.vertices()) aft = btMin(aft, p.dot(forward)), fore = btMax(fore, p.dot(forward));
  std::vector<btScalar> at;
  for (int i = 1; i < count; ++i) at.push_back(aft + (fore - aft) * btScalar(i) / btScalar(count));
  // Compartments simplified to 1 cm: a slice keeps the hull's fine
  // triangles, and each costs time every substep.
  boat.setCompartments(keel::bulkheadCompartments(hull, forward, at, btScalar(0.01)));
}

int holeOnHardContacts(btDynamicsWorld& world, std::span<keel::WaterAction* const> boats, btScalar speed_mps,
                       btScalar area_m2) {
  int holes = 0;
  btDispatcher& dispatcher = *world.getDispatcher();
  for (int m = 0; m < dispatcher.getNumManifolds(); ++m) {
    const btPersistentManifold& manifold = *dispatcher.getManifoldByIndexInternal(m);
    for (int c = 0; c < manifold.getNumContacts(); ++c) {
      const btManifoldPoint& point = manifold.getContactPoint(c);
      if (point.getLifeTime() > 1) continue;  // not new
      for (keel::WaterAction* boat : boats) {
        const btScalar speedChange_mps = point.getAppliedImpulse() * boat->body()->getInvMass();
        if (speedChange_mps < speed_mps) continue;
        if (manifold.getBody0() == boat->body()) boat->openHole(point.getPositionWorldOnA(), area_m2), ++holes;
        if (manifold.getBody1() == boat->body()) boat->openHole(point.getPositionWorldOnB(), area_m2), ++holes;
      }
    }
  }
  return holes;
}

}  // namespace game
