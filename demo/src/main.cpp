/// @file main.cpp
/// keel_demo: the Ogre harbour demo. See docs/demo.md.

#include "app.hpp"
#include "boat_type.hpp"
#include "debris.hpp"
#include "harbour.hpp"
#include "options.hpp"

#include <keel/hull.hpp>

#include <OgreException.h>
#include <OgreLogManager.h>

#include <unistd.h>

#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <string>
#include <vector>

namespace {

/// Set in the environment of the copy of the demo that xvfb-run starts.
constexpr const char* kUnderXvfb = "KEEL_DEMO_UNDER_XVFB";
/// The wake scenario's check: the speedboat's waves lift or lower the drawn
/// water round it by at least this much [m].
constexpr double kWakeDrawn_m = 0.05;
/// ... and rocks a boat moored along its track through this range of heel
/// or trim [deg] (on the glassy sea alone they stay still to 0.2 deg).
constexpr double kMooredRock_deg = 1;

std::filesystem::path executableDir() {
  std::error_code error;
  const auto self = std::filesystem::read_symlink("/proc/self/exe", error);
  return error ? std::filesystem::current_path() : self.parent_path();
}

/// --headless: runs this same program again under xvfb-run (a private X
/// server with Mesa's software renderer). Returns only on failure.
int reexecUnderXvfb(int argc, char** argv, const demo::Options& options) {
  setenv(kUnderXvfb, "1", 1);
  const std::string self = (executableDir() / "keel_demo").string();
  const std::string screen = "-screen 0 " + std::to_string(options.width_px) + "x" + std::to_string(options.height_px) +
                             "x24";
  std::vector<std::string> args = {"xvfb-run", "-a", "-s", screen, self};
  for (int i = 1; i < argc; ++i) args.emplace_back(argv[i]);
  std::vector<char*> raw;
  for (std::string& a : args) raw.push_back(a.data());
  raw.push_back(nullptr);
  execvp("xvfb-run", raw.data());
  std::cerr << "keel_demo: --headless needs xvfb-run, which could not be started (" << std::strerror(errno)
            << ").\nInstall it with: scripts/install-deps.sh demo   (Debian packages xvfb xauth libgl1-mesa-dri)\n";
  return 1;
}

/// With wakes on, every boat makes waves; in the wake scenario, its
/// speedboat's wake shows on the drawn water round it.
bool wakesOk(const demo::Options& options, const demo::Harbour& harbour, const demo::RunResult& run) {
  const demo::WakeStats wakes = harbour.wakes().stats();
  if (!wakes.on) return true;
  if (wakes.boats != harbour.boats().size()) {
    std::printf("check: %zu of %zu boats registered with the wake field\n", wakes.boats, harbour.boats().size());
    return false;
  }
  if (options.scenario == "wake" && !(run.wakeDrawn_m >= kWakeDrawn_m)) {
    std::printf("check: the drawn wake round the speedboat is %.3f m, less than %.2f m\n", run.wakeDrawn_m,
                kWakeDrawn_m);
    return false;
  }
  if (options.scenario == "wake" && !(run.mooredRock_deg >= kMooredRock_deg)) {
    std::printf("check: the moored boats rocked %.2f deg in the speedboat's wake, less than %.1f deg\n",
                run.mooredRock_deg, kMooredRock_deg);
    return false;
  }
  return true;
}

/// With effects on, the boats report them; in the drop scenario, the
/// speedboat splashes as it lands and throws spray as it slams.
bool effectsOk(const demo::Options& options, const demo::RunResult& run) {
  const auto& n = run.effectEvents;
  if (options.scenario == "drop" && options.effects && (n[2] < 1 || n[0] < 1)) {
    std::printf("check: the dropped speedboat must splash and throw spray (%ld splash, %ld spray events)\n", n[2],
                n[0]);
    return false;
  }
  if (!options.effects && n[0] + n[1] + n[2] + n[3] > 0) {
    std::printf("check: --effects off, but the boats reported effect events\n");
    return false;
  }
  return true;
}

/// Prints what happened; returns false when --check finds a problem.
bool report(const demo::Options& options, const demo::Harbour& harbour, const demo::RunResult& run) {
  const demo::ContactStats& c = harbour.contacts();
  std::size_t moored = 0, sunk = 0, outside = 0;
  double draftSum = 0;
  std::string problems;
  for (const auto& boat : harbour.boats()) {
    moored += boat->moored() ? 1 : 0;
    draftSum += harbour.telemetry(*boat).draft_m;
    const std::string name = boat->type->spec.kind + " #" + std::to_string(boat->id);
    if (harbour.sunk(*boat)) ++sunk, problems += "  " + name + " sank\n";
    if (harbour.outsideBasin(*boat)) ++outside, problems += "  " + name + " left the harbour\n";
  }
  const std::size_t n = harbour.boats().size();
  std::printf("Keel harbour demo: %ld frames, %.2f s simulated, sea state %d (Hs %.2f m), scenario %s\n", run.frames,
              harbour.time_s(), harbour.seaState(), demo::significantWaveHeight_m(harbour.seaState()),
              options.scenario.c_str());
  std::printf("boats: %zu (%zu moored, %zu free); afloat %zu, sunk %zu, outside the harbour %zu\n", n, moored,
              n - moored, n - sunk, sunk, outside);
  std::printf("contacts: boat-dock %ld, boat-boat %ld (touching now: %d, %d)\n", c.boatDockEvents, c.boatBoatEvents,
              c.boatDockNow, c.boatBoatNow);
  std::printf("mean draft: %.2f m\n", n ? draftSum / double(n) : 0.0);
  std::printf("models: %zu on triangles, %zu on columns (far from the camera)\n", n - harbour.boatsOnColumns(),
              harbour.boatsOnColumns());
  const demo::WakeStats wakes = harbour.wakes().stats();
  if (wakes.on)
    std::printf(
        "wakes: on, %d x %d nodes of %.2f m (%.0f m, %s), %zu boats registered (those on columns make no "
        "waves); wave energy %.0f J; drawn within %.0f m of the selected boat: up to %.3f m\n",
        wakes.nodes, wakes.nodes, wakes.cell_m, wakes.size_m, wakes.following ? "following the boat" : "the basin",
        wakes.boats, wakes.energy_J, demo::RunResult::kWakeRadius_m, run.wakeDrawn_m);
  else
    std::printf("wakes: off\n");
  if (options.scenario == "wake")
    std::printf("moored boats: rocked through %.2f deg of heel or trim at most after %.0f s\n", run.mooredRock_deg,
                demo::RunResult::kRockFrom_s);
  const auto& fx = run.effectEvents;
  if (options.effects)
    std::printf("effects: %ld spray, %ld bow wave, %ld splash, %ld flooding events; up to %zu droplets in the air\n",
                fx[0], fx[1], fx[2], fx[3], run.peakDroplets);
  else
    std::printf("effects: off\n");
  if (run.physicsFrames > 0)
    std::printf("physics: %.2f ms a frame on average over %ld frames, the wake field's update %.2f ms of it\n",
                run.physicsTotal_ms / double(run.physicsFrames), run.physicsFrames,
                run.wakeTotal_ms / double(run.physicsFrames));
  if (run.screenshot)
    std::printf("screenshot: %s (%s)\n", options.screenshot.c_str(), run.screenshot->describe().c_str());
  std::fputs(problems.c_str(), stdout);
  // Light debris: finite, never faster than a diverging body, afloat, in the harbour.
  const bool debrisOk = demo::reportDebris(harbour.debris(), *harbour.sea(), harbour.time_s(), harbour.basin());
  if (!options.check) return true;

  // The sinking scenario's holed boat must sink, and only it.
  bool ok = outside == 0 && run.screenshotOk && debrisOk;
  if (options.scenario == "sinking") {
    bool scuttledSank = false;
    for (const auto& boat : harbour.boats()) scuttledSank |= boat->id == harbour.scuttledId() && harbour.sunk(*boat);
    if (!scuttledSank || sunk != 1) {
      std::printf("check: in the sinking scenario the holed boat must sink and no other (%s, %zu sunk)\n",
                  scuttledSank ? "it sank" : "it did not sink", sunk);
      ok = false;
    }
  } else if (sunk != 0) {
    ok = false;
  }
  // The wake and drop scenarios look at open water: a boat in view, no pier needed.
  const bool openWater = options.scenario == "wake" || options.scenario == "drop";
  const demo::SceneThresholds scene = openWater ? demo::SceneThresholds{0.15, 0.0005, 0} : demo::SceneThresholds{};
  if (!options.screenshot.empty() && (!run.screenshot || !demo::showsScene(*run.screenshot, scene))) {
    std::printf(
        "check: the screenshot does not show the harbour (need water >= %.0f%%, hull >= %.2f%%, pier >= %.1f%%)\n",
        scene.water * 100, scene.hull * 100, scene.pier * 100);
    ok = false;
  }
  // Far boats float on columns, near ones on triangles, unless a model is forced.
  const std::size_t onColumns = harbour.boatsOnColumns();
  const bool modelsOk = options.model == "columns" ? onColumns == n
                        : options.model == "triangles"
                            ? onColumns == 0
                            : options.scenario != "harbour" || (onColumns > 0 && onColumns < n);
  if (!modelsOk) {
    std::printf("check: --model %s but %zu of %zu boats on columns\n", options.model.c_str(), onColumns, n);
    ok = false;
  }
  if (!wakesOk(options, harbour, run)) ok = false;
  if (!effectsOk(options, run)) ok = false;
  if (options.scenario == "collide" && (c.boatDockEvents < 1 || c.boatBoatEvents < 1)) {
    std::printf("check: the collide scenario needs a boat-dock and a boat-boat contact\n");
    ok = false;
  }
  std::printf("check: %s\n", ok ? "PASS" : "FAIL");
  return ok;
}

}  // namespace

int main(int argc, char** argv) {
  const demo::ParseResult parsed = demo::parseOptions(argc, argv, KEEL_DEMO_MEDIA_DIR);
  if (!parsed.options) return parsed.exitCode;
  const demo::Options& options = *parsed.options;

  if (options.headless && !std::getenv(kUnderXvfb)) return reexecUnderXvfb(argc, argv, options);
  const char* display = std::getenv("DISPLAY");
  if (!display || !*display) {
    // Ogre's GL plugins need GLX; without a display they crash on unload.
    std::cerr << "keel_demo: no X display (DISPLAY is not set).\n"
                 "Run it on a desktop, or headless with --headless (uses xvfb-run), e.g.\n"
                 "  keel_demo --headless --seconds 5 --screenshot harbour.png\n";
    return 1;
  }

  // Ogre logs to stdout unless its LogManager exists first: log to a file.
  const std::string logPath = (std::filesystem::temp_directory_path() / "keel_demo_ogre.log").string();
  auto* logs = new Ogre::LogManager();
  logs->createLog(logPath, true, false, false);

  // Ctrl-C ends the run cleanly: last frame, screenshot, summary.
  std::signal(SIGINT, [](int) { demo::HarbourApp::requestStop(); });
  std::signal(SIGTERM, [](int) { demo::HarbourApp::requestStop(); });

  try {
    // Hull triangles up to two water cells long: the waterline stays close to
    // the sampled sea (docs/model.md §1, "The cut") without needless pieces.
    auto types = demo::loadBoatTypes(options.mediaDir, 2 * demo::Harbour::kWaterCell_m);
    demo::Harbour harbour(options, std::move(types));
    demo::RunResult result;
    {
      demo::HarbourApp app(options, harbour, (executableDir() / "plugins.cfg").string());
      result = app.run();
    }
    const bool ok = report(options, harbour, result);
    delete logs;
    return ok ? 0 : 1;
  } catch (const keel::HullError& e) {
    std::cerr << "keel_demo: a boat mesh is not a valid hull: " << e.what() << "\n";
  } catch (const Ogre::Exception& e) {
    std::cerr << "keel_demo: Ogre: " << e.getFullDescription() << "\n(log: " << logPath << ")\n";
  } catch (const std::exception& e) {
    std::cerr << "keel_demo: " << e.what() << "\n(Ogre log: " << logPath << ")\n";
  }
  return 1;
}
