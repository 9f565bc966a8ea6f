#include "fleet_world.hpp"

#include <BulletCollision/BroadphaseCollision/btDbvtBroadphase.h>

#include <cmath>
#include <stdexcept>
#include <string>

namespace game {

btScalar setBroadphaseMargin(btScalar margin_m) {
  if (!(margin_m >= 0) || !std::isfinite(margin_m))
    throw std::invalid_argument("setBroadphaseMargin: the margin must be finite and >= 0, not " +
                                std::to_string(margin_m));
  const btScalar replaced = gDbvtMargin;
  gDbvtMargin = margin_m;
  return replaced;
}

}  // namespace game
