#pragma once
// A spectral ocean's next tiles made while Bullet steps on this frame's
// (docs/threads.md, "The ocean alongside the step").

#include <keel/spectral_ocean.hpp>

#include <btBulletDynamicsCommon.h>

namespace game {

/// Steps `world` by one frame of `frame_s` [s] in `substeps` substeps, its
/// boats floating on `ocean`, whose tiles for the frame from `from_s` (the
/// boats' water clock now, [s]) to `from_s + frame_s` are published.
/// Meanwhile a task on oneTBB's pool prepares the next frame's tiles, which
/// are published once the step is done. Call `ocean.update(from_s, from_s +
/// frame_s)` before the first frame, and after a jump in time. Rethrows what
/// `prepare()` threw, with the ocean's published tiles left as they were.
void stepWithOceanAlongside(btDynamicsWorld& world, keel::SpectralOcean& ocean, double from_s, double frame_s,
                            int substeps);

}  // namespace game
