#include "render_hull.hpp"

#include <ostream>

namespace game {

LoadedHull loadRenderHull(const std::string& path, const std::string& object, std::ostream& log) {
  keel::HullOptions options;
  options.closeOpenings = true;  // split T-junctions, cap openings, reverse parts inside out
  LoadedHull loaded = loadHull(path, object, options);
  // The caps are part of the hull now: an opening far off a plane (a deck
  // with sheer, capFlatness_m) gets a flat cap, and the volume changes.
  const keel::HullRepair& repair = loaded.repair;
  if (repair.trianglesAdded > 0 || repair.partsFlipped > 0) log << path << ": " << repair.text() << '\n';
  return loaded;
}

}  // namespace game
