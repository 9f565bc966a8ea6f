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

HardContactHoles::HardContactHoles(btDynamicsWorld& world, btScalar speed_mps, btScalar area_m2)
    : holing({.speedChange_mps = speed_mps, .holeArea_m2 = area_m2}), world_(world) {
  // An action: Bullet runs it every substep after the solver, when each
  // contact holds that substep's impulse.
  world_.addAction(&holing);
}

HardContactHoles::~HardContactHoles() { world_.removeAction(&holing); }

}  // namespace game
