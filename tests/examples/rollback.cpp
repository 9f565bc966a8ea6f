#include "rollback.hpp"

#include <BulletDynamics/Dynamics/btRigidBody.h>

namespace game {

void BodyState::save(const btRigidBody& body) {
  transform = body.getWorldTransform();
  interpolation = body.getInterpolationWorldTransform();
  linear = body.getLinearVelocity();
  angular = body.getAngularVelocity();
  interpolationLinear = body.getInterpolationLinearVelocity();
  interpolationAngular = body.getInterpolationAngularVelocity();
  activation = body.getActivationState();
  deactivationTime = body.getDeactivationTime();
}

void BodyState::restore(btRigidBody& body) const {
  body.setWorldTransform(transform);
  body.setInterpolationWorldTransform(interpolation);
  body.setLinearVelocity(linear);
  body.setAngularVelocity(angular);
  body.setInterpolationLinearVelocity(interpolationLinear);
  body.setInterpolationAngularVelocity(interpolationAngular);
  body.forceActivationState(activation);
  body.setDeactivationTime(deactivationTime);
  body.clearForces();
}

void FrameHistory::save(std::int64_t frame) {
  SavedFrame& slot = ring_[std::size_t(frame) % ring_.size()];
  slot.frame = frame;
  fleet_.saveState(slot.water);  // into the slot's memory
  slot.bodies.resize(fleet_.size());
  for (std::size_t i = 0; i < fleet_.size(); ++i) slot.bodies[i].save(*fleet_.boat(i).body());
  slot.oceanTimes_s = ocean_.publishedTimes_s();
}

bool FrameHistory::restore(std::int64_t frame) {
  const SavedFrame& slot = ring_[std::size_t(frame) % ring_.size()];
  if (slot.frame != frame) return false;
  fleet_.restoreState(slot.water);
  for (std::size_t i = 0; i < fleet_.size(); ++i) slot.bodies[i].restore(*fleet_.boat(i).body());
  // The ocean's tiles are a function of their times: computing them again
  // gives the same bits, and the next frame's update reuses them as before.
  ocean_.update(slot.oceanTimes_s[0], slot.oceanTimes_s[1]);
  return true;
}

}  // namespace game
