#pragma once
// What the wake field's tests share: still water under the field, a window's
// settings, and a boat moved along a prescribed path (captive).

#include "test_hulls.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <memory>

namespace keel::test {

/// Skips a validation that only measures again what the cheaper wake tests
/// already run under the sanitizers (a long tow, a long ring): the
/// sanitizer build sets KEEL_SANITIZED (tests/CMakeLists.txt), and the
/// Release builds run it.
#define KEEL_SKIP_UNDER_SANITIZERS()                                                                  \
  do {                                                                                                \
    if (std::getenv("KEEL_SANITIZED") != nullptr)                                                     \
      GTEST_SKIP() << "a long validation: the Release builds run it, the sanitizers the cheap tests"; \
  } while (false)

/// Level water at height 0: the ambient sea of the wake tests.
inline std::shared_ptr<const WaterSurface> flatWater() { return std::make_shared<LevelWater>(); }

/// A window of `size_m` [m] and `cell_m` [m] cells centred on the origin,
/// the other settings the defaults.
inline WakeFieldSettings wakeWindow(double size_m, double cell_m) {
  WakeFieldSettings ws;
  ws.size_m = size_m;
  ws.cellSize_m = cell_m;
  return ws;
}

/// A boat moved along a prescribed path (captive), in a world of its own
/// that is never stepped: each frame its body is put where the path says
/// and its action primed at the frame's time, which leaves its sources for
/// the field's next update. Registered with the field.
struct Captive {
  Captive(const Mesh& mesh, const std::shared_ptr<WakeField>& field, const HydrostaticSettings& settings = {})
      : hull(hullOf(mesh)),
        body(world.addBox(btVector3(1, 1, 1), btScalar(100), btTransform::getIdentity())),
        action(body, hull, field, settings) {
    field->add(action);
  }
  /// The boat at `position_m`, upright, moving at `velocity_mps` without
  /// turning (prime leaves the body an angular velocity: reset each frame),
  /// at time t_s, for a frame of dt_s.
  void place(const btVector3& position_m, const btVector3& velocity_mps, double t_s, btScalar dt_s) {
    body->setWorldTransform(btTransform(btQuaternion::getIdentity(), position_m));
    body->setLinearVelocity(velocity_mps);
    body->setAngularVelocity(btVector3(0, 0, 0));
    action.setTime(t_s);
    action.prime(dt_s);
  }
  World world;
  std::shared_ptr<const Hull> hull;
  btRigidBody* body;
  WaterAction action;
};

}  // namespace keel::test
