#include "app.hpp"

#include "scene_builder.hpp"

#include <keel/constants.hpp>

#include <BulletDynamics/Dynamics/btDiscreteDynamicsWorld.h>

#include <Ogre.h>
#include <OgreImGuiOverlay.h>
#include <OgreOverlayManager.h>
#include <OgreOverlaySystem.h>
#include <OgreRTShaderSystem.h>

#include <imgui.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdio>

namespace demo {
namespace {

const Ogre::ColourValue kHorizon(0.74f, 0.82f, 0.89f);
const Ogre::ColourValue kZenith(0.24f, 0.45f, 0.78f);
/// Radius of the drawn water grid [m]: most of the basin around the selected
/// boat; beyond it the flat skirt and the haze take over.
constexpr double kWaterRadius_m = 85;

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

HarbourApp::HarbourApp(const Options& options, Harbour& harbour, std::string pluginsConfig)
    : OgreBites::ApplicationContext("Keel harbour"),
      options_(options),
      harbour_(harbour),
      pluginsConfig_(std::move(pluginsConfig)) {
  if (!harbour_.boats().empty()) selectedId_ = harbour_.boats().front()->id;
  debugMode_ = options_.debugDraw;
  if (options_.scenario == "drop") {
    // Ahead and to starboard of the speedboat (it heads north, -z), low:
    // the bow's spray faces the viewer.
    yaw_rad_ = kDropCameraYaw_rad;
    pitch_rad_ = kDropCameraPitch_rad;
    distance_m_ = kDropCameraDistance_m;
  }
  if (options_.scenario == "wake") {
    // Above and behind the speedboat (it heads north, -z): its wake spreads
    // towards the viewer.
    yaw_rad_ = 0;
    pitch_rad_ = kWakeCameraPitch_rad;
    distance_m_ = kWakeCameraDistance_m;
    lookBehind_m_ = kWakeCameraLookBehind_m;
  }
  if (!options_.record.empty()) {
    record_.open(options_.record);
    if (!record_) throw std::runtime_error("cannot write --record file '" + options_.record + "'");
    record_ << "frame,time_s,boat,kind,moored,x_m,y_m,z_m,heading_deg,heel_deg,trim_deg,speed_kn,draft_m,"
               "submerged_m3,contacts_boat_dock,contacts_boat_boat\n";
  }
}

HarbourApp::~HarbourApp() = default;

void HarbourApp::requestStop() { stopRequested = true; }

// ---------------------------------------------------------------------------
// Ogre set-up
// ---------------------------------------------------------------------------

void HarbourApp::createRoot() {
  // Our own plugins.cfg (next to the binary, with Codec_STBI for PNG), no
  // ogre.cfg, and the LogManager main() made (console output off).
  mRoot = OGRE_NEW Ogre::Root(pluginsConfig_, "", "");
  mOverlaySystem = OGRE_NEW Ogre::OverlaySystem();
}

bool HarbourApp::oneTimeConfig() {
  // No config dialog: the GL 3+ renderer (or whatever the plugins offer).
  Ogre::RenderSystem* rs = mRoot->getRenderSystemByName("OpenGL 3+ Rendering Subsystem");
  if (!rs && !mRoot->getAvailableRenderers().empty()) rs = mRoot->getAvailableRenderers().front();
  if (!rs) throw std::runtime_error("no Ogre render system could be loaded (see the Ogre log)");
  rs->setConfigOption("Full Screen", "No");
  mRoot->setRenderSystem(rs);
  return true;
}

void HarbourApp::setup() {
  mRoot->initialise(false);
  Ogre::NameValuePairList params;
  params.emplace("vsync", options_.vsync && !options_.headless ? "true" : "false");
  // Multisampling is free on a GPU and expensive on llvmpipe (headless).
  params.emplace("FSAA", options_.headless ? "0" : "4");
  createWindow(mAppName, Ogre::uint32(options_.width_px), Ogre::uint32(options_.height_px), params);
  locateResources();
  initialiseRTShaderSystem();
  loadResources();
  mRoot->addFrameListener(this);
  buildScene();
}

void HarbourApp::locateResources() {
  // Only Ogre's internal shaders are needed from its media (the RTSS library
  // and the shared shader header): the harbour's meshes come from media/
  // and everything else is built in code.
  auto& groups = Ogre::ResourceGroupManager::getSingleton();
  const std::string ogreMedia = KEEL_DEMO_OGRE_MEDIA_DIR;
  groups.addResourceLocation(ogreMedia + "/ShadowVolume", "FileSystem", Ogre::RGN_INTERNAL);
  groups.addResourceLocation(ogreMedia + "/RTShaderLib/GLSL", "FileSystem", Ogre::RGN_INTERNAL);
  groups.addResourceLocation(ogreMedia + "/RTShaderLib/materials", "FileSystem", Ogre::RGN_INTERNAL);
}

void HarbourApp::shutdown() {
  // Our Ogre handles (the water mesh above all) must go before Ogre does.
  if (inputChain_) removeInputListener(inputChain_.get());
  water_.reset();
  debug_.reset();
  ropes_.reset();
  boatNodes_.clear();
  debrisView_.reset();
  effects_.reset();
  OgreBites::ApplicationContext::shutdown();
}

void HarbourApp::buildScene() {
  scene_ = mRoot->createSceneManager();
  scene_->addRenderQueueListener(mOverlaySystem);
  mShaderGenerator->addSceneManager(scene_);
  // Per-pixel lighting: the sun's highlight on the waves and the paint.
  auto* renderState = mShaderGenerator->getRenderState(Ogre::RTShader::ShaderGenerator::DEFAULT_SCHEME_NAME);
  renderState->addTemplateSubRenderState(
      mShaderGenerator->createSubRenderState(Ogre::RTShader::PerPixelLighting::Type));

  camera_ = scene_->createCamera("camera");
  camera_->setNearClipDistance(0.2f);
  camera_->setFarClipDistance(4000);
  camera_->setAutoAspectRatio(true);
  camera_->setFOVy(Ogre::Degree(50));
  cameraNode_ = scene_->getRootSceneNode()->createChildSceneNode();
  // Turning by the shortest arc (Ogre's default) rolls the camera as it orbits: keep the horizon level.
  cameraNode_->setFixedYawAxis(true);
  cameraNode_->attachObject(camera_);
  Ogre::Viewport* viewport = getRenderWindow()->addViewport(camera_);
  viewport->setBackgroundColour(kHorizon);
  viewport->setMaterialScheme(Ogre::RTShader::ShaderGenerator::DEFAULT_SCHEME_NAME);

  scene_->setAmbientLight(Ogre::ColourValue(0.38f, 0.42f, 0.48f));
  Ogre::Light* sun = scene_->createLight("sun");
  sun->setType(Ogre::Light::LT_DIRECTIONAL);
  sun->setDiffuseColour(1.0f, 0.95f, 0.86f);
  sun->setSpecularColour(1.0f, 0.95f, 0.85f);
  Ogre::SceneNode* sunNode = scene_->getRootSceneNode()->createChildSceneNode();
  sunNode->attachObject(sun);
  // Behind the default camera's right shoulder (it looks north), fairly
  // high: the boats' sides facing the viewer are lit.
  sunNode->setDirection(Ogre::Vector3(-0.5f, -0.65f, -0.57f).normalisedCopy(), Ogre::Node::TS_WORLD);
  scene_->setFog(Ogre::FOG_LINEAR, kHorizon, 0, 180, 1400);

  skyNode_ = scene_->getRootSceneNode()->createChildSceneNode();
  skyNode_->attachObject(createSky(*scene_, kHorizon, kZenith));
  scene_->getRootSceneNode()->createChildSceneNode()->attachObject(createDocks(*scene_, harbour_.docks()));
  water_ = std::make_unique<WaterRenderer>(*scene_, Harbour::kWaterCell_m, kWaterRadius_m);
  water_->setSky(kHorizon, kZenith);
  debug_ = std::make_unique<DebugLines>(*scene_, "debug", true);
  ropes_ = std::make_unique<DebugLines>(*scene_, "ropes", false);
  debrisView_ = std::make_unique<DebrisView>(*scene_);
  effects_ = std::make_unique<EffectsView>(*scene_);

  auto* imgui = new Ogre::ImGuiOverlay();  // the OverlayManager owns it
  imgui->setZOrder(300);
  imgui->show();
  Ogre::OverlayManager::getSingleton().addOverlay(imgui);
  ImGui::GetIO().IniFilename = nullptr;  // no imgui.ini next to the user's files
  ImGui::GetStyle().WindowRounding = 4;
  // The HUD is laid out for 720 lines; taller windows get a larger one (the
  // bitmap font does not shrink legibly, so smaller ones keep it as is).
  ImGui::GetIO().FontGlobalScale = std::clamp(float(options_.height_px) / 720.0f, 1.0f, 2.0f);
  imguiInput_ = std::make_unique<OgreBites::ImGuiInputListener>();
  inputChain_ = std::make_unique<OgreBites::InputListenerChain>(
      std::vector<OgreBites::InputListener*>{imguiInput_.get(), this});
  addInputListener(inputChain_.get());

  syncBoats();
  updateCamera(0, true);
}

// ---------------------------------------------------------------------------
// The frame
// ---------------------------------------------------------------------------

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
