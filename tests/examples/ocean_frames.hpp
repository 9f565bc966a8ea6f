#pragma once
// An ocean that changes every frame, such as a GPU FFT ocean read back to
// the CPU (docs/integration.md, "An ocean that changes every frame").

#include <keel/height_grid.hpp>
#include <keel/water_fleet.hpp>

#include <btBulletDynamicsCommon.h>

#include <functional>
#include <span>

namespace game {

/// The game's ocean: fills `heights_m` (the grid's nodes, row-major, east
/// fastest) with the surface at time `t_s` [s] of the boats' water clock.
using OceanSource = std::function<void(double t_s, std::span<btScalar> heights_m)>;

/// Gives `ocean` its first snapshot, at the water clock's time `t_s` [s].
void startOcean(keel::HeightGridSurface& ocean, const OceanSource& source, double t_s);

/// Steps `world` by one frame of `frame_s` [s] in `substeps` substeps, the
/// fleet's boats floating on `ocean`, which `source` updates once a frame.
void stepFrame(btDynamicsWorld& world, const keel::WaterFleet& fleet, keel::HeightGridSurface& ocean,
               const OceanSource& source, double frame_s, int substeps);

}  // namespace game
