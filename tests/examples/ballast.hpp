#pragma once
// Ballast for a design waterline: what a boat's structure leaves of its
// displacement, placed where it floats the boat level (docs/mass.md,
// "Ballast for a design waterline").

#include <keel/mass_properties.hpp>

namespace game {

/// A GRP boat drawn in a file's frame (y up, bow +x) with an engine,
/// ballasted with lead in its bilge to float level at `draft_m`.
keel::MassModel ballastedBoat(const keel::Hull& fileHull, double engine_kg, const btVector3& engine_m, double draft_m);

}  // namespace game
