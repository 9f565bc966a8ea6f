#include "ocean_alongside.hpp"

#include <oneapi/tbb/task_group.h>

namespace game {

void stepWithOceanAlongside(btDynamicsWorld& world, keel::SpectralOcean& ocean, double from_s, double frame_s,
                            int substeps) {
  const double next_s = from_s + frame_s;
  // prepare() writes only tiles no query reads, so the boats read this
  // frame's tiles meanwhile; the task runs on a thread of the pool, which
  // Bullet's own step, on this thread alone, leaves idle for most of it.
  tbb::task_group next;
  next.run([&] { ocean.prepare(next_s, next_s + frame_s); });
  world.stepSimulation(btScalar(frame_s), substeps, btScalar(frame_s / substeps));
  next.wait();      // rethrows what prepare() threw
  ocean.publish();  // between steps: no query runs
}

}  // namespace game
