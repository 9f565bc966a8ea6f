#pragma once
// Bullet's broadphase for a fleet of thousands of boats (docs/integration.md,
// "Thousands of boats").

#include <LinearMath/btScalar.h>

namespace game {

/// Makes every btDbvtBroadphase of the program keep each body's box in a
/// tree leaf `margin_m` larger on every side (Bullet's gDbvtMargin, 0.05 m
/// by default), so that a boat rocking on waves seldom leaves its leaf, to be
/// taken out of the tree and put back, where with 0.05 m one in four does
/// each step.
/// Bodies whose leaves overlap are handed to the narrowphase, which finds
/// the contacts; boats apart have none. Set before stepping; returns the
/// margin it replaced. Throws std::invalid_argument unless `margin_m` is
/// finite and not negative.
btScalar setBroadphaseMargin(btScalar margin_m);

}  // namespace game
