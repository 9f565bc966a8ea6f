#pragma once
// A hull from a render mesh that is not closed (docs/integration.md, "Render
// meshes that are not closed").

#include "hull_from_file.hpp"

#include <iosfwd>
#include <string>

namespace game {

/// loadHull() with keel::HullOptions::closeOpenings: a render mesh with its
/// deck left out, seams, pieces cut apart or parts inside out is closed
/// first. Writes to `log` what was added, when anything was.
LoadedHull loadRenderHull(const std::string& path, const std::string& object, std::ostream& log);

}  // namespace game
