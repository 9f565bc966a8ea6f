#include "ballast.hpp"

namespace game {

keel::MassModel ballastedBoat(const keel::Hull& fileHull, double engine_kg, const btVector3& engine_m, double draft_m) {
  keel::MassModel model;
  model.shell(fileHull, 0.008, 1800).pointMass(engine_kg, engine_m);  // the structure
  // What the displacement at the draft leaves, centred 5 cm above the keel
  // and along the boat where it trims it level.
  const double bilge_m = fileHull.boundsMin().y() + 0.05;
  const keel::Ballast lead = keel::ballastForWaterline(fileHull, model, draft_m, bilge_m, 1025);
  model.pointMass(lead.mass_kg, lead.position_m);
  return model;
}

}  // namespace game
