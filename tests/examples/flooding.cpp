#include "flooding.hpp"

#include <keel/hull_slice.hpp>

#include <vector>

namespace game {

namespace {

/// Where `count - 1` bulkheads split the hull into equal lengths along `forward`.
std::vector<btScalar> bulkheadPositions(const keel::Hull& hull, const btVector3& forward, int count) {
  btScalar aft = BT_LARGE_FLOAT, fore = -BT_LARGE_FLOAT;
  for (const btVector3& p : hull.vertices()) aft = btMin(aft, p.dot(forward)), fore = btMax(fore, p.dot(forward));
  std::vector<btScalar> at;
  for (int i = 1; i < count; ++i) at.push_back(aft + (fore - aft) * btScalar(i) / btScalar(count));
  return at;
}

}  // namespace

// Compartments simplified to 1 cm: a slice keeps the hull's fine triangles,
// and each costs time every substep.
void addBulkheads(keel::WaterAction& boat, const btVector3& forward, int count) {
  const keel::Hull& hull = *boat.hull();
  boat.setCompartments(keel::bulkheadCompartments(hull, forward, bulkheadPositions(hull, forward, count), 0.01f));
}

void addBulkheadsAndCentreline(keel::WaterAction& boat, const btVector3& forward, const btVector3& starboard,
                               int count) {
  const keel::Hull& hull = *boat.hull();
  // The centreline through the hull's middle across the beam, a millimetre
  // off: a cut through the sections' cap centres can leave one open.
  btScalar port = BT_LARGE_FLOAT, side = -BT_LARGE_FLOAT;
  for (const btVector3& p : hull.vertices()) port = btMin(port, p.dot(starboard)), side = btMax(side, p.dot(starboard));
  const btScalar centre = (port + side) / 2 + 0.001f;
  boat.setCompartments(
      keel::sideCompartments(hull, forward, bulkheadPositions(hull, forward, count), starboard, centre, 0.01f));
}

HardContactHoles::HardContactHoles(btDynamicsWorld& world, btScalar speed_mps, btScalar area_m2)
    : holing({.speedChange_mps = speed_mps, .holeArea_m2 = area_m2}), world_(world) {
  // An action: Bullet runs it every substep after the solver, when each
  // contact holds that substep's impulse.
  world_.addAction(&holing);
}

HardContactHoles::~HardContactHoles() { world_.removeAction(&holing); }

}  // namespace game
