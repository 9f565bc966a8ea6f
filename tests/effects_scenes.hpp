#pragma once
// The scenes the effect-event tests share (effects_test.cpp,
// effects_waterline_test.cpp): a box dropped on flat water, a hull towed.
#include "test_hulls.hpp"

#include <gtest/gtest.h>

#include <memory>
#include <span>
#include <vector>

namespace keel::test::effects {

inline constexpr double kDt = 1.0 / 240;
inline constexpr double kRho = 1025;

/// The events of `kind` among `events`.
inline std::vector<EffectEvent> ofKind(std::span<const EffectEvent> events, EffectKind kind) {
  std::vector<EffectEvent> out;
  for (const EffectEvent& e : events)
    if (e.kind == kind) out.push_back(e);
  return out;
}

inline EffectSettings on() {
  EffectSettings e;
  e.enabled = true;
  return e;
}

inline void step(World& w) { w.world.stepSimulation(btScalar(kDt), 1, btScalar(kDt)); }

/// A 2 x 1 x 1 m box of 500 kg (draft 0.244 m) whose bottom starts `drop_m`
/// above flat water at rest, in a world whose up is axis `upAxis`.
struct DroppedBox {
  DroppedBox(int upAxis, btScalar drop_m, BuoyancyModel model = BuoyancyModel::Triangles)
      : up(upAxis == 1 ? btVector3(0, 1, 0) : btVector3(0, 0, 1)), w(-up * btScalar(9.81)) {
    // The box's length (2 m) along x, its height (1 m) along up (y or z).
    size = btVector3(2, 1, 1);
    body = w.addBox(size, 500, btTransform(btQuaternion::getIdentity(), up * (drop_m + btScalar(0.5))));
    boat = std::make_unique<WaterAction>(body, hullOf(box(size)), std::make_shared<FlatSurface>());
    if (model == BuoyancyModel::Columns) setModel(*boat, model);
    boat->setEffects(on());
    w.world.addAction(boat.get());
  }
  ~DroppedBox() { w.world.removeAction(boat.get()); }
  btVector3 up;
  World w;
  btVector3 size;
  btRigidBody* body = nullptr;
  std::unique_ptr<WaterAction> boat;
};

/// Drops the box and returns the first Splash it reports (within 2 s).
inline EffectEvent firstSplash(DroppedBox& d) {
  for (int i = 0; i < 480; ++i) {
    step(d.w);
    const std::vector<EffectEvent> splashes = ofKind(d.boat->effects(), EffectKind::Splash);
    if (!splashes.empty()) return splashes.front();
  }
  ADD_FAILURE() << "no splash";
  return {};
}

/// A hull towed at `speed_mps` along x on flat water: free to heave only.
struct Towed {
  Towed(const Mesh& mesh, btScalar mass_kg, btScalar centreHeight_m, btScalar speed_mps,
        const EffectSettings& effects = on()) {
    body = w.addBox(btVector3(2, 1, 1), mass_kg,
                    btTransform(btQuaternion::getIdentity(), btVector3(0, centreHeight_m, 0)));
    body->setLinearFactor(btVector3(0, 1, 0));  // the tow holds the speed
    body->setAngularFactor(btVector3(0, 0, 0));
    body->setLinearVelocity(btVector3(speed_mps, 0, 0));
    boat = std::make_unique<WaterAction>(body, hullOf(mesh), std::make_shared<FlatSurface>());
    boat->setEffects(effects);
    w.world.addAction(boat.get());
  }
  ~Towed() { w.world.removeAction(boat.get()); }
  World w;
  btRigidBody* body = nullptr;
  std::unique_ptr<WaterAction> boat;
};

}  // namespace keel::test::effects
