#include "hull_from_shape.hpp"

namespace game {

std::shared_ptr<const keel::Hull> hullOf(const btCollisionShape& shape) {
  try {
    return keel::hullFromShape(shape);
  } catch (const keel::HullError& e) {
    if (e.counts().overlappingParts == 0) throw;
    // A crate and a mast pushed into each other: their union, counted once.
    keel::HullOptions options;
    options.overlappingParts = true;
    return keel::hullFromShape(shape, {}, options);
  }
}

std::unique_ptr<keel::WaterAction> floatBody(btRigidBody& body, std::shared_ptr<const keel::WaterSurface> water) {
  return std::make_unique<keel::WaterAction>(&body, hullOf(*body.getCollisionShape()), std::move(water));
}

}  // namespace game
