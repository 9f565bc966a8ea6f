// The harbour app's frame: the simulation's steps in wall time, the helm,
// the boats' meshes, ropes and debug lines, the camera, and the telemetry
// and capture of a scripted run (app.cpp: the Ogre set-up).
#include "app.hpp"

#include "scene_builder.hpp"

#include <BulletDynamics/Dynamics/btDiscreteDynamicsWorld.h>

#include <Ogre.h>
#include <OgreImGuiOverlay.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <set>
#include <string>

namespace demo {
namespace {

/// Throttle and rudder move at these rates while their keys are held [1/s].
constexpr double kThrottleRate_ps = 0.8;
constexpr double kRudderRate_ps = 2.5;

/// Set by requestStop() (Ctrl-C): finish the frame, then report.
std::atomic<bool> stopRequested{false};

/// Moves `value` towards `goal` by at most `step`.
double approach(double value, double goal, double step) {
  return value < goal ? std::min(goal, value + step) : std::max(goal, value - step);
}

}  // namespace

void HarbourApp::requestStop() { stopRequested = true; }

RunResult HarbourApp::run() {
  initApp();
  if (!mRoot || mWindows.empty()) throw std::runtime_error("the Ogre window could not be created");
  lastFrameTime_ = std::chrono::steady_clock::now();
  while (!mRoot->endRenderingQueued()) {
    if (!mRoot->renderOneFrame()) break;
    ++frame_;
    if (lastFrame_) break;
  }
  result_.frames = frame_;
  closeApp();
  return result_;
}

bool HarbourApp::frameStarted(const Ogre::FrameEvent& evt) {
  pollEvents();
  Ogre::ImGuiOverlay::NewFrame();
  const auto now = std::chrono::steady_clock::now();
  const double wall_s = std::chrono::duration<double>(now - lastFrameTime_).count();
  lastFrameTime_ = now;
  if (wall_s > 0) fps_ = fps_ > 0 ? 0.9 * fps_ + 0.1 / wall_s : 1 / wall_s;
  // Fixed-step runs advance the same time every frame, whatever the machine:
  // reproducible. Interactive runs follow the clock (a stall is clamped).
  const double frame_s = options_.fixedStep() ? options_.frameStep_s
                                              : std::clamp(double(evt.timeSinceLastFrame), 0.0, 0.1);
  steerSelected(frame_s);
  const bool stepping = !paused_ || stepOnce_;
  simulate(frame_s);
  syncBoats();
  updateCamera(frame_s, false);
  if (const Boat* boat = selected())
    water_->update(*harbour_.water(), harbour_.time_s(), boat->body->getCenterOfMassPosition().x(),
                   boat->body->getCenterOfMassPosition().z(), harbour_.seaState(), cameraNode_->getPosition());
  updateEffects(stepping ? frame_s : 0);
  drawRopes();
  drawDebug();
  recordTelemetry();
  trackMooredRocking();
  drawHud();
  const bool framesDone = options_.frames > 0 && frame_ + 1 >= options_.frames;
  const bool timeDone = options_.seconds > 0 && harbour_.time_s() >= options_.seconds - 1e-9;
  if (framesDone || timeDone || stopRequested) lastFrame_ = true;
  if (lastFrame_) measureWake();
  return true;
}

bool HarbourApp::frameRenderingQueued(const Ogre::FrameEvent& evt) {
  OgreBites::ApplicationContext::frameRenderingQueued(evt);
  // The frame is complete in the back buffer and not yet swapped: read it here.
  if (lastFrame_ && !options_.screenshot.empty()) capture();
  return true;
}

void HarbourApp::simulate(double frame_s) {
  if (paused_ && !stepOnce_) return;
  const Ogre::Vector3 eye = cameraNode_->getPosition();
  harbour_.setViewpoint(btVector3(eye.x, eye.y, eye.z));
  if (const Boat* boat = selected()) harbour_.setFocus(boat->body->getCenterOfMassPosition());
  const auto start = std::chrono::steady_clock::now();
  if (stepOnce_)
    harbour_.singleStep();
  else
    harbour_.step(frame_s);
  stepOnce_ = false;
  const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  physicsMs_ = physicsMs_ > 0 ? 0.9 * physicsMs_ + 0.1 * ms : ms;
  result_.physicsTotal_ms += ms;
  result_.wakeTotal_ms += harbour_.wakes().lastUpdate_ms();
  ++result_.physicsFrames;
}

void HarbourApp::steerSelected(double frame_s) {
  Boat* boat = selected();
  if (!boat) return;
  Helm& helm = boat->helm;
  if (keysDown_.count('w')) helm.throttle = std::min(1.0, helm.throttle + kThrottleRate_ps * frame_s);
  if (keysDown_.count('s')) helm.throttle = std::max(-0.5, helm.throttle - kThrottleRate_ps * frame_s);
  const double rudderGoal = keysDown_.count('a') ? -1.0 : keysDown_.count('d') ? 1.0 : 0.0;
  helm.rudder = approach(helm.rudder, rudderGoal, kRudderRate_ps * frame_s);
}

void HarbourApp::syncBoats() {
  std::set<int> alive;
  for (const auto& boat : harbour_.boats()) {
    alive.insert(boat->id);
    auto found = boatNodes_.find(boat->id);
    if (found == boatNodes_.end()) {
      Ogre::Entity* entity = scene_->createEntity("boat/" + std::to_string(boat->id), createBoatMesh(*boat->type));
      Ogre::SceneNode* node = scene_->getRootSceneNode()->createChildSceneNode();
      node->attachObject(entity);
      found = boatNodes_.emplace(boat->id, node).first;
    }
    // Bullet's centre-of-mass transform, not the interpolated motion state:
    // the water is drawn at the physics clock, so the boat must be too.
    const btTransform& pose = boat->body->getCenterOfMassTransform();
    found->second->setPosition(toOgre(pose.getOrigin()));
    found->second->setOrientation(toOgre(pose.getRotation()));
  }
  for (auto it = boatNodes_.begin(); it != boatNodes_.end();) {
    if (alive.count(it->first)) {
      ++it;
      continue;
    }
    it->second->removeAndDestroyAllChildren();
    scene_->destroyEntity("boat/" + std::to_string(it->first));
    scene_->destroySceneNode(it->second);
    it = boatNodes_.erase(it);
  }
  debrisView_->sync(harbour_.debris());
}

void HarbourApp::drawRopes() {
  ropes_->clear();
  const btVector3 rope(0.85f, 0.78f, 0.55f);
  for (const auto& boat : harbour_.boats())
    for (const Mooring& line : boat->moorings) {
      const btVector3 cleat = boat->body->getCenterOfMassTransform() * line.cleat_m;
      // A little sag at mid-span reads as rope, not as a stick.
      const btVector3 mid = (cleat + line.bollard_m) * 0.5f - btVector3(0, 0.25f, 0);
      ropes_->drawLine(cleat, mid, rope);
      ropes_->drawLine(mid, line.bollard_m, rope);
    }
  ropes_->flush(true);
}

void HarbourApp::drawDebug() {
  debug_->clear();
  if (debugMode_ > 0) {
    for (const auto& boat : harbour_.boats()) boat->action->debugDraw(debug_.get());
    if (debugMode_ > 1) {
      // Bullet's own view: collision shapes (and, through DBG_DrawWireframe,
      // every action's debugDraw again: skip ours above to avoid doubling).
      debug_->clear();
      debug_->setDebugMode(btIDebugDraw::DBG_DrawWireframe);
      harbour_.world().setDebugDrawer(debug_.get());
      harbour_.world().debugDrawWorld();
      harbour_.world().setDebugDrawer(nullptr);
    }
    // Thrust and rudder arrows (keel::Propulsion's forces): the boat's
    // weight is 30 m long.
    for (const auto& boat : harbour_.boats()) {
      const btTransform& pose = boat->body->getCenterOfMassTransform();
      const btVector3 prop = pose * boat->type->layout.propeller_m;
      const btVector3 rudder = pose * boat->type->layout.rudder_m;
      const keel::PropulsionReport& drive = boat->propulsion->report();
      const btScalar metresPerNewton = btScalar(30.0 / (boat->type->mass_kg * 9.81));
      debug_->drawLine(prop, prop + drive.thrust_N * metresPerNewton, btVector3(1, 0.9f, 0.1f));
      debug_->drawLine(rudder, rudder + (drive.rudderLift_N + drive.rudderDrag_N) * metresPerNewton,
                       btVector3(0.2f, 1, 0.3f));
    }
  }
  debug_->flush(debugMode_ > 0);
}

void HarbourApp::updateCamera(double frame_s, bool snap) {
  if (const Boat* boat = selected()) {
    Ogre::Vector3 goal = toOgre(boat->body->getCenterOfMassPosition());
    // Aimed behind the boat when asked (the wake scenario): its wake fills the view.
    const btVector3 v = boat->body->getLinearVelocity();
    const double speed = std::hypot(double(v.x()), double(v.z()));
    if (lookBehind_m_ > 0 && speed > 0.5)
      goal -= Ogre::Vector3(float(v.x() / speed), 0, float(v.z() / speed)) * float(lookBehind_m_);
    // Follow with a short lag: smooth, but never far behind a fast boat.
    const float blend = snap ? 1.0f : float(std::min(1.0, frame_s * 4.0));
    target_ += (goal - target_) * blend;
  }
  const Ogre::Vector3 offset(float(std::cos(pitch_rad_) * std::sin(yaw_rad_)), float(std::sin(pitch_rad_)),
                             float(std::cos(pitch_rad_) * std::cos(yaw_rad_)));
  cameraNode_->setPosition(target_ + offset * float(distance_m_));
  cameraNode_->lookAt(target_ + Ogre::Vector3(0, 1.5f, 0), Ogre::Node::TS_WORLD);
  skyNode_->setPosition(cameraNode_->getPosition());
}

void HarbourApp::recordTelemetry() {
  if (const Boat* boat = selected()) {
    const Telemetry t = harbour_.telemetry(*boat);
    if (!plotPrimed_) {  // a flat line from the first sample, not a jump from zero
      heave_.fill(float(t.heave_m));
      roll_.fill(float(t.heel_deg));
      plotPrimed_ = true;
    }
    heave_[plotCursor_] = float(t.heave_m);
    roll_[plotCursor_] = float(t.heel_deg);
    plotCursor_ = (plotCursor_ + 1) % kPlotSamples;
  }
  if (!record_.is_open()) return;
  const ContactStats& c = harbour_.contacts();
  char row[400];
  for (const auto& boat : harbour_.boats()) {
    const Telemetry t = harbour_.telemetry(*boat);
    std::snprintf(row, sizeof row, "%ld,%.4f,%d,%s,%d,%.4f,%.4f,%.4f,%.2f,%.3f,%.3f,%.3f,%.4f,%.4f,%ld,%ld\n", frame_,
                  harbour_.time_s(), boat->id, boat->type->spec.kind.c_str(), boat->moored() ? 1 : 0,
                  double(t.position_m.x()), double(t.position_m.y()), double(t.position_m.z()), t.heading_deg,
                  t.heel_deg, t.trim_deg, t.speed_kn, t.draft_m, t.submergedVolume_m3, c.boatDockEvents,
                  c.boatBoatEvents);
    record_ << row;
  }
}

void HarbourApp::capture() {
  Ogre::RenderWindow* window = getRenderWindow();
  const Ogre::uint32 w = window->getWidth(), h = window->getHeight();
  Ogre::Image image(Ogre::PF_BYTE_RGB, w, h);
  window->copyContentsToMemory(Ogre::Box(0, 0, w, h), image.getPixelBox(), Ogre::RenderTarget::FB_BACK);
  try {
    image.save(options_.screenshot);
  } catch (const Ogre::Exception& e) {
    std::fprintf(stderr, "keel_demo: cannot write screenshot '%s': %s\n", options_.screenshot.c_str(),
                 e.getDescription().c_str());
    result_.screenshotOk = false;
    return;
  }
  result_.screenshot = classifyPixels(image.getData(), w, h, std::size_t(w) * 3);
}

}  // namespace demo
