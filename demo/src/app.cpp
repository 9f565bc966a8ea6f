// The harbour app's Ogre set-up: the root, its render system and resources,
// the scene (sky, water, light, camera) and the HUD's overlay
// (app_frame.cpp: each frame; app_input.cpp, app_hud.cpp: the keys and the HUD).
#include "app.hpp"

#include "scene_builder.hpp"

#include <Ogre.h>
#include <OgreImGuiOverlay.h>
#include <OgreOverlayManager.h>
#include <OgreOverlaySystem.h>
#include <OgreRTShaderSystem.h>

#include <imgui.h>

#include <algorithm>

namespace demo {
namespace {

const Ogre::ColourValue kHorizon(0.74f, 0.82f, 0.89f);
const Ogre::ColourValue kZenith(0.24f, 0.45f, 0.78f);
/// Radius of the drawn water grid [m]: most of the basin around the selected
/// boat; beyond it the flat skirt and the haze take over.
constexpr double kWaterRadius_m = 85;

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

}  // namespace demo
