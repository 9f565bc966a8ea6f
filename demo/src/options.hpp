#pragma once
/// @file options.hpp
/// The demo's command line (Boost.Program_options).

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace demo {

/// Everything the command line sets. Units in the names.
struct Options {
  int boatCount = 8;               ///< boats at start
  std::vector<std::string> kinds;  ///< boat kinds cycled through (empty: all)
  int debrisCount = 8;             ///< light debris floating in the harbour (0: none)
  int seaState = 3;                ///< 0 (glassy) .. 6 (very rough), 7 (high), 8 (storm)
  std::string sea = "spectral";    ///< wave model: spectral | gerstner
  std::uint32_t seed = 1;          ///< wave phases and boat placement jitter
  double physicsRate_Hz = 120;     ///< fixed physics substep rate
  int maxSubsteps = 8;             ///< Bullet's maxSubSteps per frame
  int width_px = 1280;
  int height_px = 720;
  bool headless = false;             ///< run under Xvfb (re-executes itself via xvfb-run)
  long frames = 0;                   ///< stop after this many frames (0: no limit)
  double seconds = 0;                ///< stop after this much simulated time [s] (0: no limit)
  double frameStep_s = 1.0 / 60;     ///< simulated time per frame in fixed-step runs [s]
  std::string screenshot;            ///< PNG of the last frame ("" none)
  std::string record;                ///< CSV of per-boat trajectories ("" none)
  std::string scenario = "harbour";  ///< harbour | collide | sinking | wake | drop
  std::string model = "auto";        ///< Keel's model: auto (far boats on columns) | triangles | columns
  bool wakes = true;                 ///< boats float on and make waves in a keel::WakeField (the K key)
  bool effects = true;               ///< boats report Keel's effect events, drawn as spray and foam (the E key)
  double wakeSize_m = 128;           ///< side of the wake field's window [m]
  double wakeCell_m = 0.5;           ///< the wake field's cell [m]
  bool check = false;                ///< verify the run (image colours, contacts, boats) and exit non-zero on failure
  std::string mediaDir;              ///< where the boat meshes are
  bool vsync = true;
  bool hud = true;    ///< draw the HUD (off: a clean screenshot)
  int debugDraw = 0;  ///< initial debug drawing: 0 off, 1 Keel, 2 Keel + collision shapes
  /// True when the run advances a fixed time per frame (reproducible):
  /// headless runs and runs bounded by --frames or --seconds.
  [[nodiscard]] bool fixedStep() const { return headless || frames > 0 || seconds > 0; }
};

/// The outcome of parsing: options to run with, or an exit code (0 after
/// --help, 2 after a bad value; the message has been printed).
struct ParseResult {
  std::optional<Options> options;
  int exitCode = 0;
};

/// Parses and validates the command line. `defaultMediaDir` is where the
/// boat meshes are unless --media says otherwise.
ParseResult parseOptions(int argc, const char* const* argv, const std::string& defaultMediaDir);

/// The boat kinds the demo knows, in their default order.
const std::vector<std::string>& knownKinds();

}  // namespace demo
