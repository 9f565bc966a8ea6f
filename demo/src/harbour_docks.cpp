// The harbour's docks: the quay, the breakwaters and two piers, as static
// Bullet bodies.

#include "harbour.hpp"
#include "harbour_layout.hpp"

#include <BulletCollision/CollisionShapes/btBoxShape.h>
#include <BulletCollision/CollisionShapes/btCylinderShape.h>
#include <BulletCollision/CollisionShapes/btStaticPlaneShape.h>
#include <BulletDynamics/Dynamics/btDynamicsWorld.h>

#include <memory>
#include <vector>

namespace demo {
namespace {

/// A pier running north from the quay: deck on two rows of piles, with two
/// wales (rubbing timbers) along each side that stop boats slipping between
/// the piles or under the deck.
void addPier(std::vector<DockPiece>& out, double westX_m, double eastX_m, double southZ_m, double northZ_m) {
  const double cx = (westX_m + eastX_m) / 2, hx = (eastX_m - westX_m) / 2;
  const double cz = (southZ_m + northZ_m) / 2, hz = (southZ_m - northZ_m) / 2;
  const double deckMid = kPierDeckTop_m - kPierDeckThickness_m / 2;
  out.push_back({DockPiece::Shape::Box,
                 {btScalar(cx), btScalar(deckMid), btScalar(cz)},
                 {btScalar(hx + 0.1), btScalar(kPierDeckThickness_m / 2), btScalar(hz + 0.1)},
                 "wood"});
  const double pileBottom = kSeabed_m, pileTop = kPierDeckTop_m - kPierDeckThickness_m;
  const double pileMid = (pileBottom + pileTop) / 2, pileHalf = (pileTop - pileBottom) / 2;
  for (double z = southZ_m; z >= northZ_m - 1e-6; z -= kPileSpacing_m)
    for (double x : {westX_m, eastX_m})
      out.push_back({DockPiece::Shape::Cylinder,
                     {btScalar(x), btScalar(pileMid), btScalar(z)},
                     {btScalar(kPileRadius_m), btScalar(pileHalf), btScalar(kPileRadius_m)},
                     "pile"});
  // Wales: outside the piles, one at the waterline, one below it.
  for (double x : {westX_m - kPileRadius_m - 0.1, eastX_m + kPileRadius_m + 0.1})
    for (double y : {0.35, -0.55})
      out.push_back({DockPiece::Shape::Box,
                     {btScalar(x), btScalar(y), btScalar(cz)},
                     {0.1f, 0.2f, btScalar(hz + kPileRadius_m)},
                     "fender"});
  // The pier head: a fender across the end.
  for (double y : {0.35, -0.55})
    out.push_back({DockPiece::Shape::Box,
                   {btScalar(cx), btScalar(y), btScalar(southZ_m + kPileRadius_m + 0.1)},
                   {btScalar(hx + kPileRadius_m + 0.2), 0.2f, 0.1f},
                   "fender"});
  // Bollards along both edges, every other pile.
  for (double z = southZ_m - 2.5; z >= northZ_m; z -= 2 * kPileSpacing_m)
    for (double x : {westX_m + 0.35, eastX_m - 0.35})
      out.push_back({DockPiece::Shape::Cylinder,
                     {btScalar(x), btScalar(kPierDeckTop_m + 0.25), btScalar(z)},
                     {0.15f, 0.25f, 0.15f},
                     "bollard"});
}

}  // namespace

void Harbour::buildDocks() {
  const auto box = [&](double x0, double x1, double y0, double y1, double z0, double z1, const char* material) {
    docks_.push_back({DockPiece::Shape::Box,
                      {btScalar((x0 + x1) / 2), btScalar((y0 + y1) / 2), btScalar((z0 + z1) / 2)},
                      {btScalar((x1 - x0) / 2), btScalar((y1 - y0) / 2), btScalar((z1 - z0) / 2)},
                      material});
  };
  const Basin& b = basin_;
  // The quay along the north side, with a stone face at the water.
  box(-80, 80, kSeabed_m, kQuayTop_m, b.minZ_m - 14, b.minZ_m, "concrete");
  // Breakwaters: west, east, and the south arms either side of the mouth.
  box(b.minX_m - 12, b.minX_m, kSeabed_m, 2.4, b.minZ_m, b.maxZ_m + 8, "stone");
  box(b.maxX_m, b.maxX_m + 12, kSeabed_m, 2.4, b.minZ_m, b.maxZ_m + 8, "stone");
  box(b.minX_m, -14, kSeabed_m, 2.4, b.maxZ_m, b.maxZ_m + 8, "stone");
  box(14, b.maxX_m, kSeabed_m, 2.4, b.maxZ_m, b.maxZ_m + 8, "stone");
  addPier(docks_, -24, -20, -8, b.minZ_m);
  addPier(docks_, 22, 25, -18, b.minZ_m);
  for (const DockPiece& piece : docks_) addDock(piece);
  // The seabed, so that nothing falls for ever.
  auto seabed = std::make_unique<btStaticPlaneShape>(btVector3(0, 1, 0), btScalar(kSeabed_m));
  auto body = std::make_unique<btRigidBody>(0, nullptr, seabed.get());
  body->setUserIndex2(kTagDock);
  world_->addRigidBody(body.get());
  dockShapes_.push_back(std::move(seabed));
  dockBodies_.push_back(std::move(body));
}

void Harbour::addDock(const DockPiece& piece) {
  std::unique_ptr<btCollisionShape> shape;
  if (piece.shape == DockPiece::Shape::Box)
    shape = std::make_unique<btBoxShape>(piece.halfExtents_m);
  else
    shape = std::make_unique<btCylinderShape>(piece.halfExtents_m);
  auto body = std::make_unique<btRigidBody>(0, nullptr, shape.get());
  body->setWorldTransform(btTransform(btQuaternion::getIdentity(), piece.centre_m));
  body->setUserIndex2(kTagDock);
  body->setFriction(0.4f);
  body->setRestitution(0.2f);
  world_->addRigidBody(body.get());
  dockShapes_.push_back(std::move(shape));
  dockBodies_.push_back(std::move(body));
}

}  // namespace demo
