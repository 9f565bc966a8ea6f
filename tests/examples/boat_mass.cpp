#include "boat_mass.hpp"

namespace game {

WeighedBoat weighBoat(const keel::Hull& fileHull, double engine_kg, const btVector3& engine_m) {
  const btVector3 up(0, 1, 0);
  const double bilge_m = fileHull.boundsMin().y() + 0.1;  // 10 cm above the lowest point
  keel::MassModel model;
  model
      .shell(fileHull, 0.008, 1800)  // 8 mm of GRP over the whole hull
      .pointMass(engine_kg, engine_m)
      .ballastBelow(fileHull, up, bilge_m, 7200, keel::RegionDensity::Adds);  // cast iron
  WeighedBoat boat;
  boat.mass = model.properties();
  // One call: the hull with its origin at the centre of mass, on the principal axes.
  boat.hull = keel::toBodyFrame(fileHull, boat.mass.bodyToHull());
  boat.draft_m = keel::draftForMass_m(fileHull, boat.mass.mass_kg, 1025);
  // The body's axes are the principal axes, not the file's: a HUD or a
  // propeller that assumed +x forward would read the turn between them.
  boat.axes = boat.mass.axesInBody({.forward = btVector3(1, 0, 0), .up = btVector3(0, 1, 0)});
  return boat;
}

std::unique_ptr<btRigidBody> makeBody(const WeighedBoat& boat, btCollisionShape& shape,
                                      const btTransform& fileInWorld) {
  btRigidBody::btRigidBodyConstructionInfo info(boat.mass.mass_kg, nullptr, &shape, boat.mass.principalInertia_kgm2);
  info.m_startWorldTransform = fileInWorld * boat.mass.bodyToHull();
  return std::make_unique<btRigidBody>(info);
}

}  // namespace game
