#pragma once
// A boat whose mesh is closed parts pushed into each other (docs/columns.md,
// "Overlapping parts").

#include <keel/columns.hpp>
#include <keel/hull.hpp>

#include <memory>

class btStridingMeshInterface;

namespace game {

/// A hull of `mesh`'s closed parts, which may overlap (a cabin sunk into the
/// deck): Keel's column model floats their union, and a keel::WaterAction on
/// it starts on columns. Throws keel::HullError for a mesh that is no closed
/// surface.
std::shared_ptr<const keel::Hull> unionHull(const btStridingMeshInterface& mesh);

/// The mass [kg] that floats `hull` upright (up +y) with its lowest point
/// `draft_m` below level water, from its columns: keel::massForDraft_kg's
/// exact triangle integrals refuse a hull whose parts overlap.
double massForDraftOnColumns(const keel::Hull& hull, double draft_m, double waterDensity_kgpm3 = 1025);

}  // namespace game
