#pragma once
/// @file app.hpp
/// The harbour demo's Ogre application: window, scene, camera, input, HUD,
/// and the frame loop that steps the harbour and draws it.

#include "debris_view.hpp"
#include "debug_lines.hpp"
#include "effects_view.hpp"
#include "frame_check.hpp"
#include "harbour.hpp"
#include "options.hpp"
#include "water_renderer.hpp"

#include <OgreApplicationContext.h>
#include <OgreImGuiInputListener.h>
#include <OgreInput.h>
#include <OgreQuaternion.h>
#include <OgreVector.h>

#include <LinearMath/btQuaternion.h>
#include <LinearMath/btVector3.h>

#include <array>
#include <chrono>
#include <fstream>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace demo {

/// Bullet's vector and rotation as Ogre's (world frame, y up in both).
inline Ogre::Vector3 toOgre(const btVector3& v) { return {float(v.x()), float(v.y()), float(v.z())}; }
inline Ogre::Quaternion toOgre(const btQuaternion& q) {
  return {float(q.w()), float(q.x()), float(q.y()), float(q.z())};
}

/// What a finished run reports.
struct RunResult {
  long frames = 0;
  std::optional<ColourFractions> screenshot;  ///< set when a screenshot was written
  bool screenshotOk = true;                   ///< the file was written
  /// The largest |drawn water - the sea alone| [m] over the drawn nodes
  /// within kWakeRadius_m of the selected boat at the last frame: the
  /// boats' waves on screen (0 with wakes off).
  double wakeDrawn_m = 0;
  static constexpr double kWakeRadius_m = 30;
  /// Wall time of the physics over the frames that stepped it [ms], and of
  /// the wake field's updates within it.
  double physicsTotal_ms = 0, wakeTotal_ms = 0;
  long physicsFrames = 0;
  /// The largest range of heel or of trim [deg] any moored boat went
  /// through after kRockFrom_s: how much the others' waves rock them.
  double mooredRock_deg = 0;
  static constexpr double kRockFrom_s = 4;
  /// Effect events the boats reported, by kind (keel::EffectKind: spray,
  /// bow wave, splash, flooding), and the most droplets alive at once.
  std::array<long, 4> effectEvents{};
  std::size_t peakDroplets = 0;
};

class HarbourApp final : public OgreBites::ApplicationContext, public OgreBites::InputListener {
 public:
  /// `pluginsConfig`: path of the plugins.cfg to load Ogre's plugins from.
  HarbourApp(const Options& options, Harbour& harbour, std::string pluginsConfig);
  ~HarbourApp() override;

  /// Opens the window, runs until closed or the frame/time limit, and closes.
  /// Throws Ogre::Exception or std::exception on failure.
  RunResult run();

  /// Ends the run after the current frame (safe to call from a signal handler).
  static void requestStop();

 private:
  // ApplicationContext
  void createRoot() override;
  bool oneTimeConfig() override;
  void setup() override;
  void locateResources() override;
  void shutdown() override;
  bool frameStarted(const Ogre::FrameEvent& evt) override;
  bool frameRenderingQueued(const Ogre::FrameEvent& evt) override;
  // InputListener
  bool keyPressed(const OgreBites::KeyboardEvent& evt) override;
  bool keyReleased(const OgreBites::KeyboardEvent& evt) override;
  bool mouseMoved(const OgreBites::MouseMotionEvent& evt) override;
  bool mousePressed(const OgreBites::MouseButtonEvent& evt) override;
  bool mouseReleased(const OgreBites::MouseButtonEvent& evt) override;
  bool mouseWheelRolled(const OgreBites::MouseWheelEvent& evt) override;

  void buildScene();
  void simulate(double frame_s);
  void steerSelected(double frame_s);
  void syncBoats();
  void drawRopes();
  void drawDebug();
  void updateCamera(double frame_s, bool snap);
  void recordTelemetry();
  void drawHud();
  void hudSea();
  void hudBoat();
  /// The selected boat's compartments: water in each, and the reserve buoyancy.
  void hudFlooding(const Boat& boat);
  void hudHelp();
  /// The wake field's line: on or off, its window, its energy, its update's time.
  void hudWakes();
  /// On the last frame: the largest height the boats' waves add to the drawn
  /// water round the selected boat, into the run's result.
  void measureWake();
  /// Turns each boat's effect events since the last frame into spray and
  /// foam, advances those by `step_s` [s] (0 while paused), and draws them.
  void updateEffects(double step_s);
  void emitEffect(const Boat& boat, const keel::EffectEvent& event);
  void resetEffects();
  /// The spray and foam line: on or off, droplets and patches alive.
  void hudEffects();
  /// Each frame: the moored boats' heel and trim ranges, into mooredRock_deg.
  void trackMooredRocking();
  [[nodiscard]] Boat* selected();
  void select(int offset);
  void reset();
  void spawn();
  void capture();

  Options options_;
  Harbour& harbour_;
  std::string pluginsConfig_;
  Ogre::SceneManager* scene_ = nullptr;
  Ogre::Camera* camera_ = nullptr;
  Ogre::SceneNode* cameraNode_ = nullptr;
  Ogre::SceneNode* skyNode_ = nullptr;
  std::unique_ptr<WaterRenderer> water_;
  std::unique_ptr<DebugLines> debug_;
  std::unique_ptr<DebugLines> ropes_;
  std::unique_ptr<OgreBites::ImGuiInputListener> imguiInput_;
  std::unique_ptr<OgreBites::InputListenerChain> inputChain_;
  std::map<int, Ogre::SceneNode*> boatNodes_;
  std::unique_ptr<DebrisView> debrisView_;
  std::unique_ptr<EffectsView> effects_;
  /// Where each boat's bow-wave emitter (boat id, event source) last laid foam [m, world].
  std::map<std::pair<int, std::uint32_t>, Ogre::Vector3> lastFoam_;

  // Run state.
  long frame_ = 0;
  bool lastFrame_ = false;
  bool paused_ = false;
  bool stepOnce_ = false;
  int debugMode_ = 0;  ///< 0 off, 1 Keel (pieces, waterline, forces), 2 + collision shapes
  int selectedId_ = 0;
  std::size_t spawnKind_ = 0;
  std::set<int> keysDown_;
  RunResult result_;

  // Camera: orbit around the selected boat; the wake scenario's looks down
  // on its speedboat from behind.
  static constexpr double kWakeCameraPitch_rad = 1.15, kWakeCameraDistance_m = 50, kWakeCameraLookBehind_m = 12;
  static constexpr double kDropCameraYaw_rad = 2.3, kDropCameraPitch_rad = 0.22, kDropCameraDistance_m = 16;
  double lookBehind_m_ = 0;  ///< aim this far behind the boat along its track [m]
  double yaw_rad_ = -0.12, pitch_rad_ = 0.28, distance_m_ = 27;
  Ogre::Vector3 target_ = Ogre::Vector3::ZERO;
  bool dragging_ = false;

  // Measurements for the HUD.
  double physicsMs_ = 0;  ///< smoothed wall time of the physics per frame [ms]
  double fps_ = 0;        ///< smoothed frames per second
  std::chrono::steady_clock::time_point lastFrameTime_{};
  static constexpr std::size_t kPlotSamples = 400;
  std::array<float, kPlotSamples> heave_{}, roll_{};
  std::size_t plotCursor_ = 0;
  bool plotPrimed_ = false;  ///< false: the next sample fills the whole plot

  std::ofstream record_;
  /// Per moored boat (by id): the least and largest heel and trim [deg] after RunResult::kRockFrom_s.
  std::map<int, std::array<double, 4>> rocking_;
};

}  // namespace demo
