// The harbour's effect events (docs/effects.md): switched on and off, and the
// drop scenario, a boat slamming onto the water.
#include "harbour.hpp"

#include <BulletDynamics/Dynamics/btDiscreteDynamicsWorld.h>

namespace demo {

keel::EffectSettings boatEffectSettings() {
  keel::EffectSettings settings;
  settings.enabled = true;
  return settings;
}

void Harbour::setEffects(bool on) {
  effects_ = on;
  keel::EffectSettings settings;  // off
  if (on) settings = boatEffectSettings();
  for (auto& boat : boats_) boat->action->setEffects(settings);
}

void Harbour::placeDropScenario() {
  // A speedboat let go 2.5 m above the water, bow down a little and moving
  // ahead: it falls for about 0.7 s (sqrt(2 h / g)) and slams bow first,
  // throwing spray; a rowboat nearby gives scale.
  constexpr double kDropHeight_m = 2.5, kDropPitch_rad = 0.12;
  Boat& speedboat = spawn("speedboat", 4, 10, 0, 3);
  btTransform pose = speedboat.body->getCenterOfMassTransform();
  // The bow points north (-z): turning about east (+x) by a negative angle lowers it.
  pose.setRotation(btQuaternion(btVector3(1, 0, 0), btScalar(-kDropPitch_rad)) * pose.getRotation());
  pose.getOrigin() += btVector3(0, btScalar(kDropHeight_m), 0);
  speedboat.body->setCenterOfMassTransform(pose);
  speedboat.motion->setWorldTransform(pose);
  spawn("rowboat", -4, 6, 30);
}

}  // namespace demo
