#include "options.hpp"

#include "sea.hpp"

#include <boost/program_options.hpp>

#include <algorithm>
#include <cmath>
#include <iostream>
#include <sstream>

namespace demo {
namespace po = boost::program_options;

const std::vector<std::string>& knownKinds() {
  static const std::vector<std::string> kinds = {"speedboat", "rowboat", "tug", "barge", "catamaran"};
  return kinds;
}

namespace {

/// Splits "a,b c" into {"a", "b", "c"}: --kinds accepts commas or repeats.
std::vector<std::string> splitKinds(const std::vector<std::string>& raw) {
  std::vector<std::string> out;
  for (std::string item : raw) {
    std::replace(item.begin(), item.end(), ',', ' ');
    std::istringstream words(item);
    for (std::string w; words >> w;) out.push_back(w);
  }
  return out;
}

/// Returns an error message, or "" when the options make sense (`wakes`:
/// what --wakes said).
std::string validate(const Options& o, const std::string& wakes, const std::string& effects) {
  std::ostringstream e;
  if (wakes != "on" && wakes != "off")
    e << "--wakes must be on or off, got '" << wakes << "'";
  else if (effects != "on" && effects != "off")
    e << "--effects must be on or off, got '" << effects << "'";
  else if (o.boatCount < 1 || o.boatCount > 40)
    e << "--boats must be 1..40, got " << o.boatCount;
  else if (o.debrisCount < 0 || o.debrisCount > 60)
    e << "--debris must be 0..60, got " << o.debrisCount;
  else if (o.seaState < 0 || o.seaState > kMaxSeaState)
    e << "--sea-state must be 0.." << kMaxSeaState << ", got " << o.seaState;
  else if (SeaModel model; !parseSeaModel(o.sea, model))
    e << "--sea must be spectral or gerstner, got '" << o.sea << "'";
  else if (o.model != "auto" && o.model != "triangles" && o.model != "columns")
    e << "--model must be auto, triangles or columns, got '" << o.model << "'";
  else if (!(o.physicsRate_Hz >= 30 && o.physicsRate_Hz <= 2000))
    e << "--physics-hz must be 30..2000, got " << o.physicsRate_Hz;
  else if (o.maxSubsteps < 1 || o.maxSubsteps > 100)
    e << "--substeps must be 1..100, got " << o.maxSubsteps;
  else if (o.width_px < 160 || o.width_px > 7680 || o.height_px < 120 || o.height_px > 4320)
    e << "--width/--height must be 160..7680 x 120..4320, got " << o.width_px << " x " << o.height_px;
  else if (o.debugDraw < 0 || o.debugDraw > 2)
    e << "--debug-draw must be 0, 1 or 2, got " << o.debugDraw;
  else if (o.frames < 0)
    e << "--frames must be >= 0, got " << o.frames;
  else if (!(o.seconds >= 0) || !std::isfinite(o.seconds))
    e << "--seconds must be >= 0, got " << o.seconds;
  else if (o.frames > 0 && o.seconds > 0)
    e << "give --frames or --seconds, not both";
  else if (o.scenario != "harbour" && o.scenario != "collide" && o.scenario != "sinking" && o.scenario != "wake" &&
           o.scenario != "drop")
    e << "--scenario must be harbour, collide, sinking, wake or drop, got '" << o.scenario << "'";
  else if (!(o.wakeSize_m >= 16 && o.wakeSize_m <= 512))
    e << "--wake-size must be 16..512 m, got " << o.wakeSize_m;
  else if (!(o.wakeCell_m >= 0.1 && o.wakeCell_m <= o.wakeSize_m / 16))
    e << "--wake-cell must be 0.1 m .. a 16th of --wake-size (" << o.wakeSize_m / 16 << " m), got " << o.wakeCell_m;
  else if (o.wakeSize_m / o.wakeCell_m > 1024)
    e << "--wake-size / --wake-cell must be at most 1024 nodes a side, got " << o.wakeSize_m / o.wakeCell_m;
  else if (!o.screenshot.empty() && (o.screenshot.size() < 5 || o.screenshot.substr(o.screenshot.size() - 4) != ".png"))
    e << "--screenshot must name a .png file, got '" << o.screenshot << "'";
  for (const std::string& k : o.kinds)
    if (std::find(knownKinds().begin(), knownKinds().end(), k) == knownKinds().end() && e.str().empty())
      e << "unknown boat kind '" << k << "' (known: speedboat, rowboat, tug, barge, catamaran)";
  // A fixed time per frame of more than the substeps can cover would drop time.
  if (e.str().empty() && o.frameStep_s * o.physicsRate_Hz > o.maxSubsteps + 1e-9)
    e << "--substeps " << o.maxSubsteps << " cannot cover a " << o.frameStep_s << " s frame at " << o.physicsRate_Hz
      << " Hz; raise --substeps";
  return e.str();
}

}  // namespace

ParseResult parseOptions(int argc, const char* const* argv, const std::string& defaultMediaDir) {
  Options o;
  o.mediaDir = defaultMediaDir;
  std::vector<std::string> rawKinds;
  std::string wakes = "on", effects = "on";
  po::options_description desc(
      "Keel harbour demo: boats floating on waves, colliding with docks and each other.\n"
      "Usage: keel_demo [options]\nOptions");
  // clang-format off
  desc.add_options()
    ("help,h", "print this help and exit")
    ("boats,n", po::value(&o.boatCount)->default_value(o.boatCount), "number of boats at start (1..40)")
    ("kinds,k", po::value(&rawKinds)->multitoken(),
     "boat kinds to cycle through, e.g. --kinds speedboat,tug (speedboat rowboat tug barge catamaran; default all)")
    ("debris", po::value(&o.debrisCount)->default_value(o.debrisCount),
     "light debris floating in the harbour: crates, a fish box, buoys, a fender ball, a dinghy (0..60; 0: none)")
    ("sea-state,s", po::value(&o.seaState)->default_value(o.seaState),
     "sea state 0 (glassy) .. 6 (very rough), 7 (high), 8 (storm)")
    ("sea", po::value(&o.sea)->default_value(o.sea),
     "wave model: spectral (FFT ocean, thousands of waves) or gerstner (8 Gerstner waves)")
    ("model", po::value(&o.model)->default_value(o.model),
     "Keel's model: auto (boats far from the camera on the column model), triangles or columns (all boats)")
    ("seed", po::value(&o.seed)->default_value(o.seed), "random seed (wave phases, placement)")
    ("physics-hz", po::value(&o.physicsRate_Hz)->default_value(o.physicsRate_Hz), "physics substep rate [Hz]")
    ("substeps", po::value(&o.maxSubsteps)->default_value(o.maxSubsteps), "maximum physics substeps per frame")
    ("width", po::value(&o.width_px)->default_value(o.width_px), "window width [px]")
    ("height", po::value(&o.height_px)->default_value(o.height_px), "window height [px]")
    ("headless", po::bool_switch(&o.headless), "render off-screen under Xvfb (re-runs itself with xvfb-run)")
    ("frames", po::value(&o.frames)->default_value(o.frames), "quit after N frames (0: run until closed)")
    ("seconds", po::value(&o.seconds)->default_value(o.seconds), "quit after S simulated seconds (0: run until closed)")
    ("frame-step", po::value(&o.frameStep_s)->default_value(o.frameStep_s),
     "simulated seconds per frame in fixed-step runs (--headless, --frames, --seconds)")
    ("screenshot", po::value(&o.screenshot), "write a PNG of the last frame to FILE")
    ("record", po::value(&o.record), "write per-boat trajectories (CSV, one row per boat per frame) to FILE")
    ("scenario", po::value(&o.scenario)->default_value(o.scenario),
     "harbour: moored and free boats; collide: scripted runs into a pier and into another boat; sinking: the "
     "harbour with its first boat holed in every compartment; wake: a speedboat at speed across calm water, seen "
     "from above behind it; drop: a speedboat dropped bow first onto the water, slamming")
    ("wakes", po::value(&wakes)->default_value(wakes),
     "on: the boats float on, and make waves in, a keel::WakeField over the sea (the K key toggles it); off: the "
     "sea alone")
    ("effects", po::value(&effects)->default_value(effects),
     "on: the boats report Keel's effect events (spray, bow wave, splash, flooding), drawn as spray and foam (the E "
     "key toggles it); off: none")
    ("wake-size", po::value(&o.wakeSize_m)->default_value(o.wakeSize_m),
     "side of the wake field's window [m]: it covers the basin at 128 m, and follows the selected boat when smaller")
    ("wake-cell", po::value(&o.wakeCell_m)->default_value(o.wakeCell_m),
     "the wake field's cell [m]: it holds waves of 4 cells and longer")
    ("check", po::bool_switch(&o.check),
     "verify the run (screenshot colours, contacts in 'collide', no boat sunk or escaped but the holed one in "
     "'sinking', which must sink); exit 1 on failure")
    ("debug-draw", po::value(&o.debugDraw)->default_value(o.debugDraw),
     "debug drawing at start: 0 off, 1 Keel (submerged pieces, waterline, forces), 2 and collision shapes")
    ("media", po::value(&o.mediaDir)->default_value(o.mediaDir), "directory holding the boat meshes (*.obj)")
    ("no-vsync", "do not wait for the display's refresh")
    ("no-hud", "draw no HUD (for screenshots)");
  // clang-format on
  po::variables_map vm;
  try {
    po::store(po::command_line_parser(argc, argv).options(desc).run(), vm);
    if (vm.count("help")) {
      std::cout
          << desc
          << "\nKeys: W/S throttle, A/D rudder, Tab next boat, B spawn, P pause, N single step,\n"
             "R reset, F1 debug draw, 0-8 sea state, K wakes, E spray and foam, right mouse drag orbit, wheel zoom,\n"
             "Esc quit.\n";
      return {std::nullopt, 0};
    }
    po::notify(vm);
  } catch (const po::error& e) {
    std::cerr << "keel_demo: " << e.what() << "\nTry 'keel_demo --help'.\n";
    return {std::nullopt, 2};
  }
  o.kinds = splitKinds(rawKinds);
  o.vsync = vm.count("no-vsync") == 0;
  o.hud = vm.count("no-hud") == 0;
  o.wakes = wakes == "on";
  o.effects = effects == "on";
  if (const std::string error = validate(o, wakes, effects); !error.empty()) {
    std::cerr << "keel_demo: " << error << "\nTry 'keel_demo --help'.\n";
    return {std::nullopt, 2};
  }
  return {o, 0};
}

}  // namespace demo
