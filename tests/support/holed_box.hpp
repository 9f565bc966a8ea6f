#pragma once
// The flooding tests' scene: a box held in still water with a compartment
// holed at its floor, shared by the Torricelli fill test and the flooding
// effect events' test, which compares with it.

#include "test_hulls.hpp"

#include <keel/keel.hpp>

#include <memory>

namespace keel::test {

/// A 4 x 2 x 4 m box of 20 t held with its keel 1.5 m deep on flat water
/// (y up); a 1 x 1 m compartment from keel to deck, holed at its floor by a
/// square hole of kHoleArea_m2, kHoleHeight_m high, discharge coefficient
/// kDischarge. The action is in the world from construction to destruction.
struct HoledBox {
  static constexpr btScalar kHoleHeight_m = btScalar(0.002), kHoleArea_m2 = btScalar(0.004);
  static constexpr btScalar kDischarge = btScalar(0.6);

  HoledBox() {
    Compartment room{"room", hullOf(box(btVector3(1, 2, 1))), {}, 0, 0, 1};
    room.openings.push_back(Opening{hole_m, kHoleArea_m2, kDischarge, kHoleHeight_m});
    boat.setCompartments({room});
    w.world.addAction(&boat);
  }
  ~HoledBox() { w.world.removeAction(&boat); }
  HoledBox(const HoledBox&) = delete;
  HoledBox& operator=(const HoledBox&) = delete;

  /// One substep of `dt_s` [s], then the box put back where it is held, at rest.
  void stepHeld(double dt_s) {
    w.world.stepSimulation(btScalar(dt_s), 1, btScalar(dt_s));
    body->setWorldTransform(pose);
    body->setLinearVelocity(btVector3(0, 0, 0));
    body->setAngularVelocity(btVector3(0, 0, 0));
  }

  World w;
  const btTransform pose{btQuaternion::getIdentity(), btVector3(0, btScalar(-0.5), 0)};
  btRigidBody* body = w.addBox(btVector3(4, 2, 4), 20000, pose);
  WaterAction boat{body, hullOf(box(btVector3(4, 2, 4))), std::make_shared<FlatSurface>()};
  /// The hole's centre [m], body frame: at the compartment's floor.
  const btVector3 hole_m{0, -1 + kHoleHeight_m / 2, 0};
};

}  // namespace keel::test
